import { abortController, type AbortHandle } from "./abort.js";
import type { DispatchResponse } from "./dispatcher.js";
import type { JsonObject } from "./json.js";
import { parseText, type WireMessage } from "./jsonrpc.js";
import { checkOrigin, type HeaderValues, type OriginPolicy } from "./origin.js";
import {
  createOutbox,
  DEFAULT_MAX_UNSENT_BYTES,
  type Outbox,
  type OutboxOptions,
} from "./outbox.js";
import {
  batchOf,
  isInitialize,
  type EraCodes,
  type ServerSession,
  type SessionEra,
  type StatelessEra,
  type TransportContext,
} from "./server-eras.js";
import { createEventStream, parseEventId, type EventStream, type StreamSink } from "./sse.js";

/**
 * An MCP server over Streamable HTTP (basic/transports) for both eras on one endpoint, written
 * against nothing but the platform's fetch types: `handler.fetch(request)` serves Node 18+, Deno,
 * Bun and Cloudflare Workers; `serve(exchange)` is what the node:http adapter calls, without
 * building a `Request`. Era routing: a request with an `Mcp-Session-Id`, with an
 * `MCP-Protocol-Version` the session era serves, or an `initialize` without that header belongs to
 * the session era; every other request to the stateless era.
 */

// Timers exist on every platform the output runs on, but not in the ES library it compiles against.
declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(timer: unknown): void;

/** Lets the process exit while only this timer is left, where the platform's timers have `unref` (Node, Bun, Deno). */
function unref(timer: unknown): void {
  if (typeof timer === "object" && timer !== null && "unref" in timer) {
    const release = timer.unref;
    if (typeof release === "function") release.call(timer);
  }
}

export interface HttpServerOptions extends OriginPolicy {
  /** The stateless release's era (`statelessEra` of its `server.ts`). */
  readonly stateless?: StatelessEra;
  /** The session release's era (`sessionEra` of its `server.ts`). */
  readonly sessions?: SessionEra;
  /** The endpoint's path; other paths get 404. Default: every path. */
  readonly path?: string;
  /** Largest request body, in bytes; a larger one gets 413. Default 1 MiB. */
  readonly bodyLimit?: number;
  /** Check `Host` and `Origin` against `allowedHosts`/`allowedOrigins` (DNS rebinding, 403). Default true. */
  readonly checkOrigin?: boolean;
  /**
   * A session nobody used for this long, and whose GET stream no client holds open, is closed; its id then gets
   * 404. Default 30 min. Checked when
   * requests arrive and on a timer while sessions are open (a quarter of this, at most 15 s apart).
   */
  readonly sessionIdleMs?: number;
  /** More open sessions than this and `initialize` gets 503. Default 10,000. */
  readonly maxSessions?: number;
  /**
   * How long a session request keeps running after its client disconnected, so that a reconnect with
   * `Last-Event-ID` gets the rest (the 2025 transport: a disconnect is not a cancellation). Default
   * 30 s; 0 aborts the handler's signal at once. Stateless requests are always aborted at once.
   */
  readonly resumeWindowMs?: number;
  /** Events kept per session stream for `Last-Event-ID`. Default 100. */
  readonly maxStreamEvents?: number;
  /**
   * Output an event stream may hold for a client that does not read it, in bytes (beyond what the
   * socket itself buffers); past it the connection is dropped and `onError` is told why. One event
   * always fits. Default 1 MiB.
   */
  readonly maxUnsentBytes?: number;
  /**
   * Sees internal errors (a bug, a throwing hook) and streams dropped for a reader too far behind
   * (`maxUnsentBytes`); the client only ever gets a generic answer.
   */
  readonly onError?: (error: unknown) => void;
  /** The clock, in ms (tests set it). */
  readonly now?: () => number;
}

/** What the adapters hand the handler: one HTTP request, read lazily. */
export interface HttpExchange {
  readonly method: string;
  /** The path, with or without the query. */
  readonly path: string;
  /** Header values by lower-cased name. */
  readonly headers: HeaderValues;
  /** The body, up to `limit` bytes; `false` beyond, `undefined` when it could not be read. */
  body(limit: number): Promise<Uint8Array | string | false | undefined>;
  /** Aborted when the client goes away before the reply has ended. */
  readonly signal: AbortSignal;
}

/** The reply: a whole body, or an event stream that the adapter writes as it comes. */
export type HttpReply =
  | {
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: string | undefined;
    }
  | {
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly stream: EventStream;
    };

/** The members of a fetch `Request` the handler reads. */
export interface RequestLike {
  readonly method: string;
  readonly url: string;
  readonly headers: { forEach(callback: (value: string, name: string) => void): void };
  readonly body: {
    getReader(): {
      read(): Promise<{ readonly done: boolean; readonly value?: Uint8Array | undefined }>;
      cancel(): Promise<void>;
    };
  } | null;
  readonly signal?: AbortSignal;
}

/** The members of a fetch `Response` that code without the platform's types can read. */
export interface ResponseLike {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** The platform's `Response` where the project declares one (DOM, @types/node, workers), else `ResponseLike`. */
export type PlatformResponse = typeof globalThis extends { Response: { prototype: infer R } }
  ? R
  : ResponseLike;

export interface HttpHandler {
  /** Request → Response; never throws or rejects. */
  fetch(request: RequestLike): Promise<PlatformResponse>;
  /** The adapters' entry: never throws or rejects. */
  serve(exchange: HttpExchange): Promise<HttpReply>;
  /** Ends every stream and session (the server is shutting down). */
  close(): void;
  /** Open sessions. */
  readonly sessions: number;
  /** Requests being handled, plus requests to clients still waiting for an answer: 0 when idle. */
  readonly pending: number;
  /** How the adapters bound each event stream's unsent output (`maxUnsentBytes`, reported to `onError`). */
  readonly outbox: OutboxOptions;
}

interface ByteQueue {
  enqueue(chunk: Uint8Array): void;
  close(): void;
  error(reason: unknown): void;
  readonly desiredSize: number | null;
}
interface Decoder {
  decode(bytes: Uint8Array): string;
}
const platform = globalThis as unknown as {
  readonly Response: new (
    body: unknown,
    init: { status: number; headers: Record<string, string> },
  ) => unknown;
  readonly ReadableStream: new (
    source: { start(queue: ByteQueue): void; pull(): void; cancel(): void },
    strategy: { highWaterMark: number; size(chunk: Uint8Array): number },
  ) => unknown;
  readonly TextDecoder: new () => Decoder;
  readonly crypto: { getRandomValues(array: Uint8Array): Uint8Array };
};

const DEFAULT_BODY_LIMIT = 1024 * 1024;
const DEFAULT_IDLE_MS = 30 * 60 * 1000;
const DEFAULT_MAX_SESSIONS = 10_000;
const DEFAULT_RESUME_MS = 30_000;
const DEFAULT_STREAM_EVENTS = 100;
const SESSION_HEADER = "mcp-session-id";
const VERSION_HEADER = "mcp-protocol-version";
const JSON_TYPE = "application/json";
const SSE_TYPE = "text/event-stream";
/** Streams kept per session for resumption after they ended. */
const ENDED_STREAMS_KEPT = 8;
/** JSON-RPC's codes, for answers given before any era is known. */
const BASE_CODES: EraCodes = {
  invalidRequest: -32600,
  invalidParams: -32602,
  internalError: -32603,
};

interface Session {
  readonly id: string;
  readonly core: ServerSession;
  readonly era: SessionEra;
  /** The version the session's `initialize` agreed on. */
  version: string | undefined;
  lastSeen: number;
  /** Its streams by id: the standalone GET stream and the request streams, for `Last-Event-ID`. */
  readonly streams: Map<string, EventStream>;
  standalone: EventStream | undefined;
  active: number;
}

interface ReplyPlan {
  readonly json: boolean;
  readonly sse: boolean;
}

function header(headers: HeaderValues, name: string): string | undefined {
  const value = headers[name];
  return typeof value === "string" ? value : undefined;
}

/** Whether a client holds the session's standalone GET stream open: it is still there, however long since it POSTed. */
function listening(session: Session): boolean {
  const stream = session.standalone;
  return stream !== undefined && !stream.ended && stream.attached;
}

function randomId(): string {
  const bytes = platform.crypto.getRandomValues(new Uint8Array(16));
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

function errorBody(code: number, message: string, id?: string | number): JsonObject {
  return id === undefined
    ? { jsonrpc: "2.0", error: { code, message } }
    : { jsonrpc: "2.0", id, error: { code, message } };
}

function jsonReply(status: number, body: object, headers: Record<string, string> = {}): HttpReply {
  return { status, headers: { ...headers, "content-type": JSON_TYPE }, body: JSON.stringify(body) };
}

function failReply(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id?: string | number,
): HttpReply {
  return jsonReply(status, errorBody(code, message, id), headers);
}

/** What the client accepts: a missing `Accept` takes either; `*∕*` and `application/*` count too. */
function acceptance(headers: HeaderValues): ReplyPlan {
  const accept = header(headers, "accept")?.toLowerCase();
  if (accept === undefined || accept.includes("*/*")) return { json: true, sse: true };
  return {
    json: accept.includes(JSON_TYPE) || accept.includes("application/*"),
    sse: accept.includes(SSE_TYPE) || accept.includes("text/*"),
  };
}

function textOf(body: Uint8Array | string): string | undefined {
  if (typeof body === "string") return body;
  try {
    return new platform.TextDecoder().decode(body);
  } catch {
    return undefined;
  }
}

export function createHttpHandler(options: HttpServerOptions): HttpHandler {
  const stateless = options.stateless;
  const sessionEra = options.sessions;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const idleMs = options.sessionIdleMs ?? DEFAULT_IDLE_MS;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const resumeMs = options.resumeWindowMs ?? DEFAULT_RESUME_MS;
  const maxEvents = options.maxStreamEvents ?? DEFAULT_STREAM_EVENTS;
  const now = options.now ?? Date.now;
  const policy: OriginPolicy = {
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
  };
  const sessions = new Map<string, Session>();
  const running = new Set<AbortHandle>();
  const sweepEvery = Math.min(idleMs, 60_000) / 4;
  let lastSweep = now();
  let sweepTimer: unknown;

  const report = (error: unknown): void => {
    try {
      options.onError?.(error);
    } catch {
      // The last place an error can go.
    }
  };

  const closeSession = (session: Session): void => {
    sessions.delete(session.id);
    for (const stream of session.streams.values()) stream.end();
    session.core.close();
  };

  // Idle sessions are swept when requests come in and, while any is open, on a timer: a server nobody
  // calls any more still closes them. No session, no timer.
  const sweep = (force: boolean): void => {
    const time = now();
    if (!force && time - lastSweep < sweepEvery) return;
    lastSweep = time;
    for (const session of sessions.values()) {
      // A held stream counts as use, so a client whose stream drops has the whole idle time to come back.
      if (listening(session)) session.lastSeen = time;
      else if (session.active === 0 && time - session.lastSeen > idleMs) closeSession(session);
    }
  };
  const scheduleSweep = (): void => {
    if (sweepTimer !== undefined || sessions.size === 0) return;
    sweepTimer = setTimeout(() => {
      sweepTimer = undefined;
      sweep(true);
      scheduleSweep();
    }, sweepEvery);
    unref(sweepTimer);
  };

  /** A request's reply: JSON, unless something has to go out before the response and the client takes SSE. */
  const exchangeReply = (
    exchange: HttpExchange,
    plan: ReplyPlan,
    session: Session | undefined,
    extraHeaders: Record<string, string>,
  ) => {
    const controller = abortController();
    running.add(controller);
    let stream: EventStream | undefined;
    let resolveStream: ((reply: HttpReply) => void) | undefined;
    const streamed = new Promise<HttpReply>((resolve) => (resolveStream = resolve));
    let timer: unknown;
    const onDetach = (): void => {
      if (session === undefined || resumeMs === 0) return controller.abort();
      timer = setTimeout(() => controller.abort(), resumeMs);
    };
    const gone = (): void => {
      if (stream === undefined) controller.abort();
    };
    exchange.signal.addEventListener("abort", gone, { once: true });
    const open = (): EventStream => {
      if (stream !== undefined) return stream;
      const id = session === undefined ? undefined : randomId();
      stream = createEventStream(id, maxEvents, onDetach);
      if (session !== undefined && id !== undefined) keepStream(session, id, stream);
      resolveStream?.({
        status: 200,
        headers: { ...extraHeaders, "content-type": SSE_TYPE, "cache-control": "no-cache" },
        stream,
      });
      return stream;
    };
    const base: TransportContext = {
      headers: exchange.headers,
      streaming: plan.sse,
      send(message: object): void {
        if (controller.signal.aborted) return;
        // A client that takes JSON alone gets no notifications here; a session's requests to it go on its
        // standalone stream (server-eras.ts), and one sent here anyway fails where it is made.
        if (!plan.sse) {
          if ("id" in message) throw new Error("The client does not accept an event stream");
          return;
        }
        open().write(message);
      },
    };
    const finish = (
      response: DispatchResponse | DispatchResponse[] | undefined,
      status: number,
    ): HttpReply => {
      running.delete(controller);
      exchange.signal.removeEventListener("abort", gone);
      if (stream !== undefined) {
        // A batch's responses go one per event, which every SSE client reads (the page lets them be batched too).
        if (Array.isArray(response)) for (const one of response) stream.write(one);
        else if (response !== undefined) stream.write(response);
        stream.end();
        if (timer !== undefined) clearTimeout(timer);
        return { status: 200, headers: {}, stream };
      }
      if (response === undefined) return { status: 202, headers: extraHeaders, body: undefined };
      return jsonReply(status, response, extraHeaders);
    };
    return { base, signal: controller.signal, streamed, finish };
  };

  const keepStream = (session: Session, id: string, stream: EventStream): void => {
    session.streams.set(id, stream);
    if (session.streams.size <= ENDED_STREAMS_KEPT + 1) return;
    for (const [key, old] of session.streams) {
      if (session.streams.size <= ENDED_STREAMS_KEPT + 1) break;
      if (old.ended) session.streams.delete(key);
    }
  };

  /** Runs a request through `answer`, replying as soon as its stream opens or its response is there. */
  const replyTo = async (
    exchange: HttpExchange,
    plan: ReplyPlan,
    session: Session | undefined,
    extraHeaders: Record<string, string>,
    answer: (
      base: TransportContext,
      signal: AbortSignal,
    ) => Promise<{ response: DispatchResponse | DispatchResponse[] | undefined; status: number }>,
  ): Promise<HttpReply> => {
    const reply = exchangeReply(exchange, plan, session, extraHeaders);
    if (session !== undefined) session.active++;
    const done = answer(reply.base, reply.signal)
      .then(({ response, status }) => reply.finish(response, status))
      .catch((error: unknown) => {
        report(error);
        return reply.finish(errorBody(BASE_CODES.internalError, "Internal error") as never, 500);
      })
      .finally(() => {
        if (session !== undefined) {
          session.active--;
          session.lastSeen = now();
        }
      });
    return Promise.race([done, reply.streamed]);
  };

  const serveStateless = async (
    era: StatelessEra,
    exchange: HttpExchange,
    plan: ReplyPlan,
    message: WireMessage,
  ): Promise<HttpReply> => {
    const codes = era.spec.codes;
    if (message.kind === "result" || message.kind === "error")
      return failReply(400, codes.invalidRequest, "Invalid request: this server sends no requests");
    const toolName =
      message.kind === "request" && typeof message.params?.["name"] === "string"
        ? message.params["name"]
        : undefined;
    const checked = era.spec.checkHeaders(exchange.headers, message, toolName);
    if (!checked.ok) return jsonReply(checked.status, checked.response);
    return replyTo(exchange, plan, undefined, {}, async (base, signal) => {
      const response = await era.handle(message, base, signal);
      return { response, status: era.spec.statusOf(response) };
    });
  };

  const serveSession = async (
    era: SessionEra,
    exchange: HttpExchange,
    plan: ReplyPlan,
    message: WireMessage,
    sessionId: string | undefined,
  ): Promise<HttpReply> => {
    const codes = era.spec.codes;
    const id = message.kind === "request" ? message.id : undefined;
    if (sessionId === undefined) {
      if (!isInitialize(era.spec, message))
        return failReply(
          400,
          codes.invalidRequest,
          "Bad request: no Mcp-Session-Id; initialize first",
          {},
          id,
        );
      if (sessions.size >= maxSessions)
        return failReply(
          503,
          codes.internalError,
          "Too many sessions",
          { "retry-after": "60" },
          id,
        );
      const newId = randomId();
      const core = era.open(newId);
      const session: Session = {
        id: newId,
        core,
        era,
        version: undefined,
        lastSeen: now(),
        streams: new Map(),
        standalone: undefined,
        active: 0,
      };
      // The session exists once initialize succeeds; its id goes out with that answer alone.
      return replyTo(
        exchange,
        plan,
        undefined,
        { "mcp-session-id": newId },
        async (base, signal) => {
          const response = await era.handle(core, message, base, signal, () => undefined);
          if (response !== undefined && "result" in response) {
            const agreed = response.result["protocolVersion"];
            session.version = typeof agreed === "string" ? agreed : undefined;
            sessions.set(newId, session);
            scheduleSweep();
            return { response, status: 200 };
          }
          core.close();
          return { response, status: 400 };
        },
      );
    }
    const session = sessionOf(era, exchange, sessionId, id);
    if (!("core" in session)) return session;
    if (message.kind === "result" || message.kind === "error") {
      session.core.receive(message);
      return { status: 202, headers: {}, body: undefined };
    }
    if (isInitialize(era.spec, message))
      return failReply(
        400,
        codes.invalidRequest,
        "Invalid request: the session is already initialized",
        {},
        id,
      );
    return replyTo(exchange, plan, session, {}, async (base, signal) => {
      const response = await era.handle(session.core, message, base, signal, fallbackOf(session));
      return { response, status: 200 };
    });
  };

  /** The open session `sessionId` names, or the reply refusing the request (404, or another version). */
  const sessionOf = (
    era: SessionEra,
    exchange: HttpExchange,
    sessionId: string,
    id: string | number | undefined,
  ): Session | HttpReply => {
    const codes = era.spec.codes;
    const session = sessions.get(sessionId);
    if (session === undefined || session.era !== era)
      return failReply(404, codes.invalidRequest, "Session not found", {}, id);
    session.lastSeen = now();
    const version = header(exchange.headers, VERSION_HEADER);
    if (version !== undefined && session.version !== undefined && version !== session.version)
      return failReply(
        400,
        codes.invalidRequest,
        `Bad request: MCP-Protocol-Version ${version} is not the session's`,
        {},
        id,
      );
    return session;
  };

  /** Where a session's requests to the client go once their own stream has ended: its standalone stream. */
  const fallbackOf = (session: Session) => (): ((outgoing: object) => void) | undefined => {
    const standalone = session.standalone;
    return standalone === undefined || standalone.ended ? undefined : (m) => standalone.write(m);
  };

  /**
   * A batch body of a release whose model allows batches (2025-03-26 transports: one POST may hold
   * an array of requests and notifications, or of responses): 202 when nothing in it is answered,
   * else the array of its responses as JSON, or one event each on an SSE stream. A batch that is
   * refused whole (empty, too large) is one error, 400.
   */
  const serveSessionBatch = async (
    era: SessionEra,
    exchange: HttpExchange,
    plan: ReplyPlan,
    items: readonly unknown[],
    sessionId: string | undefined,
  ): Promise<HttpReply> => {
    // initialize must not be part of a batch (lifecycle page), so a batch never opens a session.
    if (sessionId === undefined)
      return failReply(
        400,
        era.spec.codes.invalidRequest,
        "Bad request: no Mcp-Session-Id; initialize first, outside a batch",
      );
    const session = sessionOf(era, exchange, sessionId, undefined);
    if (!("core" in session)) return session;
    return replyTo(exchange, plan, session, {}, async (base, signal) => {
      const response = await era.handleBatch(
        session.core,
        items,
        base,
        signal,
        fallbackOf(session),
      );
      return { response, status: response === undefined || Array.isArray(response) ? 200 : 400 };
    });
  };

  const openStream = (exchange: HttpExchange, era: SessionEra | undefined): HttpReply => {
    const codes = era?.spec.codes ?? BASE_CODES;
    if (era === undefined)
      return failReply(405, codes.invalidRequest, "Method not allowed", { allow: "POST" });
    if (!acceptance(exchange.headers).sse)
      return failReply(
        406,
        codes.invalidRequest,
        "Not acceptable: GET needs Accept: text/event-stream",
      );
    const sessionId = header(exchange.headers, SESSION_HEADER);
    // Without a session there is no stream to offer: 405, as the transport page allows (and the
    // stateless era has no GET stream at all).
    if (sessionId === undefined)
      return failReply(405, codes.invalidRequest, "Method not allowed: GET needs a session", {
        allow: "POST, DELETE",
      });
    const session = sessions.get(sessionId);
    if (session === undefined) return failReply(404, codes.invalidRequest, "Session not found");
    session.lastSeen = now();
    const headers = { "content-type": SSE_TYPE, "cache-control": "no-cache" };
    const lastEventId = header(exchange.headers, "last-event-id");
    if (lastEventId !== undefined) {
      const position = parseEventId(lastEventId);
      const stream = position === undefined ? undefined : session.streams.get(position.stream);
      if (position === undefined || stream === undefined)
        return failReply(404, codes.invalidRequest, "Unknown Last-Event-ID");
      return { status: 200, headers, stream: resumed(stream, position.seq) };
    }
    if (listening(session))
      return failReply(409, codes.invalidRequest, "Conflict: the session's stream is already open");
    const id = randomId();
    const stream = createEventStream(id, maxEvents);
    session.standalone = stream;
    keepStream(session, id, stream);
    return { status: 200, headers, stream };
  };

  /** A stream to attach from `after` on: the adapter attaches it as usual, the wrapper replays. */
  const resumed = (stream: EventStream, after: number): EventStream => ({
    get id() {
      return stream.id;
    },
    get ended() {
      return stream.ended;
    },
    get attached() {
      return stream.attached;
    },
    write: (message) => stream.write(message),
    comment: (text) => stream.comment(text),
    end: () => stream.end(),
    attach: (sink: StreamSink) => stream.attach(sink, after),
    detach: (sink: StreamSink) => stream.detach(sink),
  });

  const remove = (exchange: HttpExchange, era: SessionEra | undefined): HttpReply => {
    const codes = era?.spec.codes ?? BASE_CODES;
    if (era === undefined)
      return failReply(405, codes.invalidRequest, "Method not allowed", { allow: "POST" });
    const sessionId = header(exchange.headers, SESSION_HEADER);
    if (sessionId === undefined)
      return failReply(400, codes.invalidRequest, "Bad request: no Mcp-Session-Id");
    const session = sessions.get(sessionId);
    if (session === undefined) return failReply(404, codes.invalidRequest, "Session not found");
    closeSession(session);
    return { status: 204, headers: {}, body: undefined };
  };

  const route = async (exchange: HttpExchange): Promise<HttpReply> => {
    sweep(false);
    const codes = stateless?.spec.codes ?? sessionEra?.spec.codes ?? BASE_CODES;
    if (options.checkOrigin !== false) {
      const origin = checkOrigin(exchange.headers, policy);
      if (!origin.ok) return failReply(origin.status, codes.invalidRequest, origin.message);
    }
    if (options.path !== undefined) {
      const query = exchange.path.indexOf("?");
      const path = query < 0 ? exchange.path : exchange.path.slice(0, query);
      if (path !== options.path) return failReply(404, codes.invalidRequest, "Not found");
    }
    const allow = sessionEra === undefined ? "POST" : "GET, POST, DELETE";
    if (exchange.method === "GET") return openStream(exchange, sessionEra);
    if (exchange.method === "DELETE") return remove(exchange, sessionEra);
    if (exchange.method !== "POST")
      return failReply(405, codes.invalidRequest, "Method not allowed", { allow });
    const contentType = header(exchange.headers, "content-type")?.toLowerCase() ?? "";
    if (!/^application\/json\s*(;|$)/.test(contentType))
      return failReply(415, codes.invalidRequest, "Unsupported media type: send application/json");
    const plan = acceptance(exchange.headers);
    if (!plan.json && !plan.sse)
      return failReply(
        406,
        codes.invalidRequest,
        "Not acceptable: accept application/json or text/event-stream",
      );
    const body = await exchange.body(bodyLimit);
    if (body === false)
      return failReply(
        413,
        codes.invalidRequest,
        `Payload too large: the limit is ${bodyLimit} bytes`,
        {
          connection: "close",
        },
      );
    const text = body === undefined ? undefined : textOf(body);
    if (text === undefined)
      return failReply(400, codes.invalidRequest, "Bad request: unreadable body");
    // An SSE-only client still gets its answer: as the one event of a stream.
    const replyPlan: ReplyPlan = plan;
    const parsed = parseText(text);
    const sessionId = header(exchange.headers, SESSION_HEADER);
    const version = header(exchange.headers, VERSION_HEADER);
    const toSessions =
      sessionEra !== undefined &&
      (sessionId !== undefined ||
        (version !== undefined && sessionEra.spec.versions.includes(version)) ||
        (version === undefined && parsed.ok && isInitialize(sessionEra.spec, parsed.message)));
    if (!parsed.ok) {
      // Only a body `parse` refuses can be a batch, so a single message is parsed once.
      const batchEra = toSessions && sessionEra.spec.batches ? sessionEra : undefined;
      const items = batchEra === undefined ? undefined : batchOf(text);
      if (batchEra !== undefined && items !== undefined)
        return serveSessionBatch(batchEra, exchange, replyPlan, items, sessionId);
      return jsonReply(400, errorBody(parsed.error.code, parsed.error.message, parsed.id));
    }
    if (toSessions) return serveSession(sessionEra, exchange, replyPlan, parsed.message, sessionId);
    if (stateless === undefined)
      return failReply(
        400,
        codes.invalidRequest,
        "Bad request: no Mcp-Session-Id; initialize first",
      );
    return serveStateless(stateless, exchange, replyPlan, parsed.message);
  };

  const serve = (exchange: HttpExchange): Promise<HttpReply> =>
    route(exchange).catch((error: unknown) => {
      report(error);
      return failReply(500, BASE_CODES.internalError, "Internal error");
    });

  const maxUnsentBytes = options.maxUnsentBytes ?? DEFAULT_MAX_UNSENT_BYTES;
  const outbox: OutboxOptions = {
    maxUnsentBytes,
    onOverflow: (unsent) =>
      report(
        new Error(
          `mcp http: dropped an event stream whose reader fell behind: ${unsent} bytes unsent, over maxUnsentBytes ${maxUnsentBytes}`,
        ),
      ),
  };

  return {
    serve,
    outbox,
    async fetch(request: RequestLike): Promise<PlatformResponse> {
      const reply = await serve(fromRequest(request));
      return toResponse(reply, request.signal, outbox) as PlatformResponse;
    },
    close(): void {
      clearTimeout(sweepTimer);
      sweepTimer = undefined;
      for (const session of [...sessions.values()]) closeSession(session);
      for (const controller of [...running]) controller.abort();
    },
    get sessions() {
      return sessions.size;
    },
    get pending() {
      let count = running.size;
      for (const session of sessions.values()) count += session.core.pending;
      return count;
    },
  };
}

function fromRequest(request: RequestLike): HttpExchange {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
  const schemeEnd = request.url.indexOf("//");
  const pathStart = request.url.indexOf("/", schemeEnd < 0 ? 0 : schemeEnd + 2);
  const gone = abortController();
  if (request.signal !== undefined) {
    if (request.signal.aborted) gone.abort();
    else request.signal.addEventListener("abort", () => gone.abort(), { once: true });
  }
  return {
    method: request.method.toUpperCase(),
    path: pathStart < 0 ? "/" : request.url.slice(pathStart),
    headers,
    signal: gone.signal,
    body: (limit) => readLimited(request, limit),
  };
}

async function readLimited(
  request: RequestLike,
  limit: number,
): Promise<Uint8Array | false | undefined> {
  const declared = Number(headerOf(request, "content-length") ?? 0);
  if (declared > limit) return false;
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value === undefined) continue;
      size += value.length;
      if (size > limit) {
        void reader.cancel().catch(() => undefined);
        return false;
      }
      chunks.push(value);
    }
  } catch {
    return undefined;
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

function headerOf(request: RequestLike, name: string): string | undefined {
  let found: string | undefined;
  request.headers.forEach((value, key) => {
    if (key.toLowerCase() === name) found = value;
  });
  return found;
}

/** What a fetch body stream buffers before `desiredSize` says stop: node's default for a socket. */
const BODY_HIGH_WATER_MARK = 16_384;

function toResponse(
  reply: HttpReply,
  signal: AbortSignal | undefined,
  limits: OutboxOptions,
): unknown {
  if (!("stream" in reply))
    return new platform.Response(reply.body ?? null, {
      status: reply.status,
      headers: { ...reply.headers },
    });
  const stream = reply.stream;
  let sink: Outbox | undefined;
  // A pull source: the stream writes while `desiredSize` is above 0, the outbox holds the rest until
  // the reader pulls, and a reader too far behind errors the body.
  const body = new platform.ReadableStream(
    {
      start(queue: ByteQueue): void {
        let open = true;
        const attached = createOutbox(
          {
            write: (bytes) => {
              if (open) queue.enqueue(bytes);
              return (queue.desiredSize ?? 0) > 0;
            },
            end: () => {
              if (!open) return;
              open = false;
              queue.close();
            },
            abort: () => {
              if (!open) return;
              open = false;
              queue.error(new Error("The reader fell too far behind"));
              stream.detach(attached);
            },
          },
          limits,
        );
        sink = attached;
        attached.backlog(() => stream.attach(attached));
        signal?.addEventListener("abort", () => stream.detach(attached), { once: true });
      },
      pull(): void {
        sink?.drained();
      },
      cancel(): void {
        if (sink !== undefined) stream.detach(sink);
      },
    },
    { highWaterMark: BODY_HIGH_WATER_MARK, size: (chunk) => chunk.byteLength },
  );
  return new platform.Response(body, { status: reply.status, headers: { ...reply.headers } });
}
