/**
 * The session era's part of Streamable HTTP (2025-03-26 to 2025-11-25), which the stateless era dropped:
 * the server's `Mcp-Session-Id` kept and sent on every request; a POST's SSE reply that ends before its
 * response resumed with `Last-Event-ID` after the server's `retry:`; the standalone GET stream, reopened the
 * same way when it drops; DELETE on close. Each session release's `clientRelease()` hands it to the
 * transport, so only a program that can speak the session era bundles it.
 */
import { abortController } from "./abort.js";
import {
  EVENT_STREAM,
  httpError,
  readStream,
  type FetchResponse,
  type HttpHost,
  type HttpSession,
} from "./http-client.js";
import type { SseParser } from "./sse-parser.js";

declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(timer: unknown): void;

const SESSION_HEADER = "Mcp-Session-Id";

/** The session era's HTTP for one transport; `clientRelease()` of a session release passes this to `connect`. */
export function httpSession(host: HttpHost): HttpSession {
  const maxReconnects = host.options.maxReconnects ?? 3;
  let sessionId: string | undefined;

  /** Waits the server's `retry:` (or the default) before a stream is opened again; rejects when the transport closes. */
  const pause = (parser: SseParser): Promise<void> =>
    delay(parser.retryMs ?? host.options.reconnectDelayMs ?? 1000, host.signal);

  const open = (lastEventId: string | undefined): Promise<FetchResponse> =>
    host.request({
      method: "GET",
      headers: host.headers(
        lastEventId === undefined
          ? { Accept: EVENT_STREAM }
          : { Accept: EVENT_STREAM, "Last-Event-ID": lastEventId },
      ),
    });

  /**
   * The standalone GET stream, reopened from its last event id whenever it ends or drops, after the server's
   * `retry:`. A stream that brought events counts as live (a server may end it to have the client poll); at
   * most `maxReconnects` reopenings in a row that bring nothing, then it stays closed. A refusal (405: the
   * server offers none) or the transport's close ends it.
   */
  async function listen(): Promise<void> {
    let events = 0;
    const parser = host.parser(() => events++);
    for (let idle = 0; idle <= maxReconnects;) {
      const before = events;
      const response = await open(parser.lastEventId);
      if (!response.ok || response.body === null) return;
      await readStream(response, parser, () => false);
      idle = events > before ? 0 : idle + 1;
      await pause(parser);
    }
  }

  return {
    headers(all) {
      if (sessionId !== undefined) all[SESSION_HEADER] = sessionId;
    },
    seen(response) {
      sessionId = response.headers.get(SESSION_HEADER) ?? sessionId;
    },
    async resume(parser, id, answered) {
      for (let attempt = 0; !answered(); attempt++) {
        const from = parser.lastEventId;
        if (from === undefined || attempt >= maxReconnects)
          throw host.ended(
            id,
            from === undefined ? "no event id to resume from" : `resumed ${attempt} times`,
          );
        await pause(parser);
        const response = await open(from);
        if (!response.ok || response.body === null)
          throw httpError(response.status, "while resuming the stream");
        await readStream(response, parser, answered);
      }
    },
    listen() {
      void listen().catch(() => undefined);
    },
    async close() {
      if (sessionId === undefined) return;
      // A fresh signal: the transport's own is aborted by now, and the DELETE must still go out.
      await host
        .fetch(host.url, {
          method: "DELETE",
          headers: host.headers(),
          signal: abortController().signal,
        })
        .then(
          () => undefined,
          () => undefined,
        );
    },
  };
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error("the transport is closed"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
