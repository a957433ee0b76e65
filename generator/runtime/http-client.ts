/**
 * The client side of Streamable HTTP over the platform's `fetch`: each message is a POST whose reply is
 * JSON or an SSE stream; a stream that ends before the response it owes is resumed with `Last-Event-ID`
 * after the server's `retry:` delay, when the server gave its events ids; a session-era server's
 * `Mcp-Session-Id` is kept and sent, its standalone GET stream read, and the session DELETEd on close.
 * Per-message headers (a stateless release's `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`) come from the session.
 */
import { abortController, type AbortHandle } from "./abort.js";
import {
  answers,
  parseJson,
  requestIdOf,
  type ClientTransport,
  type SendOptions,
  type TransportEvents,
  type TransportFactory,
} from "./client-transport.js";
import { isObject } from "./json.js";
import { responseError } from "./responses.js";
import { RpcError } from "./rpc-error.js";
import { createSseParser, type SseParser } from "./sse-parser.js";

declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(timer: unknown): void;

/** The members of a `fetch` Response this transport reads; the platform's Response has them. */
export interface FetchResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: {
    getReader(): {
      read(): Promise<{ readonly done: boolean; readonly value?: Uint8Array | undefined }>;
      cancel(reason?: unknown): Promise<void>;
    };
  } | null;
  text(): Promise<string>;
}

export interface FetchInit {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly signal: AbortSignal;
}

export type Fetch = (url: string, init: FetchInit) => Promise<FetchResponse>;

export interface HttpTransportOptions {
  /** Defaults to the platform's `fetch`. */
  readonly fetch?: Fetch;
  /** Sent with every request (an `Authorization` header, say). */
  readonly headers?: Readonly<Record<string, string>>;
  /** How many times one reply's stream is resumed before its request fails. Defaults to 3. */
  readonly maxReconnects?: number;
  /** The delay before resuming when the server sent no `retry:`. Defaults to 1000 ms. */
  readonly reconnectDelayMs?: number;
  /** An SSE event or line larger than this fails its stream. Defaults to 16 MiB of text. */
  readonly maxEventChars?: number;
}

const SESSION_HEADER = "Mcp-Session-Id";
const VERSION_HEADER = "MCP-Protocol-Version";
const EVENT_STREAM = "text/event-stream";

/** A Streamable HTTP transport to the MCP endpoint at `url`, for `connect`. */
export function httpTransport(
  url: string | { readonly href: string },
  options: HttpTransportOptions = {},
): TransportFactory {
  const href = typeof url === "string" ? url : url.href;
  return (events) => createHttpTransport(href, options, events);
}

function createHttpTransport(
  url: string,
  options: HttpTransportOptions,
  events: TransportEvents,
): ClientTransport {
  const fetchFn =
    options.fetch ?? (globalThis as unknown as { readonly fetch: Fetch }).fetch.bind(globalThis);
  const maxReconnects = options.maxReconnects ?? 3;
  const life: AbortHandle = abortController();
  let sessionId: string | undefined;
  let protocolVersion: string | undefined;
  let closed = false;

  function headers(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
    const all: Record<string, string> = {
      "Content-Type": "application/json",
      Accept: `application/json, ${EVENT_STREAM}`,
      ...options.headers,
      ...extra,
    };
    if (sessionId !== undefined) all[SESSION_HEADER] = sessionId;
    if (protocolVersion !== undefined) all[VERSION_HEADER] ??= protocolVersion;
    return all;
  }

  async function request(init: Omit<FetchInit, "signal">): Promise<FetchResponse> {
    if (closed) throw new Error("the transport is closed");
    const response = await fetchFn(url, { ...init, signal: life.signal });
    sessionId = response.headers.get(SESSION_HEADER) ?? sessionId;
    return response;
  }

  async function send(message: object, sendOptions: SendOptions = {}): Promise<void> {
    const id = requestIdOf(message);
    const response = await request({
      method: "POST",
      headers: headers(sendOptions.headers),
      body: JSON.stringify(message),
    });
    const type = response.headers.get("content-type") ?? "";
    if (type.includes(EVENT_STREAM) && response.body !== null) {
      if (!response.ok) throw httpError(response.status, "");
      return readReply(response, id);
    }
    const text = await response.text();
    const value = text.trim() === "" ? undefined : parseJson(text);
    // An error whose id the server could not read still answers this POST: it fails the call sent.
    const unaddressed = unaddressedError(value);
    if (unaddressed !== undefined) throw unaddressed;
    if (isObject(value) || Array.isArray(value)) {
      events.message(value);
      if (id === undefined || answers(value, id)) return;
    }
    if (!response.ok) throw httpError(response.status, text);
    if (id !== undefined)
      throw new Error(`HTTP ${response.status} from ${url} carried no response to request ${id}`);
  }

  /** Reads a POST's SSE reply to its end, resuming when it ends before the response to request `id`. */
  async function readReply(first: FetchResponse, id: string | number | undefined): Promise<void> {
    let answered = false;
    const parser = createSseParser(
      (event) => {
        const value = parseJson(event.data);
        if (!isObject(value) && !Array.isArray(value)) return;
        if (id !== undefined && answers(value, id)) answered = true;
        events.message(value);
      },
      options.maxEventChars === undefined ? {} : { maxEventChars: options.maxEventChars },
    );
    let response = first;
    for (let attempt = 0; ; attempt++) {
      await readStream(response, parser, () => answered);
      if (answered || id === undefined) return;
      const resumeFrom = parser.lastEventId;
      if (resumeFrom === undefined || attempt >= maxReconnects)
        throw new Error(
          `the stream from ${url} ended before the response to request ${id}` +
            (resumeFrom === undefined
              ? " (no event id to resume from)"
              : ` (resumed ${attempt} times)`),
        );
      await delay(parser.retryMs ?? options.reconnectDelayMs ?? 1000, life.signal);
      response = await request({
        method: "GET",
        headers: headers({ Accept: EVENT_STREAM, "Last-Event-ID": resumeFrom }),
      });
      if (!response.ok || response.body === null)
        throw httpError(response.status, "while resuming the stream");
    }
  }

  /** The session era's standalone GET stream: what the server sends outside any request's reply. A 405 means it offers none. */
  function listen(): void {
    const parser = createSseParser((event) => {
      const value = parseJson(event.data);
      if (isObject(value) || Array.isArray(value)) events.message(value);
    });
    void request({ method: "GET", headers: headers({ Accept: EVENT_STREAM }) })
      .then((response) => (response.ok ? readStream(response, parser, () => false) : undefined))
      .catch(() => undefined);
  }

  return {
    send,
    started(version, sessionEra) {
      if (sessionEra) protocolVersion = version;
    },
    listen() {
      if (protocolVersion !== undefined) listen();
    },
    async close() {
      if (closed) return;
      const session = sessionId;
      const deleteHeaders = headers();
      closed = true;
      life.abort();
      if (session === undefined) return;
      // A fresh signal: the transport's own is aborted now, and the DELETE must still go out.
      await fetchFn(url, {
        method: "DELETE",
        headers: deleteHeaders,
        signal: abortController().signal,
      })
        .then(() => undefined)
        .catch(() => undefined);
    },
  };
}

/** Feeds a response body to `parser` until it ends, fails, or `done()` says nothing more is wanted. */
async function readStream(
  response: FetchResponse,
  parser: SseParser,
  done: () => boolean,
): Promise<void> {
  const body = response.body;
  if (body === null) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done: ended, value } = await reader.read();
      if (ended) break;
      if (value !== undefined) parser.push(value);
      if (done()) break;
    }
    parser.end();
  } catch (error) {
    // A dropped connection ends the stream like its end would; a resume may follow. An overlong event does not.
    if (error instanceof RangeError) throw error;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function unaddressedError(value: unknown): RpcError | undefined {
  const error = isObject(value) && value["id"] === null ? responseError(value) : undefined;
  return error && new RpcError(error.code, error.message, error.data);
}

function httpError(status: number, detail: string): Error {
  return new Error(`HTTP ${status} ${detail.slice(0, 200)}`.trim());
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
