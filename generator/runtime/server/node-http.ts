import type { HeaderValues } from "./origin.js";
import type { HttpHandler, HttpReply } from "./http-server.js";
import type { StreamSink } from "./sse.js";
import { LazyAbort, onAbort } from "../core/abort.js";
import { concatBytes, utf8Encode } from "../core/text-codec.js";
import { createOutbox, type OutboxOptions } from "./outbox.js";

/**
 * The node:http adapter: `http.createServer(toNodeListener(handler))`. Typed by the members it uses
 * of `IncomingMessage` and `ServerResponse`, so the runtime imports nothing from Node; no `Request`
 * or `Response` object is built on this path.
 */

export interface NodeRequestLike {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: HeaderValues;
  on(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: "end" | "error", listener: () => void): unknown;
  destroy(): unknown;
}

export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string>): unknown;
  /** Sends the head now rather than with the first write (node's `ServerResponse` has it). */
  flushHeaders?(): unknown;
  /** False when the socket's buffer is full: more waits for `drain`. */
  write(chunk: Uint8Array): unknown;
  end(chunk?: string): unknown;
  on(event: "close" | "drain", listener: () => void): unknown;
  destroy(): unknown;
  readonly writableEnded: boolean;
}

/** Serves every request with `handler`; never throws, and every request gets exactly one response. */
export function toNodeListener(
  handler: HttpHandler,
): (request: NodeRequestLike, response: NodeResponseLike) => void {
  return (request, response) => {
    // No AbortSignal unless something reads it: most requests end without.
    const gone = new LazyAbort();
    response.on("close", () => {
      if (!response.writableEnded) gone.abort();
    });
    void handler
      .serve({
        method: request.method ?? "GET",
        path: request.url ?? "/",
        headers: request.headers,
        signal: gone,
        body: (limit) => readBody(request, limit),
      })
      .then((reply) => write(reply, response, gone, handler.outbox));
  };
}

function readBody(
  request: NodeRequestLike,
  limit: number,
): Promise<Uint8Array | string | false | undefined> {
  return new Promise((resolve) => {
    const declared = request.headers["content-length"];
    if (typeof declared === "string" && Number(declared) > limit) return resolve(false);
    const chunks: Uint8Array[] = [];
    let size = 0;
    let settled = false;
    const settle = (value: Uint8Array | false | undefined): void => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    request.on("data", (chunk) => {
      if (settled) return;
      const bytes = typeof chunk === "string" ? utf8Encode(chunk) : chunk;
      size += bytes.length;
      if (size > limit) {
        settle(false);
        return;
      }
      chunks.push(bytes);
    });
    request.on("end", () => settle(concatBytes(chunks, size)));
    request.on("error", () => settle(undefined));
  });
}

function write(
  reply: HttpReply,
  response: NodeResponseLike,
  gone: LazyAbort,
  limits: OutboxOptions,
): void {
  try {
    if (!("stream" in reply)) {
      response.writeHead(reply.status, { ...reply.headers });
      response.end(reply.body);
      return;
    }
    if (gone.aborted) {
      // The client left before the stream began: attached and gone at once, so the stream hears of it.
      const nowhere: StreamSink = { write: () => undefined, end: () => undefined };
      reply.stream.attach(nowhere);
      return reply.stream.detach(nowhere);
    }
    response.writeHead(reply.status, { ...reply.headers });
    // A stream may be quiet for long (a session's GET stream until a list changes): its client knows it is open.
    response.flushHeaders?.();
    // Written as fast as the client reads: held while the socket's buffer is full, dropped past the budget.
    const sink = createOutbox(
      {
        write: (bytes) => response.write(bytes) !== false,
        end: () => void response.end(),
        abort: () => void response.destroy(),
      },
      limits,
    );
    response.on("drain", () => sink.drained());
    onAbort(gone, () => reply.stream.detach(sink));
    sink.backlog(() => reply.stream.attach(sink));
  } catch {
    // The socket closed under us: nothing is left to answer.
  }
}
