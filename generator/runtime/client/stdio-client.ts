/**
 * The client side of the stdio transport: newline-delimited JSON-RPC over any readable/writable pair,
 * or over a server process that a spawn function the caller passes starts (the runtime imports no
 * process module). The server's stderr is its log: it is handed to `onStderr` line by line, or left
 * alone when the spawn function passes it through itself (Node: `stdio: ["pipe", "pipe", "inherit"]`).
 */
import type { ClientTransport, TransportEvents, TransportFactory } from "./client-transport.js";
import { connectionError, jsonMessage } from "./client-transport.js";
import { createLineSplitter, encodeLine } from "../core/ndjson.js";

/** Bytes or text as they arrive: a Node stream, or any async iterable. */
export type ByteSource = AsyncIterable<string | Uint8Array>;

export interface ByteSink {
  write(chunk: string): unknown;
  end?(): unknown;
  /** Where the sink reports a failed write (Node streams: a server that exited gives EPIPE). */
  on?(event: "error", listener: (error: Error) => void): unknown;
}

/** What the stdio transport needs of a spawned process: Node's ChildProcess has it. */
export interface ChildLike {
  readonly stdin: ByteSink | null;
  readonly stdout: ByteSource | null;
  readonly stderr?: ByteSource | null;
  kill(): unknown;
  /** Where the process reports that it could not start (Node: `spawn … ENOENT`), which must not go unheard. */
  on?(event: "error", listener: (error: Error) => void): unknown;
}

export interface StdioTransportOptions {
  /** Starts the server; called once per connection attempt. */
  readonly spawn?: () => ChildLike;
  /** Or an existing pair: messages are read from `readable` and written to `writable`. */
  readonly readable?: ByteSource;
  readonly writable?: ByteSink;
  /** Each line the server writes to stderr (when the process's stderr is piped). */
  readonly onStderr?: (line: string) => void;
  /** A line longer than this is dropped and fails the call it answers (every pending call when its id cannot be read). Defaults to 16 MiB. */
  readonly maxLineBytes?: number;
}

/** As ndjson.ts's default. */
const DEFAULT_MAX_LINE_BYTES = 16_777_216;
/** JSON-RPC's own code, the same in every release: the reply could not be taken. */
const INTERNAL_ERROR = -32603;

export function stdioTransport(options: StdioTransportOptions): TransportFactory {
  return (events) => createStdioTransport(options, events);
}

function createStdioTransport(
  options: StdioTransportOptions,
  events: TransportEvents,
): ClientTransport {
  const child = options.spawn?.();
  // Unheard, a process's "error" (a command that does not exist) would end the whole program.
  child?.on?.("error", (error) =>
    lost(connectionError(`the server's command could not start: ${error.message}`)),
  );
  const readable = child?.stdout ?? options.readable;
  const writable = child?.stdin ?? options.writable;
  if (readable === undefined || readable === null || writable === undefined || writable === null)
    throw new TypeError(
      "stdioTransport needs spawn (with piped stdin and stdout) or readable and writable",
    );
  let closed = false;
  // Once the server is gone every later send fails at once, rather than at its call's timeout.
  let gone: Error | undefined;
  function lost(error: Error): void {
    gone ??= error;
    events.closed(error);
  }
  // Unheard, a Node stream's "error" (EPIPE once the server exited) would end the whole process.
  writable.on?.("error", lost);
  const lines = createLineSplitter(
    (line) => {
      if (line.trim() === "") return;
      const value = jsonMessage(line);
      if (value !== undefined) events.message(value);
      else options.onStderr?.(`stdio: ignored a line that is no JSON-RPC message`);
    },
    {
      ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
      onOverflow: (head) => {
        const why = `exceeds ${options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES} bytes (maxLineBytes)`;
        // A request or notification of the server's answers no call of ours: its id is the server's.
        if (/^\s*\{[^{[]*"method"\s*:/.test(head))
          return options.onStderr?.(`stdio: dropped a message from the server that ${why}`);
        const id = leadingId(head);
        if (id === undefined)
          events.closed(
            new Error(`a line from the server ${why}; which call it answers is unknown`),
          );
        else
          events.message({
            jsonrpc: "2.0",
            id,
            error: { code: INTERNAL_ERROR, message: `the server's reply to request ${id} ${why}` },
          });
      },
    },
  );
  void (async () => {
    for await (const chunk of readable) lines.push(chunk);
    lines.end();
  })().then(
    () => lost(new Error("the server closed its stdout")),
    (error: unknown) => lost(error instanceof Error ? error : new Error(String(error))),
  );
  const stderr = child?.stderr;
  const onStderr = options.onStderr;
  if (stderr !== undefined && stderr !== null && onStderr !== undefined) {
    const errLines = createLineSplitter(onStderr);
    void (async () => {
      for await (const chunk of stderr) errLines.push(chunk);
      errLines.end();
    })().catch(() => undefined);
  }
  return {
    async send(message) {
      if (closed) throw new Error("the transport is closed");
      if (gone !== undefined) throw gone;
      writable.write(encodeLine(message));
    },
    begin() {},
    started() {},
    listen() {},
    async close() {
      if (closed) return;
      closed = true;
      writable.end?.();
      child?.kill();
    },
  };
}

/**
 * The id of the message a line starts, when it comes first (after `"jsonrpc"`), as serializers write it; read
 * from the line's first bytes only, as a line too long to take is not parsed.
 */
function leadingId(head: string): string | number | undefined {
  const found =
    /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*[,}]/.exec(
      head,
    );
  if (found === null) return undefined;
  const id: unknown = JSON.parse(found[1]!);
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}
