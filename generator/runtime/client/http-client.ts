/**
 * The client side of Streamable HTTP over the platform's `fetch`: each message is a POST whose reply is
 * JSON or an SSE stream, carrying the era's `MCP-Protocol-Version` and the session's per-message headers
 * (a stateless release's `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`). What only the session era has (its
 * `Mcp-Session-Id`, resumption, the GET stream, DELETE) is `http-session.ts`, which a session release hands
 * in through `begin`: the stateless era dropped all of it, so a stateless-only client bundles none of it.
 */
import { abortController, type AbortHandle } from "../core/abort.js";
import {
  answers,
  CONNECTION_ERROR,
  connectionError,
  jsonMessage,
  requestIdOf,
  type ClientTransport,
  type SendOptions,
  type TransportEvents,
  type TransportFactory,
} from "./client-transport.js";
import { isObject } from "../core/json.js";
import { responseError } from "../core/responses.js";
import { rpcErrorOf } from "../core/rpc-error.js";
import { createSseParser, type SseParser } from "./sse-parser.js";
import { utf8Decoder } from "../core/text-codec.js";
import type { RequestAuthorizer } from "./client-auth.js";
import type { Untimed } from "../core/requester.js";

/** The members of a `fetch` Response this transport reads; the platform's Response has them. */
export interface FetchResponse {
  readonly status: number;
  readonly ok: boolean;
  /** "opaqueredirect" where a browser hides a redirect's target. */
  readonly type?: string;
  readonly headers: { get(name: string): string | null };
  readonly body: {
    getReader(): {
      read(): Promise<{ readonly done: boolean; readonly value?: Uint8Array | undefined }>;
      cancel(reason?: unknown): Promise<void>;
    };
  } | null;
}

export interface FetchInit {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly signal: AbortSignal;
  /** Always "manual": the transport follows a redirect itself, only within the endpoint's origin. */
  readonly redirect: "manual";
  /**
   * A call's POST: the call's `untimed`, for the authorizer (`auth`) that waits for the user on a
   * refusal; the platform's `fetch` ignores it.
   */
  readonly untimed?: Untimed | undefined;
}

export type Fetch = (url: string, init: FetchInit) => Promise<FetchResponse>;

export interface HttpTransportOptions {
  /** Defaults to the platform's `fetch`. */
  readonly fetch?: Fetch;
  /** Sent with every request (an `Authorization` header, say); never to another origin. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Session era: how many times a reply's stream is resumed before its request fails, and how many reopenings of the GET stream in a row may fail or bring nothing. Defaults to 3. */
  readonly maxReconnects?: number;
  /** Session era: the delay before resuming or reopening a stream when the server sent no `retry:`; the GET stream doubles it after each reopening in a row that fails or brings nothing. Defaults to 1000 ms. */
  readonly reconnectDelayMs?: number;
  /** An SSE event or line larger than this fails its stream. Defaults to 16 MiB of text. */
  readonly maxEventChars?: number;
  /** A JSON reply larger than this fails its call. Defaults to 16 MiB. */
  readonly maxReplyBytes?: number;
  /**
   * Authorizes requests (`oauthClient` of the `oauth/` part, or `authorizeRequests(yours)`) by wrapping `fetch`:
   * its token goes on every request; a 401 authorizes and retries the request once, a 403
   * `insufficient_scope` steps up and retries it once.
   */
  readonly auth?: RequestAuthorizer;
}

/** What the transport lends the session era's part (`http-session.ts`). */
export interface HttpHost {
  readonly url: string;
  readonly options: HttpTransportOptions;
  readonly fetch: Fetch;
  /** Aborted when the transport closes. */
  readonly signal: AbortSignal;
  /**
   * A request to the endpoint with `signal` (the transport's by default), a same-origin 307/308 followed;
   * throws once the transport is closed, and a connection error (`client-transport.ts`) when the server
   * cannot be reached, redirects elsewhere or refuses the credentials.
   */
  request(init: EndpointRequest, signal?: AbortSignal): Promise<FetchResponse>;
  headers(extra?: Readonly<Record<string, string>>): Record<string, string>;
  /** A parser whose events go to the session as messages; `onEvent` sees each one first (`undefined` for one that is no message). */
  parser(onEvent?: (value: unknown) => void): SseParser;
  /** The error of a reply that ended before the response to request `id`. */
  ended(id: string | number, why: string): Error;
}

/** A request to the endpoint, before the transport adds its signal and `redirect: "manual"`. */
export type EndpointRequest = Omit<FetchInit, "signal" | "redirect">;

/** The session era's part of a transport. */
export interface HttpSession {
  /** Adds the session's headers (its `Mcp-Session-Id`) to a request's. */
  headers(all: Record<string, string>): void;
  /**
   * Reads what every response says about the session (its id); `sent` are the request's headers. When it
   * says the session is gone (a 404 to a request that carried a session id, which is then forgotten), the
   * error to fail the request with, for `connect` to start a new session.
   */
  seen(response: FetchResponse, sent: Readonly<Record<string, string>>): Error | undefined;
  /** A reply's stream ended before the response to request `id`: resumes it until `answered()` or fails the request. */
  resume(parser: SseParser, id: string | number, answered: () => boolean): Promise<void>;
  /** The session is initialized: reads the standalone GET stream. */
  listen(): void;
  close(): Promise<void>;
}

export type HttpSessionFactory = (host: HttpHost) => HttpSession;

const VERSION_HEADER = "MCP-Protocol-Version";
export const EVENT_STREAM = "text/event-stream";
/** 16 MiB, as a stdio line and an SSE event. */
const DEFAULT_MAX_REPLY_BYTES = 16_777_216;
const MAX_REDIRECTS = 5;

const platform = globalThis as unknown as {
  readonly URL: new (
    url: string,
    base: string,
  ) => { readonly href: string; readonly origin: string };
};

/** A Streamable HTTP transport to the MCP endpoint at `endpoint`, for `connect`: each attempt opens one through the factory it returns. */
export function httpTransport(
  endpoint: string | { readonly href: string },
  options: HttpTransportOptions = {},
): TransportFactory<HttpSessionFactory> {
  const url = typeof endpoint === "string" ? endpoint : endpoint.href;
  const shown = shownUrl(url);
  return (events: TransportEvents): ClientTransport<HttpSessionFactory> => {
    const plain =
      options.fetch ?? (globalThis as unknown as { readonly fetch: Fetch }).fetch.bind(globalThis);
    // The authorizer wraps fetch, so that a transport without one carries no authorization code.
    const fetchFn = options.auth?.fetch(url, plain) ?? plain;
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

    async function request(init: EndpointRequest, signal = life.signal): Promise<FetchResponse> {
      if (closed) throw new Error("the transport is closed");
      let target = url;
      for (let hops = 0; ; hops++) {
        const response = await fetchFn(target, { ...init, redirect: "manual", signal }).catch(
          (error: unknown) => {
            // A connection error (a failed authorization) says why already.
            throw signal.aborted || (error as Error | undefined)?.name === CONNECTION_ERROR
              ? error
              : unreachable(target, error);
          },
        );
        const next = redirectTarget(response, target);
        if (next === undefined) return checked(response, init.headers);
        await discard(response);
        if (hops === MAX_REDIRECTS) throw connectionError(`too many redirects from ${shown}`);
        target = next;
      }
    }

    /** The response, unless it says the session is gone or the credentials were refused. */
    async function checked(
      response: FetchResponse,
      sent: Readonly<Record<string, string>>,
    ): Promise<FetchResponse> {
      const status = response.status;
      const refused =
        session?.seen(response, sent) ??
        (status === 401
          ? connectionError(`HTTP 401 from ${shown}: credentials missing or refused`)
          : status === 403
            ? connectionError(`HTTP 403 from ${shown}: the credentials do not allow this request`)
            : undefined);
      if (refused === undefined) return response;
      await discard(response);
      throw refused;
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
      new Error(`the stream from ${shown} ended before the response to request ${id} (${why})`);

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
      // A call's POST and its reply end with the transport or with the call, whichever goes first.
      const both = sendOptions?.signal && linked(life.signal, sendOptions.signal);
      try {
        await exchange(message, sendOptions, both?.signal ?? life.signal);
      } finally {
        both?.release();
      }
    }

    async function exchange(
      message: object,
      sent: SendOptions | undefined,
      signal: AbortSignal,
    ): Promise<void> {
      const id = requestIdOf(message);
      const response = await request(
        {
          method: "POST",
          headers: headers(sent?.headers),
          body: JSON.stringify(message),
          untimed: sent?.untimed,
        },
        signal,
      );
      if (response.headers.get("content-type")?.includes(EVENT_STREAM) && response.body !== null) {
        if (!response.ok) throw httpError(response.status, "");
        return readReply(response, id, signal);
      }
      const text = await readText(response, options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES);
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
        throw new Error(
          `HTTP ${response.status} from ${shown} carried no response to request ${id}`,
        );
    }

    /** A JSON reply's text, read up to `max` bytes: a larger one fails (its call, when it is one's reply). */
    async function readText(response: FetchResponse, max: number): Promise<string> {
      const decoder = utf8Decoder();
      let text = "";
      let size = 0;
      await readChunks(response, (chunk) => {
        size += chunk.length;
        if (size > max)
          throw new RangeError(`the reply from ${shown} exceeds ${max} bytes (maxReplyBytes)`);
        text += decoder.decode(chunk, { stream: true });
        return false;
      });
      return text + decoder.decode();
    }

    /** Reads a POST's SSE reply to its end; one that ends before the response to request `id` goes on where the era allows. */
    async function readReply(
      first: FetchResponse,
      id: string | number | undefined,
      signal: AbortSignal,
    ): Promise<void> {
      let answered = false;
      const stream = parser((value) => {
        if (id !== undefined && answers(value, id)) answered = true;
      });
      await readStream(first, stream, () => answered);
      // A call that failed (timed out, aborted) wants nothing more: its stream was cut on purpose.
      if (answered || id === undefined || signal.aborted) return;
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

/**
 * Where a redirect response sends the request, when the transport may follow it: a 307 or 308 (which keep
 * the method and body) within the origin it was sent to. Any other redirect is a connection error naming it:
 * following one across origins would hand the request, its headers and their credentials to another server.
 */
function redirectTarget(response: FetchResponse, from: string): string | undefined {
  if (response.type === "opaqueredirect")
    throw connectionError(
      `${shownUrl(from)} redirects to a URL this platform hides; give the transport that URL`,
    );
  const location = response.headers.get("location");
  const status = response.status;
  if (status < 300 || status > 399 || location === null) return undefined;
  const next = new platform.URL(location, from);
  if (next.origin !== new platform.URL(from, from).origin || (status !== 307 && status !== 308))
    throw connectionError(
      `HTTP ${status} from ${shownUrl(from)} redirects to ${shownUrl(next.href)}: the transport follows only a 307 or 308 within the origin, which keep the POST and send its credentials nowhere else`,
    );
  return next.href;
}

/**
 * A URL as errors name it: without userinfo, query or fragment, where credentials ride (`user:token@`,
 * `?api_key=`), since an error's message reaches logs and users.
 */
export function shownUrl(href: string): string {
  return href.replace(/^([^:/?#]+:\/\/)[^/?#]*@/, "$1").replace(/[?#].*$/, "");
}

/** A connection error for a fetch that failed: the platform's "fetch failed" says why only in its cause. */
function unreachable(url: string, error: unknown): Error {
  const failed = error as {
    readonly message?: string;
    readonly cause?: { readonly message?: string };
  };
  // The platform's reason may quote the URL whole (undici refuses one with credentials, naming it).
  const why = String(failed?.cause?.message || failed?.message)
    .split(url)
    .join(shownUrl(url));
  return connectionError(`cannot reach ${shownUrl(url)} (${why})`);
}

/** A signal aborted with either of two; `release` stops listening to them (the transport's lives on). */
function linked(
  first: AbortSignal,
  second: AbortSignal,
): { readonly signal: AbortSignal; release(): void } {
  const both = abortController();
  const abort = (): void => both.abort();
  if (first.aborted || second.aborted) abort();
  first.addEventListener("abort", abort);
  second.addEventListener("abort", abort);
  return {
    signal: both.signal,
    release() {
      first.removeEventListener("abort", abort);
      second.removeEventListener("abort", abort);
    },
  };
}

async function discard(response: FetchResponse): Promise<void> {
  await response.body
    ?.getReader()
    .cancel()
    .catch(() => undefined);
}

/** Reads a response's body chunk by chunk until it ends or `each` returns true; releases it either way. */
async function readChunks(
  response: FetchResponse,
  each: (chunk: Uint8Array) => boolean,
): Promise<void> {
  const reader = response.body?.getReader();
  if (reader === undefined) return;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || (value !== undefined && each(value))) return;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** Feeds a response body to `parser` until it ends, fails, or `done()` says nothing more is wanted. */
export async function readStream(
  response: FetchResponse,
  parser: SseParser,
  done: () => boolean,
): Promise<void> {
  if (response.body === null) return;
  try {
    await readChunks(response, (chunk) => {
      parser.push(chunk);
      return done();
    });
    parser.end();
  } catch (error) {
    if (error instanceof RangeError) throw error;
  }
}

export function httpError(status: number, detail: string): Error {
  return new Error(`HTTP ${status} ${detail.slice(0, 200)}`.trim());
}
