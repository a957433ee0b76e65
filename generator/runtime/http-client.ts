/**
 * The client side of Streamable HTTP over the platform's `fetch`: each message is a POST whose reply is
 * JSON or an SSE stream, carrying the era's `MCP-Protocol-Version` and the session's per-message headers
 * (a stateless release's `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`). What only the session era has (its
 * `Mcp-Session-Id`, resumption, the GET stream, DELETE) is `http-session.ts`, which a session release hands
 * in through `begin`: the stateless era dropped all of it, so a stateless-only client bundles none of it.
 */
import { abortController, type AbortHandle } from "./abort.js";
import {
  answers,
  jsonMessage,
  requestIdOf,
  type ClientTransport,
  type SendOptions,
  type TransportEvents,
  type TransportFactory,
} from "./client-transport.js";
import { isObject } from "./json.js";
import { responseError } from "./responses.js";
import { rpcErrorOf } from "./rpc-error.js";
import { createSseParser, type SseParser } from "./sse-parser.js";

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
  /** Session era: how many times a reply's stream is resumed before its request fails, and how many reopenings of the GET stream in a row may bring nothing. Defaults to 3. */
  readonly maxReconnects?: number;
  /** Session era: the delay before resuming or reopening a stream when the server sent no `retry:`. Defaults to 1000 ms. */
  readonly reconnectDelayMs?: number;
  /** An SSE event or line larger than this fails its stream. Defaults to 16 MiB of text. */
  readonly maxEventChars?: number;
}

/** What the transport lends the session era's part (`http-session.ts`). */
export interface HttpHost {
  readonly url: string;
  readonly options: HttpTransportOptions;
  readonly fetch: Fetch;
  /** Aborted when the transport closes. */
  readonly signal: AbortSignal;
  /** A request with the transport's headers and signal; throws once the transport is closed. */
  request(init: Omit<FetchInit, "signal">): Promise<FetchResponse>;
  headers(extra?: Readonly<Record<string, string>>): Record<string, string>;
  /** A parser whose events go to the session as messages; `onEvent` sees each one first (`undefined` for one that is no message). */
  parser(onEvent?: (value: unknown) => void): SseParser;
  /** The error of a reply that ended before the response to request `id`. */
  ended(id: string | number, why: string): Error;
}

/** The session era's part of a transport. */
export interface HttpSession {
  /** Adds the session's headers (its `Mcp-Session-Id`) to a request's. */
  headers(all: Record<string, string>): void;
  /** Reads what every response says about the session (its id). */
  seen(response: FetchResponse): void;
  /** A reply's stream ended before the response to request `id`: resumes it until `answered()` or fails the request. */
  resume(parser: SseParser, id: string | number, answered: () => boolean): Promise<void>;
  /** The session is initialized: reads the standalone GET stream. */
  listen(): void;
  close(): Promise<void>;
}

export type HttpSessionFactory = (host: HttpHost) => HttpSession;

const VERSION_HEADER = "MCP-Protocol-Version";
export const EVENT_STREAM = "text/event-stream";

/** A Streamable HTTP transport to the MCP endpoint at `endpoint`, for `connect`: each attempt opens one through the factory it returns. */
export function httpTransport(
  endpoint: string | { readonly href: string },
  options: HttpTransportOptions = {},
): TransportFactory {
  const url = typeof endpoint === "string" ? endpoint : endpoint.href;
  return (events: TransportEvents): ClientTransport => {
    const fetchFn =
      options.fetch ?? (globalThis as unknown as { readonly fetch: Fetch }).fetch.bind(globalThis);
    const life: AbortHandle = abortController();
    let session: HttpSession | undefined;
    // Sent on every POST: a stateless era's from its first message on, a session era's once it is initialized.
    let protocolVersion: string | undefined;
    let closed = false;

    function headers(extra?: Readonly<Record<string, string>>): Record<string, string> {
      const all: Record<string, string> = {
        "Content-Type": "application/json",
        Accept: `application/json, ${EVENT_STREAM}`,
        ...options.headers,
        ...extra,
      };
      session?.headers(all);
      if (protocolVersion !== undefined) all[VERSION_HEADER] ??= protocolVersion;
      return all;
    }

    async function request(init: Omit<FetchInit, "signal">): Promise<FetchResponse> {
      if (closed) throw new Error("the transport is closed");
      const response = await fetchFn(url, { ...init, signal: life.signal });
      session?.seen(response);
      return response;
    }

    function parser(onEvent?: (value: unknown) => void): SseParser {
      return createSseParser(
        (event) => {
          const value = jsonMessage(event.data);
          onEvent?.(value);
          if (value !== undefined) events.message(value);
        },
        // The transport's options hold the parser's one option, `maxEventChars`, under its name.
        options,
      );
    }

    const ended = (id: string | number, why: string): Error =>
      new Error(`the stream from ${url} ended before the response to request ${id} (${why})`);

    const host: HttpHost = {
      url,
      options,
      fetch: fetchFn,
      signal: life.signal,
      request,
      headers,
      parser,
      ended,
    };

    async function send(message: object, sendOptions?: SendOptions): Promise<void> {
      const id = requestIdOf(message);
      const response = await request({
        method: "POST",
        headers: headers(sendOptions?.headers),
        body: JSON.stringify(message),
      });
      if (response.headers.get("content-type")?.includes(EVENT_STREAM) && response.body !== null) {
        if (!response.ok) throw httpError(response.status, "");
        return readReply(response, id);
      }
      const text = await response.text();
      const value = jsonMessage(text);
      // An error whose id the server could not read still answers this POST: it fails the call sent.
      const unaddressed =
        isObject(value) && value["id"] === null ? responseError(value) : undefined;
      if (unaddressed !== undefined) throw rpcErrorOf(unaddressed);
      if (value !== undefined) {
        events.message(value);
        if (id === undefined || answers(value, id)) return;
      }
      if (!response.ok) throw httpError(response.status, text);
      if (id !== undefined)
        throw new Error(`HTTP ${response.status} from ${url} carried no response to request ${id}`);
    }

    /** Reads a POST's SSE reply to its end; one that ends before the response to request `id` goes on where the era allows. */
    async function readReply(first: FetchResponse, id: string | number | undefined): Promise<void> {
      let answered = false;
      const stream = parser((value) => {
        if (id !== undefined && answers(value, id)) answered = true;
      });
      await readStream(first, stream, () => answered);
      if (answered || id === undefined) return;
      if (session === undefined) throw ended(id, "the stateless era does not resume streams");
      await session.resume(stream, id, () => answered);
    }

    return {
      send,
      begin(version, sessionFactory) {
        // A session era keeps the session it began (the server may agree on an older session release).
        session = sessionFactory === undefined ? undefined : (session ?? sessionFactory(host));
        protocolVersion = sessionFactory === undefined ? version : undefined;
      },
      started(version) {
        protocolVersion = version;
      },
      listen() {
        session?.listen();
      },
      async close() {
        if (closed) return;
        closed = true;
        life.abort();
        await session?.close();
      },
    };
  };
}

/** Feeds a response body to `parser` until it ends, fails, or `done()` says nothing more is wanted. */
export async function readStream(
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

export function httpError(status: number, detail: string): Error {
  return new Error(`HTTP ${status} ${detail.slice(0, 200)}`.trim());
}
