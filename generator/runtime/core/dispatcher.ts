import { LazyAbort, onAbort, type AbortHandle, type AbortSource } from "./abort.js";
import { isObject, own, type JsonObject } from "./json.js";
import { checkEnvelope, isRequestId, nestingFailure, parseText, refusalAnswer } from "./jsonrpc.js";
import { RpcError, type RpcErrorBody } from "./rpc-error.js";
import { readTraceContext, type TraceContext, type TraceContextKeys } from "./trace-context.js";

/**
 * The version-independent core of `createServerDispatcher` / `createClientDispatcher`: routes a
 * received message to a handler and always produces the one response JSON-RPC requires. What
 * differs between releases and sides (method lists, codes, `_meta` rules) comes in a
 * `DispatchSpec` that the emitters write from the model; typed wrappers live in each release.
 */
export type RequestId = string | number;

/** `id` is null only when the request's id could not be read (JSON-RPC 2.0, section 5). */
export type DispatchResponse =
  | { jsonrpc: "2.0"; id: RequestId; result: JsonObject }
  | { jsonrpc: "2.0"; id?: RequestId | null; error: RpcErrorBody };

export type DispatchNotification = { jsonrpc: "2.0"; method: string; params?: JsonObject };

export interface DispatchIssue {
  readonly pointer: string;
  readonly expected: string;
  readonly got: string;
}

/** The release's message validator: `code` is -32601 or -32602 (or -32600) when `ok` is false. */
export type DispatchValidate = (
  message: JsonObject,
) =>
  | { readonly ok: true }
  | { readonly ok: false; readonly code: number; readonly errors: readonly DispatchIssue[] };

/** A release with batches: the requests that must never be part of one (initialize), answered -32600 there. */
export interface BatchRules {
  readonly notBatchable: readonly string[];
}

/** What a release's dispatchers share, whichever side they serve. */
export interface DispatchRelease<Batches extends boolean = boolean> {
  readonly version: string;
  /**
   * `false`, or the rules of JSON-RPC batches where the release's message union admits them
   * (2025-03-26): `handle` then answers an array of messages with an array of responses.
   */
  readonly batches: Batches extends true ? BatchRules : false;
  readonly codes: {
    readonly invalidRequest: number;
    readonly methodNotFound: number;
    readonly invalidParams: number;
    readonly internalError: number;
  };
  /** The notification that cancels a pending request, and its params key holding the request id. */
  readonly cancel: CancelSpec | null;
  /** The progress notification, its params key for the token, and the request `_meta` key the token arrives in. */
  readonly progress: {
    readonly method: string;
    readonly tokenParam: string;
    readonly metaKey: string;
  } | null;
  /**
   * How an error answers a message whose id could not be read: `null` as JSON-RPC 2.0 says, or
   * `omit` where the release's schema makes the error's `id` optional and has no null id.
   */
  readonly unreadableId: "null" | "omit";
  readonly validate: DispatchValidate;
  /** The `_meta` keys of W3C trace context, where the release reserves them: read into `ctx.traceContext`. */
  readonly traceContext?: TraceContextKeys;
}

/** What differs between a release's server and client dispatcher. */
export interface DispatchSide {
  /** Request methods this side answers. */
  readonly requests: readonly string[];
  /** Notification methods this side receives. */
  readonly notifications: readonly string[];
  /** Modern releases: every request carries these `_meta` keys; the version must be supported. */
  readonly requestMeta: {
    readonly protocolVersion: string;
    readonly clientCapabilities: string;
    readonly required: readonly string[];
    readonly unsupportedProtocolVersion: number;
    readonly missingRequiredClientCapability: number;
  } | null;
  /** Modern releases: results carry `resultType`, `complete` unless the handler chose another. */
  readonly resultType: { readonly key: string; readonly complete: string } | null;
}

export type DispatchSpec<Batches extends boolean = boolean> = DispatchRelease<Batches> &
  DispatchSide;

export interface RequestContext<C = unknown> {
  readonly id: RequestId;
  readonly method: string;
  /** The request's `params._meta`, if it had one. */
  readonly _meta: JsonObject | undefined;
  /** Aborted by a matching cancel notification or by the signal given to `handle`. */
  readonly signal: AbortSignal;
  /** The value passed to `handle` (a session, a user, a transport stream). */
  readonly context: C;
  /** Sends a notification through `options.send`; dropped once the request has been answered or cancelled. */
  notify(method: string, params?: JsonObject): void;
  /** Present when the caller sent a progress token. */
  readonly progress:
    ((update: { progress: number; total?: number; message?: string }) => void) | undefined;
  /** Modern releases: throws the -32021 `RpcError` naming what the request's `clientCapabilities` lack. */
  requireClientCapability(required: string | JsonObject): void;
  /** The caller's W3C trace context, where the release reserves its `_meta` keys and the request carried a valid one. */
  readonly traceContext: TraceContext | undefined;
}

export interface NotificationContext<C = unknown> {
  readonly method: string;
  readonly _meta: JsonObject | undefined;
  readonly context: C;
}

/** The notification that cancels a request, its params key naming the request, and the requests a sender must never cancel. */
export interface CancelSpec {
  readonly method: string;
  readonly requestIdParam: string;
  readonly notCancellable: readonly string[];
}

export interface DispatcherOptions<C = unknown> {
  /** Check incoming params with the release's validators (default true). Turn off only for a trusted peer. */
  readonly validate?: boolean;
  /** Modern releases: the versions to accept in `_meta`; -32022 lists them otherwise. Default: this release. */
  readonly supportedVersions?: readonly string[];
  /**
   * Which peer a message comes from. Request ids are unique per peer only, so a cancel aborts
   * only the same peer's request with that id. Default: every message comes from one peer, which
   * fits a dispatcher per connection; one dispatcher serving many sessions names the session here.
   */
  readonly peerOf?: (context: C) => unknown;
  /** Where `ctx.notify` and `ctx.progress` go, with the context given to `handle`. */
  readonly send?: (message: DispatchNotification, context: C) => void;
  /** Sees what a handler threw (never sent to the peer) and errors from `send` or notification handlers. */
  readonly onError?: (
    error: unknown,
    info: {
      readonly method: string | undefined;
      readonly id: RequestId | null | undefined;
      readonly context: C;
    },
  ) => void;
}

export interface Dispatcher<C = unknown> {
  /** Never throws, never rejects. A request gets exactly one response; notifications, responses and cancelled requests get `undefined`. */
  handle(
    message: unknown,
    context?: C,
    signal?: AbortSource,
  ): Promise<DispatchResponse | undefined>;
}

/**
 * A dispatcher of a release with batches: `handle` also takes an array of messages (or its text)
 * and answers it with the array of the responses its requests get, in the order of the requests;
 * `undefined` when none is answered. An empty array gets one -32600 error, not an array.
 */
export interface BatchDispatcher<C = unknown> {
  /** Never throws, never rejects. */
  handle(
    message: unknown,
    context?: C,
    signal?: AbortSource,
  ): Promise<DispatchResponse | DispatchResponse[] | undefined>;
}

function failure(
  id: RequestId | null,
  code: number,
  message: string,
  data?: unknown,
): DispatchResponse {
  const error = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: "2.0", id, error };
}

/** Whether JSON-RPC answers a text `parse` refused: text that is no JSON is; JSON as `refusalAnswer` says. */
function answered(text: string): boolean {
  try {
    return refusalAnswer(JSON.parse(text)).answer;
  } catch {
    return true;
  }
}

/** Capabilities in `required` that `declared` lacks, keeping `required`'s shape; undefined when none are missing. */
function missingCapabilities(required: JsonObject, declared: unknown): JsonObject | undefined {
  const have = isObject(declared) ? declared : {};
  const missing: JsonObject = {};
  for (const key of Object.keys(required)) {
    const want = required[key];
    if (!own(have, key) || have[key] === undefined) missing[key] = want;
    else if (isObject(want) && Object.keys(want).length > 0) {
      const deeper = missingCapabilities(want, have[key]);
      if (deeper !== undefined) missing[key] = deeper;
    }
  }
  return Object.keys(missing).length > 0 ? missing : undefined;
}

/** The messages of a batch: `input` when it is an array, or the array its JSON text holds. */
function batchOf(input: unknown): readonly unknown[] | undefined {
  if (Array.isArray(input)) return input as unknown[];
  // Only text that starts an array is parsed here; anything else goes to `parseText` untouched.
  if (typeof input !== "string" || !/^[ \t\n\r]*\[/.test(input)) return undefined;
  try {
    const value: unknown = JSON.parse(input);
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A request's `ctx`. A class so that `signal` can be made on first read (most handlers never read it)
 * without the slow path V8 takes for an object literal with a getter.
 */
class HandlerContext<C> implements RequestContext<C> {
  readonly id: RequestId;
  readonly method: string;
  readonly _meta: JsonObject | undefined;
  readonly context: C;
  readonly #abort: LazyAbort;
  readonly #trace: TraceContextKeys | undefined;
  readonly notify: RequestContext<C>["notify"];
  readonly progress: RequestContext<C>["progress"];
  readonly requireClientCapability: RequestContext<C>["requireClientCapability"];

  constructor(
    id: RequestId,
    method: string,
    meta: JsonObject | undefined,
    context: C,
    abort: LazyAbort,
    notify: RequestContext<C>["notify"],
    progress: RequestContext<C>["progress"],
    requireClientCapability: RequestContext<C>["requireClientCapability"],
    trace: TraceContextKeys | undefined,
  ) {
    this.id = id;
    this.method = method;
    this._meta = meta;
    this.context = context;
    this.#abort = abort;
    this.notify = notify;
    this.progress = progress;
    this.requireClientCapability = requireClientCapability;
    this.#trace = trace;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  // Read on demand, like `signal`: most handlers never ask.
  get traceContext(): TraceContext | undefined {
    return this.#trace === undefined ? undefined : readTraceContext(this.#trace, this._meta);
  }
}

/** `handlers` is a release's typed handler table: a partial map of method names to functions. */
export function createDispatcher<C>(
  spec: DispatchSpec<false>,
  handlers: object,
  options?: DispatcherOptions<C>,
): Dispatcher<C>;
export function createDispatcher<C>(
  spec: DispatchSpec,
  handlers: object,
  options?: DispatcherOptions<C>,
): BatchDispatcher<C>;
export function createDispatcher<C>(
  spec: DispatchSpec,
  handlers: object,
  options: DispatcherOptions<C> = {},
): BatchDispatcher<C> {
  const requests = new Set(spec.requests);
  const notifications = new Set(spec.notifications);
  const supported = options.supportedVersions ?? [spec.version];
  const validate = options.validate ?? true;

  const report = (
    error: unknown,
    method: string | undefined,
    id: RequestId | null | undefined,
    context: C,
  ): void => {
    try {
      options.onError?.(error, { method, id, context });
    } catch {
      // onError is the last place an error can go; one that throws there has nowhere left.
    }
  };

  // Requests in flight, by peer, then by id: what a cancel notification can abort.
  const pending = new Map<unknown, Map<RequestId, Set<AbortHandle>>>();
  const peerOf = (context: C): unknown => {
    try {
      return options.peerOf?.(context);
    } catch (error) {
      report(error, undefined, undefined, context);
      return undefined;
    }
  };
  const inFlight = (peer: unknown): Map<RequestId, Set<AbortHandle>> => {
    let byId = pending.get(peer);
    if (byId === undefined) pending.set(peer, (byId = new Map<RequestId, Set<AbortHandle>>()));
    return byId;
  };

  const send = (message: DispatchNotification, context: C): void => {
    if (options.send === undefined) return;
    try {
      options.send(message, context);
    } catch (error) {
      report(error, message.method, undefined, context);
    }
  };

  const handlerOf = (method: string): ((params: unknown, ctx: unknown) => unknown) | undefined => {
    const handler = own(handlers, method) ? (handlers as JsonObject)[method] : undefined;
    return typeof handler === "function"
      ? (handler as (params: unknown, ctx: unknown) => unknown)
      : undefined;
  };

  const onNotification = async (
    method: string,
    params: JsonObject | undefined,
    context: C,
  ): Promise<undefined> => {
    if (!notifications.has(method)) return undefined;
    if (spec.cancel !== null && method === spec.cancel.method && params !== undefined) {
      const id = params[spec.cancel.requestIdParam];
      if (isRequestId(id))
        for (const controller of pending.get(peerOf(context))?.get(id) ?? []) controller.abort();
    }
    const handler = handlerOf(method);
    if (handler === undefined) return undefined;
    if (validate) {
      const checked = spec.validate(
        params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params },
      );
      if (!checked.ok) {
        report(
          new RpcError(checked.code, `invalid ${method} notification`, { errors: checked.errors }),
          method,
          undefined,
          context,
        );
        return undefined;
      }
    }
    const meta = params !== undefined && isObject(params["_meta"]) ? params["_meta"] : undefined;
    const ctx: NotificationContext<C> = { method, _meta: meta, context };
    try {
      await handler(params, ctx);
    } catch (error) {
      report(error, method, undefined, context);
    }
    return undefined;
  };

  /** The error a request gets before any handler runs, or undefined when it may go to its handler. */
  const precheck = (
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
  ): DispatchResponse | undefined => {
    const rules = spec.requestMeta;
    if (rules !== null) {
      const meta = params !== undefined && isObject(params["_meta"]) ? params["_meta"] : undefined;
      const missing = rules.required.filter(
        (key) => meta === undefined || !own(meta, key) || meta[key] === undefined,
      );
      if (missing.length > 0)
        return failure(
          id,
          spec.codes.invalidParams,
          `Invalid params: _meta lacks ${missing.join(", ")}`,
          { missing },
        );
      const requested = meta![rules.protocolVersion];
      if (typeof requested !== "string")
        return failure(
          id,
          spec.codes.invalidParams,
          `Invalid params: _meta["${rules.protocolVersion}"] must be a string`,
        );
      if (!supported.includes(requested))
        return failure(id, rules.unsupportedProtocolVersion, "Unsupported protocol version", {
          requested,
          supported: [...supported],
        });
    }
    if (!requests.has(method) || handlerOf(method) === undefined)
      return failure(id, spec.codes.methodNotFound, "Method not found");
    if (validate) {
      const checked = spec.validate(
        params === undefined
          ? { jsonrpc: "2.0", id, method }
          : { jsonrpc: "2.0", id, method, params },
      );
      if (!checked.ok) {
        const first = checked.errors[0];
        const detail =
          first === undefined
            ? ""
            : `: ${first.pointer || "/"}: expected ${first.expected}, got ${first.got}`;
        return failure(
          id,
          checked.code === spec.codes.methodNotFound ? checked.code : spec.codes.invalidParams,
          `Invalid params${detail}`,
          { errors: checked.errors },
        );
      }
    }
    return undefined;
  };

  const onRequest = async (
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    context: C,
    outer: AbortSource | undefined,
  ): Promise<DispatchResponse | undefined> => {
    let rejected: DispatchResponse | undefined;
    try {
      rejected = precheck(id, method, params);
    } catch (error) {
      report(error, method, id, context);
      return failure(id, spec.codes.internalError, "Internal error");
    }
    if (rejected !== undefined) return rejected;
    const handler = handlerOf(method)!;
    const meta = params !== undefined && isObject(params["_meta"]) ? params["_meta"] : undefined;
    // Settles when the request is cancelled, which ends the race with its handler below.
    let cancel = (): void => undefined;
    const cancelled = new Promise<"cancelled">((resolve) => (cancel = () => resolve("cancelled")));
    const controller = new LazyAbort(cancel);
    let stopListening: (() => void) | undefined;
    if (outer !== undefined) {
      if (outer.aborted) return undefined;
      stopListening = onAbort(outer, () => controller.abort());
    }
    const peer = peerOf(context);
    const byId = inFlight(peer);
    const group = byId.get(id) ?? new Set<AbortHandle>();
    group.add(controller);
    byId.set(id, group);
    let open = true;
    const notify = (notificationMethod: string, notificationParams?: JsonObject): void => {
      if (!open || controller.aborted) return;
      send(
        notificationParams === undefined
          ? { jsonrpc: "2.0", method: notificationMethod }
          : { jsonrpc: "2.0", method: notificationMethod, params: notificationParams },
        context,
      );
    };
    const token =
      spec.progress !== null && meta !== undefined ? meta[spec.progress.metaKey] : undefined;
    const progressSpec = spec.progress;
    const progress =
      progressSpec !== null && (typeof token === "string" || typeof token === "number")
        ? (update: { progress: number; total?: number; message?: string }): void =>
            notify(progressSpec.method, { ...update, [progressSpec.tokenParam]: token })
        : undefined;
    const requireClientCapability = (required: string | JsonObject): void => {
      const rules = spec.requestMeta;
      if (rules === null) return;
      const wanted = typeof required === "string" ? { [required]: {} } : required;
      const missing = missingCapabilities(wanted, meta?.[rules.clientCapabilities]);
      if (missing !== undefined)
        throw new RpcError(
          rules.missingRequiredClientCapability,
          "Missing required client capability",
          { requiredCapabilities: missing },
        );
    };
    const ctx = new HandlerContext(
      id,
      method,
      meta,
      context,
      controller,
      notify,
      progress,
      requireClientCapability,
      spec.traceContext,
    );
    try {
      const outcome = await Promise.race([
        Promise.resolve().then(() => handler(params, ctx)),
        cancelled,
      ]);
      if (outcome === "cancelled" && controller.aborted) return undefined;
      if (!isObject(outcome))
        throw new TypeError(
          `the ${method} handler returned ${outcome === null ? "null" : typeof outcome}, not a result object`,
        );
      const result: JsonObject =
        spec.resultType !== null && !own(outcome, spec.resultType.key)
          ? { ...outcome, [spec.resultType.key]: spec.resultType.complete }
          : outcome;
      return { jsonrpc: "2.0", id, result };
    } catch (error) {
      if (controller.aborted) return undefined;
      if (error instanceof RpcError && Number.isInteger(error.code))
        return failure(id, error.code, String(error.message), error.data);
      report(error, method, id, context);
      return failure(id, spec.codes.internalError, "Internal error");
    } finally {
      open = false;
      stopListening?.();
      group.delete(controller);
      if (group.size === 0 && byId.get(id) === group) byId.delete(id);
      if (byId.size === 0 && pending.get(peer) === byId) pending.delete(peer);
    }
  };

  const unreadable = (response: DispatchResponse): DispatchResponse => {
    if (response.id !== null || spec.unreadableId === "null" || !("error" in response))
      return response;
    return { jsonrpc: "2.0", error: response.error };
  };

  /** One message: `input` is its JSON text when `isText`, else a value (a batch's element is never text). */
  const dispatchOne = async (
    input: unknown,
    isText: boolean,
    batch: BatchRules | false,
    context: C,
    signal: AbortSource | undefined,
  ): Promise<DispatchResponse | undefined> => {
    let text: string;
    if (isText) text = input as string;
    else {
      try {
        text = JSON.stringify(input) ?? "";
      } catch {
        // A cycle, a BigInt, or nesting too deep to serialize: refused with the id where it can be read.
        const checked = checkEnvelope(input);
        const deep = checked.ok ? nestingFailure(checked.message) : undefined;
        if (deep !== undefined)
          return deep.id === undefined
            ? undefined
            : failure(deep.id, deep.error.code, deep.error.message);
        const refused = refusalAnswer(input);
        if (!refused.answer) return undefined;
        return unreadable(
          failure(
            refused.id ?? null,
            spec.codes.invalidRequest,
            "Invalid request: not a JSON value",
          ),
        );
      }
    }
    // Every release parses alike (the release's validators come after, in `spec.validate`).
    const parsed = parseText(text);
    if (!parsed.ok) {
      // Never a malformed response or notification (`refusalAnswer`); `parse` read the id, if any.
      if (!answered(text)) return undefined;
      return unreadable(failure(parsed.id ?? null, parsed.error.code, parsed.error.message));
    }
    const message = parsed.message;
    if (message.kind === "notification")
      return onNotification(message.method, message.params, context);
    if (message.kind !== "request") return undefined;
    if (batch !== false && batch.notBatchable.includes(message.method))
      return failure(
        message.id,
        spec.codes.invalidRequest,
        `Invalid request: ${message.method} must not be part of a batch`,
      );
    return onRequest(message.id, message.method, message.params, context, signal);
  };

  // JSON-RPC 2.0 §6: each element is a message of its own, handled concurrently (so a cancel can
  // reach a request of the same batch); requests' responses come back as one array, in the order
  // of the requests; an empty array is one invalid request.
  const dispatchBatch = async (
    batch: BatchRules,
    items: readonly unknown[],
    context: C,
    signal: AbortSource | undefined,
  ): Promise<DispatchResponse | DispatchResponse[] | undefined> => {
    if (items.length === 0)
      return unreadable(
        failure(null, spec.codes.invalidRequest, "Invalid request: an empty batch"),
      );
    const answers = await Promise.all(
      items.map((item) =>
        dispatchOne(item, false, batch, context, signal).catch((error: unknown) => {
          report(error, undefined, undefined, context);
          return undefined;
        }),
      ),
    );
    // A declared predicate: TypeScript before 5.5 infers none, and typeCheckOutput compiles this on 5.0.
    const responses = answers.filter((answer): answer is DispatchResponse => answer !== undefined);
    return responses.length > 0 ? responses : undefined;
  };

  const dispatch = async (
    input: unknown,
    context: C,
    signal: AbortSource | undefined,
  ): Promise<DispatchResponse | DispatchResponse[] | undefined> => {
    if (spec.batches !== false) {
      const items = batchOf(input);
      if (items !== undefined) return dispatchBatch(spec.batches, items, context, signal);
    }
    return dispatchOne(input, typeof input === "string", false, context, signal);
  };

  return {
    handle(
      message: unknown,
      context?: C,
      signal?: AbortSource,
    ): Promise<DispatchResponse | DispatchResponse[] | undefined> {
      const ctx = context as C;
      return dispatch(message, ctx, signal).catch((error: unknown) => {
        report(error, undefined, undefined, ctx);
        return undefined;
      });
    },
  };
}
