/**
 * The sending side of JSON-RPC, independent of any transport: the caller gives a `send` function and feeds
 * every message it receives to `receive`; the requester allocates ids, pairs responses with their requests,
 * turns error responses into `RpcError`s, sends the release's cancel notification when a call is aborted or
 * times out, and (modern releases) hands each result to an input handler, which answers `input_required` and retries.
 * Per-release wrappers give it the release's request builder, its facts and the method tables' types.
 */
import { isObject, own, type JsonObject } from "./json.js";
import { isInputRequiredIn, responseError, type ResultTypeFacts } from "./responses.js";
import { abortController, abortReason, type AbortHandle } from "./abort.js";
import type { CancelSpec } from "./dispatcher.js";
import { RpcError, rpcErrorOf, type RpcErrorBody } from "./rpc-error.js";

type RequestId = string | number;

// Timers exist on every platform the output runs on, but not in the ES library it compiles against.
declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(timer: unknown): void;

/** What differs between releases, from the model. */
export interface RequesterSpec {
  /** The notification that cancels a request, and its params key naming the request; null where there is none. */
  readonly cancel: CancelSpec | null;
  /** The code of errors the requester raises itself (no answer to an input request, too many rounds). */
  readonly internalErrorCode: number;
  /**
   * `receiveBatch` where messages may come in JSON-RPC batches (the model's `envelope.batches`, as for the release's
   * dispatchers): `receive` then takes arrays. Null elsewhere, so a program without such a release bundles none of it.
   */
  readonly batches: typeof receiveBatch | null;
  /** The model's `input_required` result: how it is told apart and the members of the exchange; null where no result asks for input. */
  readonly inputRequired: InputRequiredSpec | null;
}

export interface InputRequiredSpec {
  readonly resultType: ResultTypeFacts & { readonly inputRequired: string };
  /** The result's member holding the input requests (`inputRequests`). */
  readonly requests: string;
  /** The retried params' member carrying the answers (`inputResponses`). */
  readonly responses: string;
  /** The opaque state the result may carry and the retry echoes (`requestState`). */
  readonly state: string;
}

/** The release's `request(method, params, { id, ...meta })` builder, bound to the requester's `_meta` options. */
export type BuildRequest = (method: string, params: object | undefined, id: RequestId) => object;

/** Hands one message to the transport. A rejection fails the call that sent it. Typed by the release's wrapper, which knows what it sends. */
export type Send = (message: never) => void | Promise<void>;

/** Answers an `input_required` result's input requests, keyed as asked: a modern client dispatcher does. */
export interface InputAnswerer {
  answerInputRequests(
    inputRequests: unknown,
    context?: undefined,
    signal?: AbortSignal,
  ): Promise<{
    readonly inputResponses: object;
    readonly errors: { readonly [key: string]: RpcErrorBody };
  }>;
}

/** One call's result on its way back, for an input handler to complete. */
export interface InputCall {
  readonly method: string;
  /** The params the call was made with. */
  readonly params: object | undefined;
  readonly result: unknown;
  readonly spec: InputRequiredSpec;
  readonly internalErrorCode: number;
  readonly maxRounds: number;
  readonly signal: AbortSignal | undefined;
  /** Makes the call again with `params`, under a fresh id: its result. */
  retry(params: object): Promise<unknown>;
}

/**
 * Completes a call whose result may ask for input: what the call resolves with. A modern client dispatcher is
 * one; `inputHandlerFor` makes one from any `InputAnswerer`. The rounds live here rather than in the requester,
 * so a client that answers no input requests bundles none of them.
 */
export interface InputHandler {
  settleInput(call: InputCall): Promise<unknown>;
}

/**
 * An input handler that answers each `input_required` result through `answerer` and retries the call with the
 * answers, until a result asks for no input or `maxRounds` rounds have gone.
 */
export function inputHandlerFor(answerer: InputAnswerer): InputHandler {
  return {
    async settleInput(call) {
      const input = call.spec;
      let result = call.result;
      for (let round = 0; isInputRequiredIn(result, input.resultType); round++) {
        if (round >= call.maxRounds)
          throw new RpcError(
            call.internalErrorCode,
            `${call.method}: still ${input.resultType.inputRequired} after ${call.maxRounds} rounds`,
          );
        // Only an object's resultType asks for input.
        const asked = result as JsonObject;
        result = await call.retry(
          await retryParams(input, call.params, asked, answerer, call.signal),
        );
      }
      return result;
    },
  };
}

/** How any requester behaves. */
export interface RequesterBehaviour {
  /** Applies to every call without its own `timeoutMs`. Defaults to 60 s: a peer that never answers must not hold a call forever. */
  readonly timeoutMs?: number;
  /** Where ids come from when several requesters share one peer (a server's per-request requesters on one session). Defaults to 1, 2, 3, … */
  readonly nextId?: () => RequestId;
}

/** A modern client's requester also answers `input_required` results. */
export interface RequesterOptions extends RequesterBehaviour {
  /** Completes `input_required` results (a client dispatcher does): their input requests answered, the call retried with the answers. Without one, such a result is returned as it is. */
  readonly inputHandler?: InputHandler;
  /** How many `input_required` rounds one call may go through before it fails. Defaults to 8. */
  readonly maxInputRounds?: number;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  /** Defaults to the requester's `timeoutMs` (60 s unless set). */
  readonly timeoutMs?: number;
  /** HTTP headers for this request's POST (a tool's `Mcp-Param-*`): handed to `send` as its second argument; other transports ignore them. */
  readonly headers?: { readonly [name: string]: string };
}

/**
 * A release's `RequesterSpec.batches` where JSON-RPC batches exist. JSON-RPC 2.0 section 6: each element as if it
 * came alone (batches do not nest), every one taken even after one that is not a response; an empty array holds
 * nothing to take.
 */
export function receiveBatch(message: unknown, receiveOne: (message: unknown) => boolean): boolean {
  if (!Array.isArray(message)) return receiveOne(message);
  return message.map(receiveOne).reduce((all, taken) => all && taken, message.length > 0);
}

/** What every typed requester has beside its release's `request`. */
export interface RequesterLifecycle {
  /**
   * Give it every message received; true when it was the response to one of its calls. Where the
   * release has JSON-RPC batches, an array is received element by element, in order: true when every
   * element was such a response; otherwise the array is still the caller's, for whatever takes its
   * requests and notifications (a batch dispatcher ignores the responses in it, settled here).
   */
  receive(message: unknown): boolean;
  /** Fails every pending call (the transport closed). */
  close(reason?: Error): void;
  readonly pending: number;
}

export interface RequesterCore {
  request(method: string, params: object | undefined, options?: CallOptions): Promise<unknown>;
  /** Takes a received message (or a batch, where the release has them); true when it was the response to a pending call (anything else is the caller's). */
  receive(message: unknown): boolean;
  /** Fails every pending call with `reason` (the transport closed, say). */
  close(reason?: Error): void;
  readonly pending: number;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
  /** Aborts the signal `send` was given, so a transport stops reading a reply nobody waits for. */
  readonly stop: AbortHandle;
}

/** What `send` is given beside the message. */
export interface Delivery {
  readonly headers: CallOptions["headers"] | undefined;
  /** Aborted once the call has failed (timed out, aborted, closed): what is still coming for it is not wanted. */
  readonly signal: AbortSignal;
  readonly untimed: Untimed;
}

/**
 * Stops a call's clock until `waiting` settles, and returns it: the call's timeout counts the time the peer
 * takes, not the time spent waiting on someone else (a user logging in, for an authorizer).
 */
export type Untimed = <T>(waiting: Promise<T>) => Promise<T>;

const DEFAULT_INPUT_ROUNDS = 8;
const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * `Typed` is a release's face of the core (its `Requester`): the same `request`, typed by the
 * release's tables. Naming it here spares every consumer's tsc comparing the two at each release.
 */
export function createRequesterCore<Typed extends RequesterLifecycle = RequesterCore>(
  spec: RequesterSpec,
  build: BuildRequest,
  send: Send,
  options: RequesterOptions = {},
): Typed {
  // The wrapper's `send` takes what this release sends, which is exactly what is built here.
  const deliver = send as (message: object, options?: Delivery) => void | Promise<void>;
  const pending = new Map<RequestId, Pending>();
  let counter = 0;
  const nextId = options.nextId ?? (() => ++counter);

  /** One JSON-RPC exchange: resolves with the response's `result`, rejects with an RpcError, the abort reason or a timeout. */
  function exchange(
    method: string,
    params: object | undefined,
    call: CallOptions,
  ): Promise<unknown> {
    const id = nextId();
    const signal = call.signal;
    if (signal?.aborted) return Promise.reject(asError(abortReason(signal)));
    const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const abandon = (reason: Error): void => {
      if (!fail(id, reason)) return;
      const cancel = spec.cancel;
      if (cancel === null || cancel.notCancellable.includes(method)) return;
      // Best effort: the call has already failed locally whether or not the peer hears of it.
      void Promise.resolve()
        .then(() =>
          deliver({
            jsonrpc: "2.0",
            method: cancel.method,
            params: { [cancel.requestIdParam]: id, reason: reason.message },
          }),
        )
        .catch(() => undefined);
    };
    // Listened to only when there is a signal.
    const onAbort = (): void => abandon(asError(abortReason(signal!)));
    // The clock has `timeoutMs` in all: `untimed` stops it (`left` keeps what remains) and starts it again.
    let left = timeoutMs;
    let since = 0;
    let held = 0;
    let timer: unknown;
    const start = (): void => {
      since = Date.now();
      timer = setTimeout(() => abandon(timeoutError(timeoutMs)), left);
    };
    const untimed: Untimed = (waiting) => {
      if (held++ === 0) {
        clearTimeout(timer);
        left -= Date.now() - since;
      }
      // A call that settled meanwhile has no clock left to start.
      return waiting.finally(() => --held === 0 && pending.has(id) && start());
    };
    start();
    const stop = abortController();
    const answered = new Promise((resolve, reject) => pending.set(id, { resolve, reject, stop }));
    // A signal aborts once, and `finally` below removes the listener: it needs no `once` option.
    signal?.addEventListener("abort", onAbort);
    Promise.resolve()
      .then(() =>
        deliver(build(method, params, id), { headers: call.headers, signal: stop.signal, untimed }),
      )
      .catch((error: unknown) => fail(id, asError(error)));
    // However the call ends, its abort listener and timer go with it.
    return answered.finally(() => {
      signal?.removeEventListener("abort", onAbort);
      clearTimeout(timer);
    });
  }

  /** Rejects a pending call; false when it had already settled. */
  function fail(id: RequestId, error: Error): boolean {
    const entry = pending.get(id);
    entry?.reject(error);
    entry?.stop.abort();
    return pending.delete(id);
  }

  async function request(
    method: string,
    params: object | undefined,
    call: CallOptions = {},
  ): Promise<unknown> {
    const result = await exchange(method, params, call);
    const handler = options.inputHandler;
    const input = spec.inputRequired;
    if (handler === undefined || input === null) return result;
    return handler.settleInput({
      method,
      params,
      result,
      spec: input,
      internalErrorCode: spec.internalErrorCode,
      maxRounds: options.maxInputRounds ?? DEFAULT_INPUT_ROUNDS,
      signal: call.signal,
      retry: (retried) => exchange(method, retried, call),
    });
  }

  const batches = spec.batches;
  const receive =
    batches === null ? receiveOne : (message: unknown): boolean => batches(message, receiveOne);

  function receiveOne(message: unknown): boolean {
    if (!isObject(message) || "method" in message) return false;
    // The map holds only ids this requester sent, so any other id, of whatever type, finds nothing.
    const id = message["id"] as RequestId;
    const entry = pending.get(id);
    if (entry === undefined) return false;
    pending.delete(id);
    const error = responseError(message);
    if (error !== undefined) entry.reject(rpcErrorOf(error));
    else if (own(message, "result")) entry.resolve(message["result"]);
    else entry.reject(new RpcError(spec.internalErrorCode, "Malformed response"));
    return true;
  }

  function close(reason: Error = new Error("Requester closed")): void {
    // Deleting from a Map while iterating it is safe, and a rejection runs no handler before the loop ends.
    for (const [id, entry] of pending) {
      pending.delete(id);
      entry.reject(reason);
      entry.stop.abort();
    }
  }

  const core: RequesterCore = {
    request,
    receive,
    close,
    get pending() {
      return pending.size;
    },
  };
  return core as unknown as Typed;
}

/**
 * The retry's params: the original ones plus the answers and the server's opaque `requestState`,
 * echoed untouched (never a state from an earlier round or another call). An input request the
 * handler could not answer fails the call with its error.
 */
async function retryParams(
  input: InputRequiredSpec,
  original: object | undefined,
  result: JsonObject,
  handler: InputAnswerer,
  signal: AbortSignal | undefined,
): Promise<object> {
  const answers = await handler.answerInputRequests(result[input.requests], undefined, signal);
  const failed = Object.values(answers.errors)[0];
  if (failed !== undefined) throw rpcErrorOf(failed);
  const retry: JsonObject = { ...original, [input.responses]: answers.inputResponses };
  const state = result[input.state];
  if (typeof state === "string") retry[input.state] = state;
  else delete retry[input.state];
  return retry;
}

function timeoutError(ms: number): Error {
  const error = new Error(`No response within ${ms} ms`);
  error.name = "TimeoutError";
  return error;
}

/** A thrown value or abort reason as an Error (connect uses it too). */
export function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
