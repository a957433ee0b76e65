import { parseText, refusalAnswer } from "../core/jsonrpc.js";
import { createLineSplitter, encodeLine } from "../core/ndjson.js";
import { utf8Length } from "./event-store.js";
import { DEFAULT_MAX_UNSENT_BYTES } from "./outbox.js";
import {
  batchOf,
  isInitialize,
  type ServerSession,
  type SessionEra,
  type StatelessEra,
  type TransportContext,
} from "./server-eras.js";

/**
 * An MCP server over stdio (basic/transports, "stdio"): newline-delimited JSON-RPC read from
 * `input` and written to `output`, any readable/writable pair (the process's stdin and stdout in
 * practice). Nothing but messages goes to `output`; diagnostics go to `log` (stderr), as the
 * transport page requires. The connection is the session: an `initialize` as the first request makes
 * it a session of the session era; any other first request, the stateless era's connection. A line
 * may be a JSON-RPC batch where the session era's release allows batches (2025-03-26); its answer is
 * then one line holding the array of responses.
 */

export interface StdioServerOptions {
  /** The stateless release's era (`statelessEra` of its `server.ts`). */
  readonly stateless?: StatelessEra;
  /** The session release's era (`sessionEra` of its `server.ts`). */
  readonly sessions?: SessionEra;
  /** Chunks of input; `process.stdin` is one. */
  readonly input: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;
  /**
   * Where messages go; `process.stdout` is one. When `write` returns false and the output has `once`
   * (a Node writable), no more input is read until it emits `drain` (or `close`): a client that does
   * not read its answers stops being read from, instead of growing the server.
   */
  readonly output: {
    write(chunk: string): unknown;
    once?(event: "drain" | "close", listener: () => void): unknown;
    off?(event: "drain" | "close", listener: () => void): unknown;
  };
  /** Diagnostics (an overlong line, an internal error); e.g. `(text) => process.stderr.write(text + "\n")`. */
  readonly log?: (text: string) => void;
  /** Longer lines are dropped and logged. Default 4 MiB. */
  readonly maxLineBytes?: number;
  /**
   * Bytes written while the output is blocked (handlers of lines already read go on answering and
   * streaming): past this the client is dropped as too slow, logged; nothing more is written or read,
   * and its session's requests to the client fail. Default 1 MiB.
   */
  readonly maxUnsentBytes?: number;
}

export interface StdioServer {
  /** Settles once the input has ended and every request read has been answered. */
  readonly done: Promise<void>;
  /** Requests being handled, plus requests to the client still waiting for an answer. */
  readonly pending: number;
}

const NO_HEADERS = Object.freeze({});

export function serveStdio(options: StdioServerOptions): StdioServer {
  const log = (text: string): void => {
    try {
      options.log?.(text);
    } catch {
      // Logging must never stop the server.
    }
  };
  const maxUnsentBytes = options.maxUnsentBytes ?? DEFAULT_MAX_UNSENT_BYTES;
  // Settles once the output drains (or closes: nothing will drain it then); undefined while it takes more.
  let blocked: Promise<void> | undefined;
  let free: (() => void) | undefined;
  // Bytes written since the output blocked; the client is dropped past the budget.
  let unsent = 0;
  let dropped = false;
  const write = (message: object): void => {
    if (dropped) return;
    const output = options.output;
    const line = encodeLine(message);
    if (blocked !== undefined && (unsent += utf8Length(line)) > maxUnsentBytes) {
      dropped = true;
      log(
        `mcp stdio: dropped a client that reads too slowly (over maxUnsentBytes ${maxUnsentBytes} unsent)`,
      );
      session?.close();
      // The input loop waits for a drain that may never come: it goes on, to stop.
      free?.();
      return;
    }
    if (output.write(line) !== false || blocked !== undefined) return;
    const once = output.once?.bind(output);
    if (once === undefined) return;
    blocked = new Promise((resolve) => {
      const release = (): void => {
        output.off?.("drain", release);
        output.off?.("close", release);
        blocked = undefined;
        free = undefined;
        unsent = 0;
        resolve();
      };
      free = release;
      once("drain", release);
      once("close", release);
    });
  };
  // Chosen by the first request: the session once an initialize opened one.
  let session: ServerSession | undefined;
  let chosen: "stateless" | "sessions" | undefined;
  const inFlight = new Set<Promise<void>>();

  const base: TransportContext = { headers: NO_HEADERS, send: write };
  // List changes and resource updates reach the connection's session once its client is initialized.
  const stopBroadcasts = options.sessions?.onBroadcast((message, wants) => {
    if (session === undefined || !wants(session)) return;
    try {
      write(message);
    } catch (error) {
      log(`mcp stdio: ${String(error)}`);
    }
  });

  const track = (answered: Promise<object | undefined>): void => {
    const task = answered
      .then((response) => {
        if (response !== undefined) write(response);
      })
      .catch((error: unknown) => log(`mcp stdio: ${String(error)}`))
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  };

  const onLine = (line: string): void => {
    if (line.trim() === "") return;
    const parsed = parseText(line);
    if (!parsed.ok) {
      // A batch goes to the era a request would, as long as that era takes batches; it never chooses one.
      const era =
        chosen === "sessions" || options.stateless === undefined ? options.sessions : undefined;
      const items = era?.spec.batches === true ? batchOf(line) : undefined;
      if (era !== undefined && items !== undefined) {
        session ??= era.open(undefined);
        return track(era.handleBatch(session, items, base, undefined, () => write));
      }
      let answer = true;
      try {
        answer = refusalAnswer(JSON.parse(line)).answer;
      } catch {
        // Not JSON at all: -32700 with a null id.
      }
      if (answer)
        write({
          jsonrpc: "2.0",
          id: parsed.id ?? null,
          error: { code: parsed.error.code, message: parsed.error.message },
        });
      return;
    }
    const message = parsed.message;
    if (message.kind === "result" || message.kind === "error") {
      if (session === undefined || !session.receive(message))
        log(`mcp stdio: a response nothing waits for (id ${String(message.id)})`);
      return;
    }
    const sessions = options.sessions;
    if (chosen === undefined && message.kind === "request")
      chosen =
        sessions !== undefined &&
        (options.stateless === undefined || isInitialize(sessions.spec, message))
          ? "sessions"
          : "stateless";
    const era =
      chosen === "sessions" || options.stateless === undefined ? sessions : options.stateless;
    if (era === undefined) return log("mcp stdio: no era to serve with");
    if (era.kind === "sessions") {
      session ??= era.open(undefined);
      track(era.handle(session, message, base, undefined, () => write));
    } else track(era.handle(message, base, undefined));
  };

  const splitter = createLineSplitter(onLine, {
    ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
    onOverflow: () => log("mcp stdio: dropped a line over the size limit"),
  });

  const done = (async (): Promise<void> => {
    try {
      for await (const chunk of options.input) {
        splitter.push(chunk);
        while (blocked !== undefined) await blocked;
        if (dropped) break;
      }
    } catch (error) {
      log(`mcp stdio: input failed: ${String(error)}`);
    }
    splitter.end();
    stopBroadcasts?.();
    // No answer can come any more: requests to the client fail, so their handlers can finish.
    session?.close();
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  })();

  return {
    done,
    get pending() {
      return inFlight.size + (session?.pending ?? 0);
    },
  };
}
