/**
 * The session era's part of Streamable HTTP (2025-03-26 to 2025-11-25), which the stateless era dropped:
 * the server's `Mcp-Session-Id` kept and sent on every request; a POST's SSE reply that ends before its
 * response resumed with `Last-Event-ID` after the server's `retry:`; the standalone GET stream, reopened the
 * same way when it drops; DELETE on close. Each session release's `clientRelease()` hands it to the
 * transport, so only a program that can speak the session era bundles it.
 */
import { abortController } from "../core/abort.js";
import {
  EVENT_STREAM,
  httpError,
  readStream,
  shownUrl,
  type FetchResponse,
  type HttpHost,
  type HttpSession,
} from "./http-client.js";
import type { SseParser } from "./sse-parser.js";
import { namedError, SESSION_EXPIRED } from "./client-transport.js";

declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(timer: unknown): void;

const SESSION_HEADER = "Mcp-Session-Id";

/** The session era's HTTP for one transport; `clientRelease()` of a session release passes this to `connect`. */
export function httpSession(host: HttpHost): HttpSession {
  const maxReconnects = host.options.maxReconnects ?? 3;
  let sessionId: string | undefined;
  // Each `listen()` starts a GET loop; one of a session that has since been replaced ends.
  let listening = 0;

  /** The server's `retry:` (or the default), doubled for each reopening in a row that failed or brought nothing. */
  const pause = (parser: SseParser, idle = 0): Promise<void> =>
    delay((parser.retryMs ?? host.options.reconnectDelayMs ?? 1000) * 2 ** idle, host.signal);

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
   * The standalone GET stream, reopened from its last event id whenever it ends, drops or cannot be opened
   * (the server unreachable, a 5xx), after the server's `retry:`, backing off while reopenings bring nothing. A
   * stream that brought events counts as live (a server may end it to have the client poll); after
   * `maxReconnects` reopenings in a row that bring nothing, it stays closed. A refusal (405: the server offers
   * none; another 4xx), the session's end or the transport's close ends it.
   */
  async function listen(generation: number): Promise<void> {
    let events = 0;
    const parser = host.parser(() => events++);
    for (let idle = 0; generation === listening;) {
      const before = events;
      const response = await open(parser.lastEventId).catch((error: unknown) => {
        if (host.signal.aborted || (error as Error).name === SESSION_EXPIRED) throw error;
        return undefined;
      });
      if (
        response !== undefined &&
        !response.ok &&
        response.status < 500 &&
        response.status !== 429
      )
        return;
      if (response?.ok === true) await readStream(response, parser, () => generation !== listening);
      idle = events > before ? 0 : idle + 1;
      if (idle > maxReconnects) return;
      await pause(parser, idle);
    }
  }

  return {
    headers(all) {
      if (sessionId !== undefined) all[SESSION_HEADER] = sessionId;
    },
    seen(response, sent) {
      const carried = sent[SESSION_HEADER];
      if (response.status === 404 && carried !== undefined) {
        // The server forgot the session: requests go without its id until a new session gives one.
        if (sessionId === carried) sessionId = undefined;
        listening++;
        return namedError(
          SESSION_EXPIRED,
          `${shownUrl(host.url)} no longer knows the session (HTTP 404)`,
        );
      }
      sessionId = response.headers.get(SESSION_HEADER) ?? sessionId;
      return undefined;
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
      void listen(++listening).catch(() => undefined);
    },
    async close() {
      if (sessionId === undefined) return;
      // A fresh signal: the transport's own is aborted by now, and the DELETE must still go out.
      await host
        .fetch(host.url, {
          method: "DELETE",
          redirect: "manual",
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
