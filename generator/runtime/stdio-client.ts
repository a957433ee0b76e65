/**
 * The client side of the stdio transport: newline-delimited JSON-RPC over any readable/writable pair,
 * or over a server process that a spawn function the caller passes starts (the runtime imports no
 * process module). The server's stderr is its log: it is handed to `onStderr` line by line, or left
 * alone when the spawn function passes it through itself (Node: `stdio: ["pipe", "pipe", "inherit"]`).
 */
import type { ClientTransport, TransportEvents, TransportFactory } from "./client-transport.js";
import { jsonMessage } from "./client-transport.js";
import { createLineSplitter, encodeLine } from "./ndjson.js";

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
}

export interface StdioTransportOptions {
  /** Starts the server; called once per connection attempt. */
  readonly spawn?: () => ChildLike;
  /** Or an existing pair: messages are read from `readable` and written to `writable`. */
  readonly readable?: ByteSource;
  readonly writable?: ByteSink;
  /** Each line the server writes to stderr (when the process's stderr is piped). */
  readonly onStderr?: (line: string) => void;
  /** A line longer than this is dropped (and the drop reported to onStderr). Defaults to 16 MiB. */
  readonly maxLineBytes?: number;
}

export function stdioTransport(options: StdioTransportOptions): TransportFactory {
  return (events) => createStdioTransport(options, events);
}

function createStdioTransport(
  options: StdioTransportOptions,
  events: TransportEvents,
): ClientTransport {
  const child = options.spawn?.();
  const readable = child?.stdout ?? options.readable;
  const writable = child?.stdin ?? options.writable;
  if (readable === undefined || readable === null || writable === undefined || writable === null)
    throw new TypeError(
      "stdioTransport needs spawn (with piped stdin and stdout) or readable and writable",
    );
  let closed = false;
  // Once the server is gone every later send fails at once, rather than at its call's timeout.
  let gone: Error | undefined;
  const lost = (error: Error): void => {
    gone ??= error;
    events.closed(error);
  };
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
      onOverflow: () => options.onStderr?.("stdio: dropped an overlong line"),
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
