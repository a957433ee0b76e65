import {
  abortController,
  LazyAbort,
  onAbort,
  type AbortHandle,
  type AbortSource,
} from "../core/abort.js";
import type { DispatchResponse } from "../core/dispatcher.js";
import { createMemoryEventStore, type EventStore } from "./event-store.js";
import {
  acceptance,
  BASE_CODES,
  errorBody,
  failReply,
  header,
  jsonReply,
  SESSION_HEADER,
  SSE_TYPE,
  VERSION_HEADER,
  type HttpExchange,
  type HttpReply,
  type ReplyPlan,
} from "./http-exchange.js";
import { corsFacts, withCors } from "./cors.js";
import { postPlan, routeOf, servedMethods, toSessionEra, type RouteFacts } from "./http-routing.js";
import { isObject, type JsonObject } from "../core/json.js";
import { checkEnvelope, parseText, type WireMessage } from "../core/jsonrpc.js";
import { concatBytes } from "../core/text-codec.js";
import { createMemoryMessageBus, type MessageBus } from "./message-bus.js";
import type { HeaderValues, OriginPolicy } from "./origin.js";
import {
  passGate,
  passPermit,
  type Authorize,
  type GateCall,
  type Identity,
  type Permit,
} from "./request-gate.js";
import {
  createOutbox,
  DEFAULT_MAX_UNSENT_BYTES,
  type Outbox,
  type OutboxOptions,
} from "./outbox.js";
import {
  batchOf,
  isInitialize,
  isInitialized,
  type SessionEra,
  type StatelessEra,
  type TransportContext,
} from "./server-eras.js";
import {
  createSessionManager,
  StoreUnavailableError,
  type LiveSession,
} from "./session-manager.js";
import { createMemorySessionStore, type SessionStore } from "./session-store.js";
import { createEventStream, type EventStream } from "./sse.js";

export type { HttpExchange, HttpReply } from "./http-exchange.js";
export type {
  Authorize,
  GateCall,
  GateRefusal,
  GateRequest,
  Identity,
  Permit,
} from "./request-gate.js";
export { createMemorySessionStore } from "./session-store.js";
export type { SessionRecord, SessionStore } from "./session-store.js";
export { createMemoryEventStore } from "./event-store.js";
export type { EventStore, MemoryEventStoreOptions, StoredEvent } from "./event-store.js";
export { createMemoryMessageBus, sessionTopics } from "./message-bus.js";
export type { MessageBus } from "./message-bus.js";

/**
 * An MCP server over Streamable HTTP (basic/transports) for both eras on one endpoint, written
 * against nothing but the platform's fetch types: `handler.fetch(request)` serves Node 18+, Deno,
 * Bun and Cloudflare Workers; `serve(exchange)` is what the node:http adapter calls, without
 * building a `Request`. This module composes the transport's parts: the request gate
 * (request-gate.ts), era routing (http-routing.ts), the session manager over a `SessionStore`
 * (session-manager.ts, session-store.ts), streams and their replay (sse.ts, event-store.ts) and
 * delivery to whoever holds a stream (message-bus.ts).
 */

declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(timer: unknown): void;

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
   * The request gate: runs on every request before it is routed or its body read, and returns the
   * caller's `Identity` (handlers get it as `ctx.context.identity`; sessions belong to its
   * `subject`) or a `Response` to send instead (a 401, a 403). Default: none, every identity undefined.
   */
  readonly authorize?: Authorize;
  /**
   * The gate's second look, at each request of a POST body once it is parsed (the method, a tool's
   * name): a `Response` it returns (a 403) is sent instead. Default: none.
   */
  readonly permit?: Permit;
  /**
   * A session nobody used for this long, and whose GET stream no client holds open, is closed; its id then gets
   * 404. Default 30 min. Checked when requests arrive and on a timer while sessions are open (a
   * quarter of the shorter of this and `handshakeMs`, at most 15 s apart).
   */
  readonly sessionIdleMs?: number;
  /** A session whose client sent nothing after its `initialize` for this long is closed. Default 30 s. */
  readonly handshakeMs?: number;
  /**
   * More open sessions than this on this instance and `initialize` gets 503, unless a session that
   * never finished initializing can give way (the oldest goes). Default 10,000.
   */
  readonly maxSessions?: number;
  /**
   * How long a session request keeps running after its client disconnected, so that a reconnect with
   * `Last-Event-ID` gets the rest (the 2025 transport: a disconnect is not a cancellation). Default
   * 30 s; 0 aborts the handler's signal at once. Stateless requests are always aborted at once.
   */
  readonly resumeWindowMs?: number;
  /** Bytes of events kept per session stream for `Last-Event-ID` by the default `eventStore`. Default 1 MiB. */
  readonly replayBytes?: number;
  /** Where session state lives. Default: in memory (`createMemorySessionStore`). */
  readonly sessionStore?: SessionStore;
  /** Where session streams' events are kept for resumption. Default: in memory, `replayBytes` per stream. */
  readonly eventStore?: EventStore;
  /**
   * How a request to the client reaches the instance holding its session's GET stream, and a client's
   * answer the instance whose handler waits for it. Default: within this process. A bus given here
   * is taken to reach other instances, so a request to the client is published even with no stream here.
   */
  readonly messageBus?: MessageBus;
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
};

const DEFAULT_BODY_LIMIT = 1024 * 1024;
const DEFAULT_IDLE_MS = 30 * 60 * 1000;
const DEFAULT_HANDSHAKE_MS = 30_000;
const DEFAULT_MAX_SESSIONS = 10_000;
const DEFAULT_RESUME_MS = 30_000;
/** One empty list for every new session's record, which is replaced, never changed, when it grows. */
const NO_SUBSCRIPTIONS: readonly string[] = [];
/** What a request that needed a failed store gets: 503, try again shortly. */
const UNAVAILABLE = "Service unavailable: session storage cannot be reached; try again";
const RETRY_SOON = { "retry-after": "1" };

/** What one request is served with: who sent it, and the session it belongs to, if any. */
interface Caller {
  readonly identity: Identity | undefined;
  readonly session: LiveSession | undefined;
}

function textOf(body: Uint8Array | string): string | undefined {
  if (typeof body === "string") return body;
  try {
    return new platform.TextDecoder().decode(body);
  } catch {
    return undefined;
  }
}

function subjectOf(identity: Identity | undefined): string | undefined {
  return identity?.subject;
}

export function createHttpHandler(options: HttpServerOptions): HttpHandler {
  const stateless = options.stateless;
  const sessionEra = options.sessions;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const resumeMs = options.resumeWindowMs ?? DEFAULT_RESUME_MS;
  const now = options.now ?? Date.now;
  const codes = stateless?.spec.codes ?? sessionEra?.spec.codes ?? BASE_CODES;
  const policy: OriginPolicy = {
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
  };
  const facts: RouteFacts = {
    path: options.path,
    checkOrigin: options.checkOrigin !== false,
    policy,
    sessions: sessionEra !== undefined,
    codes,
    cors: corsFacts(policy, servedMethods(sessionEra !== undefined), [
      stateless?.spec.headers,
      sessionEra?.spec.headers,
    ]),
  };
  const running = new Set<AbortHandle>();

  const report = (error: unknown): void => {
    try {
      options.onError?.(error);
    } catch {
      // The last place an error can go.
    }
  };

  const sessions = createSessionManager({
    store: options.sessionStore ?? createMemorySessionStore(now),
    events:
      options.eventStore ??
      createMemoryEventStore(
        options.replayBytes === undefined ? {} : { maxBytesPerStream: options.replayBytes },
      ),
    bus: options.messageBus ?? createMemoryMessageBus(report),
    sharedBus: options.messageBus !== undefined,
    sharedStore: options.sessionStore !== undefined,
    sharedEvents: options.eventStore !== undefined,
    idleMs: options.sessionIdleMs ?? DEFAULT_IDLE_MS,
    handshakeMs: options.handshakeMs ?? DEFAULT_HANDSHAKE_MS,
    maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    now,
    report,
  });

  // List changes and resource updates reach the sessions whose standalone stream this instance holds.
  const stopBroadcasts = sessionEra?.onBroadcast(sessions.broadcast);

  /** A request's reply: JSON, unless something has to go out before the response and the client takes SSE. */
  const exchangeReply = (
    exchange: HttpExchange,
    plan: ReplyPlan,
    caller: Caller,
    extraHeaders: Record<string, string>,
  ) => {
    const session = caller.session;
    // Made lazily: a request's signal exists only once its handler or a request to the client reads it.
    const controller = new LazyAbort();
    running.add(controller);
    const stopped = session === undefined ? undefined : sessions.run(session, controller);
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
    const stopListening = onAbort(exchange.signal, gone);
    const open = (): EventStream => {
      if (stream !== undefined) return stream;
      // A client that resumes the stream in time keeps its request running.
      stream =
        session === undefined
          ? createEventStream(undefined, onDetach)
          : sessions.stream(session, onDetach, () => clearTimeout(timer));
      resolveStream?.({
        status: 200,
        headers: { ...extraHeaders, "content-type": SSE_TYPE, "cache-control": "no-cache" },
        stream,
      });
      return stream;
    };
    const base: TransportContext = {
      // The credential stops at the gate: handlers get the identity it named, never the token.
      headers:
        caller.identity === undefined ? exchange.headers : withoutCredentials(exchange.headers),
      streaming: plan.sse,
      identity: caller.identity,
      // Stateless requests of one identity share its ids; without one, nothing but closing this
      // request's stream cancels it (the stateless era's transport page, Cancellation).
      peer: caller.identity === undefined ? controller : `subject:${caller.identity.subject}`,
      send(message: object): void {
        if (controller.aborted) return;
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
      stopped?.();
      stopListening();
      if (stream !== undefined) {
        // A batch's responses go one per event, which every SSE client reads (the page lets them be batched too).
        if (Array.isArray(response)) for (const one of response) stream.write(one);
        else if (response !== undefined) stream.write(response);
        stream.end();
        if (timer !== undefined) clearTimeout(timer);
        return { status: 200, headers: {}, stream };
      }
      if (response === undefined) return { status: 202, headers: extraHeaders, body: undefined };
      // A refused request names no session it did not open.
      if (status === 503) return jsonReply(status, response, RETRY_SOON);
      return jsonReply(status, response, status < 400 ? extraHeaders : {});
    };
    return { base, signal: controller, streamed, finish };
  };

  /** Runs a request through `answer`, replying as soon as its stream opens or its response is there. */
  const replyTo = async (
    exchange: HttpExchange,
    plan: ReplyPlan,
    caller: Caller,
    extraHeaders: Record<string, string>,
    answer: (
      base: TransportContext,
      signal: AbortSource,
    ) => Promise<{ response: DispatchResponse | DispatchResponse[] | undefined; status: number }>,
  ): Promise<HttpReply> => {
    const reply = exchangeReply(exchange, plan, caller, extraHeaders);
    const session = caller.session;
    if (session !== undefined) session.active++;
    const done = answer(reply.base, reply.signal)
      .then(({ response, status }) => reply.finish(response, status))
      .catch((error: unknown) => {
        report(error);
        if (error instanceof StoreUnavailableError)
          return reply.finish(errorBody(BASE_CODES.internalError, UNAVAILABLE) as never, 503);
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
    identity: Identity | undefined,
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
    return replyTo(exchange, plan, { identity, session: undefined }, {}, async (base, signal) => {
      const response = await era.handle(message, base, signal);
      return { response, status: era.spec.statusOf(response) };
    });
  };

  const openSession = (
    era: SessionEra,
    exchange: HttpExchange,
    plan: ReplyPlan,
    message: WireMessage,
    identity: Identity | undefined,
  ): Promise<HttpReply> | HttpReply => {
    const codes = era.spec.codes;
    const id = message.kind === "request" ? message.id : undefined;
    if (!isInitialize(era.spec, message))
      return failReply(
        400,
        codes.invalidRequest,
        "Bad request: no Mcp-Session-Id; initialize first",
        {},
        id,
      );
    // The slot is taken before the handler runs, so concurrent initialize calls cannot overshoot.
    const slot = sessions.reserve();
    if (slot === undefined)
      return failReply(503, codes.internalError, "Too many sessions", { "retry-after": "60" }, id);
    const core = era.open(slot.id, false, sessions.recordOf);
    const params: JsonObject = message.kind === "request" ? (message.params ?? {}) : {};
    const caller: Caller = { identity, session: undefined };
    // The session exists once initialize succeeds; its id goes out with that answer alone.
    return replyTo(exchange, plan, caller, { "mcp-session-id": slot.id }, async (base, signal) => {
      try {
        const response = await era.handle(core, message, base, signal, () => undefined);
        if (response !== undefined && "result" in response) {
          const agreed = response.result["protocolVersion"];
          await slot.commit(core, era, {
            version: typeof agreed === "string" ? agreed : undefined,
            clientCapabilities: objectOr(params["capabilities"]),
            clientInfo: objectOr(params["clientInfo"]),
            logLevel: undefined,
            subscriptions: NO_SUBSCRIPTIONS,
            subject: subjectOf(identity),
            initialized: false,
            ready: false,
          });
          return { response, status: 200 };
        }
        core.close();
        return { response, status: 400 };
      } finally {
        slot.release();
      }
    });
  };

  /**
   * The session `sessionId` names, if open and the caller's, or the reply refusing the request (404, or another
   * version); `initializes` when what the client sent holds its `notifications/initialized`.
   */
  const sessionOf = async (
    era: SessionEra,
    exchange: HttpExchange,
    sessionId: string,
    identity: Identity | undefined,
    id: string | number | undefined,
    initializes: boolean,
  ): Promise<LiveSession | HttpReply> => {
    const codes = era.spec.codes;
    const session = await sessions.find(era, sessionId, subjectOf(identity));
    if (session === undefined)
      return failReply(404, codes.invalidRequest, "Session not found", {}, id);
    await sessions.used(session, initializes);
    const version = header(exchange.headers, VERSION_HEADER);
    const agreed = session.record.version;
    if (version !== undefined && agreed !== undefined && version !== agreed)
      return failReply(
        400,
        codes.invalidRequest,
        `Bad request: MCP-Protocol-Version ${version} is not the session's`,
        {},
        id,
      );
    return session;
  };

  const serveSession = async (
    era: SessionEra,
    exchange: HttpExchange,
    plan: ReplyPlan,
    message: WireMessage,
    sessionId: string | undefined,
    identity: Identity | undefined,
  ): Promise<HttpReply> => {
    const codes = era.spec.codes;
    const id = message.kind === "request" ? message.id : undefined;
    if (sessionId === undefined) return openSession(era, exchange, plan, message, identity);
    const initializes = isInitialized(era.spec, message);
    const session = await sessionOf(era, exchange, sessionId, identity, id, initializes);
    if (!("core" in session)) return session;
    if (message.kind === "result" || message.kind === "error") {
      await sessions.answer(session, message);
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
    const fallback = () => sessions.fallback(session);
    return replyTo(exchange, plan, { identity, session }, {}, async (base, signal) => {
      const response = await era.handle(session.core, message, base, signal, fallback);
      if (response !== undefined && "result" in response) await sessions.observe(session, message);
      return { response, status: 200 };
    });
  };

  /** Records, in order, what a batch's successful requests changed in the session's state, as `observe` does for one. */
  const observeBatch = async (
    session: LiveSession,
    items: readonly unknown[],
    responses: readonly DispatchResponse[],
  ): Promise<void> => {
    for (const item of items) {
      const checked = checkEnvelope(item);
      if (!checked.ok || checked.message.kind !== "request") continue;
      const { id } = checked.message;
      if (responses.some((response) => response.id === id && "result" in response))
        await sessions.observe(session, checked.message);
    }
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
    identity: Identity | undefined,
  ): Promise<HttpReply> => {
    // initialize must not be part of a batch (lifecycle page), so a batch never opens a session.
    if (sessionId === undefined)
      return failReply(
        400,
        era.spec.codes.invalidRequest,
        "Bad request: no Mcp-Session-Id; initialize first, outside a batch",
      );
    const initializes = items.some((item) => isInitialized(era.spec, item));
    const session = await sessionOf(era, exchange, sessionId, identity, undefined, initializes);
    if (!("core" in session)) return session;
    const fallback = () => sessions.fallback(session);
    return replyTo(exchange, plan, { identity, session }, {}, async (base, signal) => {
      const response = await era.handleBatch(session.core, items, base, signal, fallback);
      if (Array.isArray(response)) await observeBatch(session, items, response);
      return { response, status: response === undefined || Array.isArray(response) ? 200 : 400 };
    });
  };

  const openStream = async (
    exchange: HttpExchange,
    era: SessionEra | undefined,
    identity: Identity | undefined,
  ): Promise<HttpReply> => {
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
    const session = await sessions.find(era, sessionId, subjectOf(identity));
    if (session === undefined) return failReply(404, codes.invalidRequest, "Session not found");
    await sessions.used(session);
    const headers = { "content-type": SSE_TYPE, "cache-control": "no-cache" };
    const lastEventId = header(exchange.headers, "last-event-id");
    if (lastEventId !== undefined) {
      const stream = await sessions.resume(session, lastEventId);
      if (stream === undefined)
        return failReply(404, codes.invalidRequest, "Unknown Last-Event-ID");
      return { status: 200, headers, stream };
    }
    const stream = sessions.standalone(session);
    if (stream === undefined)
      return failReply(409, codes.invalidRequest, "Conflict: the session's stream is already open");
    return { status: 200, headers, stream };
  };

  const remove = async (
    exchange: HttpExchange,
    era: SessionEra | undefined,
    identity: Identity | undefined,
  ): Promise<HttpReply> => {
    const codes = era?.spec.codes ?? BASE_CODES;
    if (era === undefined)
      return failReply(405, codes.invalidRequest, "Method not allowed", { allow: "POST" });
    const sessionId = header(exchange.headers, SESSION_HEADER);
    if (sessionId === undefined)
      return failReply(400, codes.invalidRequest, "Bad request: no Mcp-Session-Id");
    const session = await sessions.find(era, sessionId, subjectOf(identity));
    if (session === undefined) return failReply(404, codes.invalidRequest, "Session not found");
    await sessions.end(session);
    return { status: 204, headers: {}, body: undefined };
  };

  const route = async (exchange: HttpExchange): Promise<HttpReply> => {
    sessions.sweep(false);
    const verb = routeOf(exchange, facts);
    if (typeof verb !== "string") return verb;
    let identity: Identity | undefined;
    if (options.authorize !== undefined) {
      const gate = await passGate(options.authorize, exchange, report);
      if (!gate.ok) return gate.reply;
      identity = gate.identity;
    }
    if (verb === "GET") return openStream(exchange, sessionEra, identity);
    if (verb === "DELETE") return remove(exchange, sessionEra, identity);
    const plan = postPlan(exchange.headers, codes);
    if ("status" in plan) return plan;
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
    const parsed = parseText(text);
    if (options.permit !== undefined) {
      const refused = await passPermit(
        options.permit,
        identity,
        callsIn(parsed.ok ? [parsed.message] : (batchOf(text) ?? [])),
        exchange,
        report,
      );
      if (refused !== undefined) return refused;
    }
    const sessionId = header(exchange.headers, SESSION_HEADER);
    const toSessions =
      sessionEra !== undefined &&
      toSessionEra(
        sessionEra.spec.versions,
        exchange.headers,
        () => parsed.ok && isInitialize(sessionEra.spec, parsed.message),
      );
    if (!parsed.ok) {
      // Only a body `parse` refuses can be a batch, so a single message is parsed once.
      const batchEra = toSessions && sessionEra.spec.batches ? sessionEra : undefined;
      const items = batchEra === undefined ? undefined : batchOf(text);
      if (batchEra !== undefined && items !== undefined)
        return serveSessionBatch(batchEra, exchange, plan, items, sessionId, identity);
      return jsonReply(400, errorBody(parsed.error.code, parsed.error.message, parsed.id));
    }
    if (toSessions)
      return serveSession(sessionEra, exchange, plan, parsed.message, sessionId, identity);
    if (stateless === undefined)
      return failReply(
        400,
        codes.invalidRequest,
        "Bad request: no Mcp-Session-Id; initialize first",
      );
    return serveStateless(stateless, exchange, plan, parsed.message, identity);
  };

  const serve = (exchange: HttpExchange): Promise<HttpReply> =>
    route(exchange)
      .catch((error: unknown) => {
        report(error);
        if (error instanceof StoreUnavailableError)
          return failReply(503, BASE_CODES.internalError, UNAVAILABLE, RETRY_SOON);
        return failReply(500, BASE_CODES.internalError, "Internal error");
      })
      .then((reply) => withCors(exchange.headers, reply, facts.cors));

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
      stopBroadcasts?.();
      sessions.closeAll();
      for (const controller of [...running]) controller.abort();
    },
    get sessions() {
      return sessions.size;
    },
    get pending() {
      return running.size + sessions.pending;
    },
  };
}

function withoutCredentials(headers: HeaderValues): HeaderValues {
  const kept: Record<string, string | readonly string[] | undefined> = {};
  for (const name in headers) if (name !== "authorization") kept[name] = headers[name];
  return kept;
}

/** The requests among a body's messages, as `permit` sees them. */
function callsIn(messages: readonly unknown[]): GateCall[] {
  const calls: GateCall[] = [];
  for (const message of messages) {
    if (!isObject(message) || typeof message["method"] !== "string" || !("id" in message)) continue;
    calls.push({ method: message["method"], params: objectOr(message["params"]) });
  }
  return calls;
}

function objectOr(value: unknown): JsonObject | undefined {
  return isObject(value) ? value : undefined;
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
  return concatBytes(chunks, size);
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
