/**
 * The sending side of JSON-RPC, independent of any transport: the caller gives a `send` function and feeds
 * every message it receives to `receive`; the requester allocates ids, pairs responses with their requests,
 * turns error responses into `RpcError`s, sends `notifications/cancelled` when a call is aborted or times out,
 * and (modern releases) answers `input_required` results through an input handler and retries.
 * Per-release wrappers give it the release's request builder and the method tables' types.
 */
import { RpcError } from "./rpc-error.js";

type JsonObject = { [key: string]: unknown };
type RequestId = string | number;

/** What a per-release builder produces: a request envelope with the release's `_meta` written in. */
export interface BuiltRequest {
  readonly jsonrpc: "2.0";
  readonly id: RequestId;
  readonly method: string;
  readonly params?: object;
}

/** The release's `request(method, params, { id, ...meta })` builder, bound to the requester's `_meta` options. */
export type BuildRequest = (
  method: string,
  params: object | undefined,
  id: RequestId,
) => BuiltRequest;

/** Hands one message to the transport. A rejection fails the call that sent it. */
export type Send = (message: object) => void | Promise<void>;

/** Anything that answers a JSON-RPC request message with a response message, as a client dispatcher's `handle` does. */
export interface InputHandler {
  handle(message: object): Promise<unknown>;
}

export interface RequesterOptions {
  /** Applies to every call without its own `timeoutMs`. None by default. */
  readonly timeoutMs?: number;
  /** Answers the input requests of an `input_required` result; without one such a result is returned as it is. */
  readonly inputHandler?: InputHandler;
  /** How many `input_required` rounds one call may go through before it fails. Defaults to 8. */
  readonly maxInputRounds?: number;
  /** Where ids come from when several requesters share one peer (a server's per-request requesters on one session). Defaults to 1, 2, 3, … */
  readonly nextId?: () => RequestId;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

export interface RequesterCore {
  request(method: string, params: object | undefined, options?: CallOptions): Promise<unknown>;
  /** Takes a received message; true when it was the response to a pending call (anything else is the caller's). */
  receive(message: unknown): boolean;
  /** Fails every pending call with `reason` (the transport closed, say). */
  close(reason?: Error): void;
  readonly pending: number;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

const DEFAULT_INPUT_ROUNDS = 8;

export function createRequesterCore(
  build: BuildRequest,
  send: Send,
  options: RequesterOptions = {},
): RequesterCore {
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
    const signal = withTimeout(call.signal, call.timeoutMs ?? options.timeoutMs);
    if (signal?.aborted) return Promise.reject(asError(signal.reason));
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        const reason = asError(signal?.reason);
        if (!fail(id, reason)) return;
        // Best effort: the call has already failed locally whether or not the peer hears of it.
        void Promise.resolve()
          .then(() =>
            send({
              jsonrpc: "2.0",
              method: "notifications/cancelled",
              params: { requestId: id, reason: reason.message },
            }),
          )
          .catch(() => undefined);
      };
      const settle = (): void => signal?.removeEventListener("abort", onAbort);
      pending.set(id, {
        resolve: (result) => {
          settle();
          resolve(result);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      Promise.resolve()
        .then(() => send(build(method, params, id)))
        .catch((error: unknown) => fail(id, asError(error)));
    });
  }

  /** Rejects a pending call; false when it had already settled. */
  function fail(id: RequestId, error: Error): boolean {
    const entry = pending.get(id);
    if (entry === undefined) return false;
    pending.delete(id);
    entry.reject(error);
    return true;
  }

  async function request(
    method: string,
    params: object | undefined,
    call: CallOptions = {},
  ): Promise<unknown> {
    const rounds = options.maxInputRounds ?? DEFAULT_INPUT_ROUNDS;
    let current = params;
    for (let round = 0; ; round++) {
      const result = await exchange(method, current, call);
      const handler = options.inputHandler;
      if (handler === undefined || !isObject(result) || result["resultType"] !== "input_required")
        return result;
      if (round >= rounds)
        throw new RpcError(-32603, `${method}: still input_required after ${rounds} rounds`);
      current = await retryParams(params, result, handler);
    }
  }

  function receive(message: unknown): boolean {
    if (!isObject(message) || "method" in message) return false;
    const id = message["id"];
    if (typeof id !== "string" && typeof id !== "number") return false;
    const entry = pending.get(id);
    if (entry === undefined) return false;
    pending.delete(id);
    const error = message["error"];
    if (isObject(error)) entry.reject(rpcErrorOf(error));
    else if ("result" in message) entry.resolve(message["result"]);
    else entry.reject(new RpcError(-32603, "Response carries neither result nor error"));
    return true;
  }

  function close(reason: Error = new Error("Requester closed")): void {
    const entries = [...pending.values()];
    pending.clear();
    for (const entry of entries) entry.reject(reason);
  }

  return {
    request,
    receive,
    close,
    get pending() {
      return pending.size;
    },
  };
}

/** The original params plus the answers and the server's opaque `requestState`, as the retry carries them. */
async function retryParams(
  original: object | undefined,
  result: JsonObject,
  handler: InputHandler,
): Promise<object> {
  const inputRequests = isObject(result["inputRequests"]) ? result["inputRequests"] : {};
  const inputResponses: JsonObject = {};
  for (const [key, inputRequest] of Object.entries(inputRequests)) {
    if (!isObject(inputRequest)) continue;
    const response = await handler.handle({
      jsonrpc: "2.0",
      id: key,
      method: inputRequest["method"],
      params: inputRequest["params"] ?? {},
    });
    if (!isObject(response))
      throw new RpcError(-32603, `No answer to input request ${JSON.stringify(key)}`);
    if (isObject(response["error"])) throw rpcErrorOf(response["error"]);
    inputResponses[key] = response["result"];
  }
  const retry: JsonObject = { ...original, inputResponses };
  if (typeof result["requestState"] === "string") retry["requestState"] = result["requestState"];
  else delete retry["requestState"];
  return retry;
}

function rpcErrorOf(error: JsonObject): RpcError {
  const code = typeof error["code"] === "number" ? error["code"] : -32603;
  const message =
    typeof error["message"] === "string" ? error["message"] : "Error response without a message";
  return "data" in error ? new RpcError(code, message, error["data"]) : new RpcError(code, message);
}

function withTimeout(
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): AbortSignal | undefined {
  if (timeoutMs === undefined) return signal;
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
