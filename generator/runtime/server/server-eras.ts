import { signalOf, type AbortSource } from "../core/abort.js";
import type { DispatchResponse } from "../core/dispatcher.js";
import { isObject, own, type JsonObject } from "../core/json.js";
import { checkEnvelope, type WireMessage } from "../core/jsonrpc.js";
import type { HeaderValues } from "./origin.js";
import type { Identity } from "./request-gate.js";
import type { SessionRecord } from "./session-store.js";
import {
  createStateCodec,
  type StateBinding,
  type StateCodec,
  type StateCodecOptions,
} from "./request-state.js";
import type { CallOptions, RequesterLifecycle } from "../core/requester.js";
import { RpcError } from "../core/rpc-error.js";

/**
 * What a server transport (HTTP, stdio) needs of a release, whatever the wire: the release's
 * dispatcher and the few facts a transport acts on. Each release's `server.ts` builds one
 * (`statelessEra` in a stateless release, `sessionEra` in a session release) from its handler
 * table; the transports take them as they are. The contexts below are what handlers get as
 * `ctx.context`, typed by the release that built the era.
 */

/** What `ctx.context` holds in every era. */
export interface TransportContext {
  /** The request's HTTP headers, names lower-cased; empty over stdio. */
  readonly headers: HeaderValues;
  /** Sends a message to the client on this request's stream: `ctx.notify` and `ctx.progress` go here. */
  send(this: void, message: object): void;
  /**
   * False when this request's reply cannot carry messages to the client (an HTTP client that accepts JSON
   * alone): a session's requests to the client then go on its standalone stream. Absent means true.
   */
  readonly streaming?: boolean;
  /** Who sent the request, as the HTTP handler's `authorize` said; undefined without one, and over stdio. */
  readonly identity?: Identity | undefined;
  /**
   * Whose requests a cancel notification may reach: request ids are unique per peer only. Over stdio
   * the connection (this context); over HTTP the identity's subject, or without one the request alone
   * (there, closing the request's stream is how a client cancels).
   */
  readonly peer?: unknown;
}

/** `ctx.context` in a stateless release: the verified `requestState` and the `input_required` builder. */
export interface StatelessContext<InputRequests, InputRequired> extends TransportContext {
  /**
   * The state a retried request brought back, verified and decoded; undefined on a first call. A
   * request whose state is unsigned, altered, expired, used already, or issued for another method,
   * tool or params is answered -32602 before any handler runs.
   */
  readonly state: JsonObject | undefined;
  /**
   * The `input_required` result asking the client for `inputRequests`; with `state`, signed into
   * `requestState`, bound to this request (method and params) and usable once.
   */
  inputRequired(
    this: void,
    inputRequests: InputRequests,
    state?: JsonObject,
  ): Promise<InputRequired>;
}

export interface SessionInfo<S> {
  /** The `Mcp-Session-Id`; undefined over stdio, where the connection is the session. */
  readonly id: string | undefined;
  /** What `sessionState()` made for this session: the handlers' own per-session data. */
  readonly state: S;
  /**
   * The session's record as the transport keeps it (HTTP: its `SessionStore` record, which a change made through
   * another instance of a fleet reaches over the message bus), so what its client asked for (`logLevel`) holds on
   * every instance; undefined over stdio, where the handlers' own `state` is the session's whole memory.
   */
  readonly record: SessionRecord | undefined;
}

/** `ctx.context` in a session release: the session, and requests to the client (sampling, elicitation, roots). */
export interface SessionContext<Request, S> extends TransportContext {
  readonly session: SessionInfo<S>;
  /**
   * Sends a request to the client on this request's stream (or the session's standalone stream once
   * this one has ended, or when the client takes JSON alone) and resolves with its result; rejects with an `RpcError` for an error answer,
   * with the signal's reason when aborted (the client is told with a cancel notification), or after
   * the era's `requestTimeoutMs`.
   */
  readonly request: Request;
}

/**
 * The MCP headers of one era's HTTP wire, as the release's facts spell them: what a browser's CORS
 * preflight may ask to send, and what a page's script must be let read.
 */
export interface EraHeaders {
  /** Headers a client sends beside the body (`MCP-Protocol-Version`, `Mcp-Session-Id`, `Mcp-Method`…). */
  readonly request: readonly string[];
  /** The prefix of headers mirrored from tool arguments (`Mcp-Param-`), where the era has them. */
  readonly requestPrefix?: string;
  /** Headers of the server's replies that a client reads (`Mcp-Session-Id`). */
  readonly response: readonly string[];
}

export interface EraCodes {
  readonly invalidRequest: number;
  readonly invalidParams: number;
  readonly internalError: number;
}

/**
 * A dispatcher's `handle`, whatever its context type: the era passes the context it built. A batch
 * release's dispatcher answers an array with an array (or one error for an empty one), and only an
 * array: the eras hand it one only from `handleBatch`.
 */
type Handle = (
  message: unknown,
  context: never,
  signal?: AbortSource,
) => Promise<DispatchResponse | DispatchResponse[] | undefined>;

/**
 * Messages one JSON-RPC batch may hold. A larger one is refused whole (-32600) before any member
 * runs, so one request body cannot start an unbounded number of handlers.
 */
export const MAX_BATCH_MESSAGES = 100;

/** The members of a batch body: the array `text` holds, or undefined when it holds no array. */
export function batchOf(text: string): readonly unknown[] | undefined {
  if (!/^[ \t\n\r]*\[/.test(text)) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** What a release's `statelessEra` hands the runtime. */
export interface StatelessSpec {
  /** The versions this era serves (`MCP-Protocol-Version` and `_meta`). */
  readonly versions: readonly string[];
  readonly codes: EraCodes;
  readonly headers: EraHeaders;
  /**
   * The `input_required` result: its `resultType` key and value, the members holding the input
   * requests and the state, and the retry's params member holding the answers.
   */
  readonly inputRequired: {
    readonly key: string;
    readonly value: string;
    readonly requests: string;
    readonly state: string;
    readonly responses: string;
  };
  /** The release's `checkHttpHeaders`, given the called tool when the transport knows it. */
  checkHeaders(
    headers: HeaderValues,
    message: object,
    toolName: string | undefined,
  ):
    | { readonly ok: true }
    | { readonly ok: false; readonly status: number; readonly response: object };
  /** The release's `httpStatusOf`. */
  statusOf(response: object | undefined): number;
}

export interface StatelessEra {
  readonly kind: "stateless";
  readonly spec: StatelessSpec;
  /** Answers one parsed request or notification; never throws. */
  handle(
    message: WireMessage,
    base: TransportContext,
    signal: AbortSource | undefined,
  ): Promise<DispatchResponse | undefined>;
}

export interface StatelessEraOptions {
  /** How `requestState` is signed: a codec, or the options of the default one (a random key per process). */
  readonly requestState?: StateCodec | StateCodecOptions;
}

export function createStatelessEra(
  spec: StatelessSpec,
  handle: Handle,
  options: StatelessEraOptions = {},
): StatelessEra {
  const given = options.requestState;
  const codec: StateCodec =
    given !== undefined && "verify" in given ? given : createStateCodec(given);
  const input = spec.inputRequired;
  const build = (inputRequests: unknown, token: string | undefined): JsonObject =>
    token === undefined
      ? { [input.key]: input.value, [input.requests]: inputRequests }
      : { [input.key]: input.value, [input.requests]: inputRequests, [input.state]: token };
  // What a state is bound to: what a retry repeats. The answers and the state are what it adds, and
  // `_meta` (a progress token, say) may be new on each attempt.
  const bindingOf = (method: string, params: JsonObject | undefined): StateBinding => {
    const bound: JsonObject = {};
    if (params !== undefined)
      for (const name of Object.keys(params))
        if (name !== input.responses && name !== input.state && name !== "_meta")
          bound[name] = params[name];
    return { method, params: bound };
  };
  const run = handle as (
    message: unknown,
    context: unknown,
    signal?: AbortSource,
  ) => Promise<DispatchResponse | undefined>;

  return {
    kind: "stateless",
    spec,
    async handle(message, base, signal) {
      let state: JsonObject | undefined;
      const request = message.kind === "request" ? message : undefined;
      const params = request?.params;
      const token =
        params !== undefined && own(params, input.state) ? params[input.state] : undefined;
      if (request !== undefined && token !== undefined) {
        state = await codec.verify(token, bindingOf(request.method, params));
        if (state === undefined)
          return {
            jsonrpc: "2.0",
            id: request.id,
            error: {
              code: spec.codes.invalidParams,
              message: `Invalid params: ${input.state} failed its integrity check, expired, was used already or belongs to another request`,
            },
          };
      }
      const inputRequired = async (inputRequests: unknown, kept?: JsonObject) =>
        build(
          inputRequests,
          kept === undefined || request === undefined
            ? undefined
            : await codec.sign(kept, bindingOf(request.method, params)),
        );
      const { headers, send, identity } = base;
      const context = { headers, send, identity, peer: base.peer ?? base, state, inputRequired };
      return run(message, context, signal);
    },
  };
}

/** Sends server→client requests through `send`; a release's `createServerRequester`. */
export type RequesterFactory = (
  send: (message: object) => void,
  options: { readonly nextId: () => string | number; readonly timeoutMs?: number },
) => RequesterLifecycle & {
  request(method: string, params: never, options?: CallOptions): Promise<unknown>;
};

/** What a release's `sessionEra` hands the runtime. */
export interface SessionSpec {
  /** The versions this era serves: `MCP-Protocol-Version` headers that route here. */
  readonly versions: readonly string[];
  readonly codes: EraCodes;
  readonly headers: EraHeaders;
  /** The request that opens a session. */
  readonly initialize: string;
  /** The client's notification that ends the handshake: only then does a session hear what happens outside its requests. */
  readonly initialized: string;
  readonly createRequester: RequesterFactory;
  /**
   * Whether a message may be a JSON-RPC batch (an array), as the release's model says (2025-03-26):
   * the transports then hand arrays to `handleBatch`; other releases refuse them with -32600.
   */
  readonly batches: boolean;
}

export interface SessionEraOptions<S> {
  /** Makes each new session's `state`. */
  readonly sessionState?: () => S;
  /** How long a request to the client may wait for its answer. Default 60 s. */
  readonly requestTimeoutMs?: number;
}

/** One session as the transports keep it. */
export interface ServerSession {
  readonly info: SessionInfo<unknown>;
  /**
   * Whether its client sent `initialized` (or it was opened as initialized): before that a server sends
   * it nothing but pings and logging (lifecycle page), so no `broadcast` reaches it.
   */
  readonly initialized: boolean;
  /** Feeds a response from the client to the request it answers; false when none is waiting for it. */
  receive(message: WireMessage): boolean;
  /** Requests to the client still waiting for an answer. */
  readonly pending: number;
  /** Fails every request to the client still waiting (the session ended). */
  close(): void;
}

/**
 * A transport's way to reach the sessions it holds outside any request (HTTP: the standalone streams held
 * on this instance; stdio: its output): sends `message` to each one `wants`, given the session's record
 * where the transport keeps one (HTTP: as its `SessionStore` holds it, shared by a fleet's instances).
 */
export type SessionOutlet = (
  message: object,
  wants: (session: ServerSession, record?: SessionRecord) => boolean,
) => void;

export interface SessionEra {
  readonly kind: "sessions";
  readonly spec: SessionSpec;
  /**
   * A new session; `initialized` for one its client initialized elsewhere (another instance, from its record);
   * `records` gives the transport's current record of a session by id (its info's `record`): one function for every
   * session, so a session keeps no closure of its own for it.
   */
  open(
    id: string | undefined,
    initialized?: boolean,
    records?: (id: string) => SessionRecord | undefined,
  ): ServerSession;
  /** Adds a transport's outlet for `broadcast`, until the returned function is called (the transport closes). */
  onBroadcast(outlet: SessionOutlet): () => void;
  /**
   * Sends `message` (a notification: a list change, a resource update) to every initialized session of every
   * transport serving this era, or to those of them `to` picks by their info and record. A session is initialized
   * once this era handled its `notifications/initialized` or its record says another instance did; the record
   * (undefined over stdio) is what its client asked for through any instance.
   */
  broadcast(
    message: object,
    to?: (session: SessionInfo<unknown>, record: SessionRecord | undefined) => boolean,
  ): void;
  /**
   * Answers one parsed request or notification of `session`. `fallback` is where requests to the
   * client go once this request's own stream has ended (the standalone stream), if there is one.
   */
  handle(
    session: ServerSession,
    message: WireMessage,
    base: TransportContext,
    signal: AbortSource | undefined,
    fallback: () => ((message: object) => void) | undefined,
  ): Promise<DispatchResponse | undefined>;
  /**
   * Answers one batch of `session` (where `spec.batches`): responses go to the requests to the client
   * waiting for them, the rest to the dispatcher as one batch, so every request gets its own response
   * in an array (each invalid member its own error). `undefined` when nothing is answered (only
   * notifications and responses); one error for an empty batch or one over `MAX_BATCH_MESSAGES`.
   */
  handleBatch(
    session: ServerSession,
    items: readonly unknown[],
    base: TransportContext,
    signal: AbortSource | undefined,
    fallback: () => ((message: object) => void) | undefined,
  ): Promise<DispatchResponse | DispatchResponse[] | undefined>;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/**
 * A session's `SessionInfo`: its record read through the transport's lookup, by a getter on the prototype (an object
 * literal's own getter made every session an object of its own shape, and a closure; bench: heap per idle session).
 */
class Info implements SessionInfo<unknown> {
  constructor(
    readonly id: string | undefined,
    readonly state: unknown,
    private readonly records: ((id: string) => SessionRecord | undefined) | undefined,
  ) {}
  get record(): SessionRecord | undefined {
    return this.id === undefined ? undefined : this.records?.(this.id);
  }
}

/** A session's requests to the client: an idle session holds no set for them. */
interface Lane {
  waiting: Set<RequesterLifecycle> | undefined;
  counter: number;
}

export function createSessionEra<S>(
  spec: SessionSpec,
  handle: Handle,
  options: SessionEraOptions<S> = {},
): SessionEra {
  const run = handle as (
    message: unknown,
    context: unknown,
    signal?: AbortSource,
  ) => Promise<DispatchResponse | DispatchResponse[] | undefined>;
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  /** Per session: its requests to the client waiting for answers (made with the first), and the last id given. */
  const lanes = new WeakMap<ServerSession, Lane>();
  /** Sessions whose client sent `initialized`. */
  const ready = new WeakSet<ServerSession>();
  const outlets = new Set<SessionOutlet>();
  /**
   * One session of this era. Its methods are on the prototype, not closures of an object literal per session: an
   * idle session costs that much less heap (bench: heap per idle session).
   */
  class Session implements ServerSession {
    constructor(
      readonly info: SessionInfo<unknown>,
      private readonly lane: Lane,
    ) {}
    get initialized(): boolean {
      return ready.has(this);
    }
    receive(message: WireMessage): boolean {
      for (const requester of this.lane.waiting ?? []) if (requester.receive(message)) return true;
      return false;
    }
    get pending(): number {
      let count = 0;
      for (const requester of this.lane.waiting ?? []) count += requester.pending;
      return count;
    }
    close(): void {
      for (const requester of this.lane.waiting ?? []) requester.close(new Error("Session ended"));
      this.lane.waiting?.clear();
    }
  }
  /** Notes a session's `initialized` among what it sent. */
  const noteInitialized = (session: ServerSession, message: WireMessage): void => {
    if (message.kind === "notification" && message.method === spec.initialized) ready.add(session);
  };

  /** Runs `message` (one, or a batch) with the context its handlers get; requests to the client made after it ended take `fallback`. */
  const runIn = (
    session: ServerSession,
    message: unknown,
    base: TransportContext,
    signal: AbortSource | undefined,
    fallback: () => ((message: object) => void) | undefined,
  ): Promise<DispatchResponse | DispatchResponse[] | undefined> => {
    const lane = lanes.get(session)!;
    const nextId = (): number => ++lane.counter;
    let ended = false;
    const send = (outgoing: object): void => {
      if (!ended && base.streaming !== false) return base.send(outgoing);
      const other = fallback();
      if (other === undefined)
        throw new RpcError(spec.codes.internalError, "No stream left to reach the client on");
      other(outgoing);
    };
    const request = async (method: string, params: unknown, call: CallOptions = {}) => {
      const requester = spec.createRequester(send, { nextId, timeoutMs });
      const waiting = (lane.waiting ??= new Set<RequesterLifecycle>());
      waiting.add(requester);
      try {
        const merged = call.signal ?? (signal === undefined ? undefined : signalOf(signal));
        return await requester.request(
          method,
          params as never,
          merged === undefined ? call : { ...call, signal: merged },
        );
      } finally {
        waiting.delete(requester);
      }
    };
    const { headers, identity } = base;
    const context = { headers, send: base.send, identity, session: session.info, request };
    return run(message, context, signal).finally(() => {
      ended = true;
    });
  };

  return {
    kind: "sessions",
    spec,
    open(id, initialized = false, records) {
      const lane: Lane = { waiting: undefined, counter: 0 };
      const session = new Session(new Info(id, options.sessionState?.(), records), lane);
      lanes.set(session, lane);
      if (initialized) ready.add(session);
      return session;
    },
    onBroadcast(outlet) {
      // A wrapper per call, so the same outlet added twice is two outlets.
      const one: SessionOutlet = (message, wants) => outlet(message, wants);
      outlets.add(one);
      return () => void outlets.delete(one);
    },
    broadcast(message, to) {
      const wants = (session: ServerSession, record?: SessionRecord): boolean =>
        (ready.has(session) || record?.ready === true) &&
        (to === undefined || to(session.info, record));
      for (const outlet of [...outlets]) outlet(message, wants);
    },
    // One message in, at most one response out: a dispatcher answers an array only for an array.
    handle: (session, message, base, signal, fallback) => {
      noteInitialized(session, message);
      return runIn(session, message, base, signal, fallback) as Promise<
        DispatchResponse | undefined
      >;
    },
    async handleBatch(session, items, base, signal, fallback) {
      if (items.length > MAX_BATCH_MESSAGES)
        return {
          jsonrpc: "2.0",
          id: null,
          error: {
            code: spec.codes.invalidRequest,
            message: `Invalid request: a batch holds at most ${MAX_BATCH_MESSAGES} messages`,
          },
        };
      // The dispatcher never answers responses; here they settle the requests to the client.
      const rest = items.filter((item) => {
        const checked = checkEnvelope(item);
        if (checked.ok) noteInitialized(session, checked.message);
        if (!checked.ok || (checked.message.kind !== "result" && checked.message.kind !== "error"))
          return true;
        session.receive(checked.message);
        return false;
      });
      if (items.length > 0 && rest.length === 0) return undefined;
      return runIn(session, rest, base, signal, fallback);
    },
  };
}

/** Whether `message` is the client's notification that ends the handshake (`notifications/initialized`). */
export function isInitialized(spec: SessionSpec, message: unknown): boolean {
  return isObject(message) && message["method"] === spec.initialized && !own(message, "id");
}

/** Whether `message` is the request that opens a session. */
export function isInitialize(spec: SessionSpec, message: unknown): boolean {
  return isObject(message) && message["method"] === spec.initialize && own(message, "id");
}
