import { abortController } from "./abort.js";
import {
  createDispatcher,
  type Dispatcher,
  type DispatcherOptions,
  type DispatchSpec,
} from "./dispatcher.js";
import { isObject, own, setOwn, type JsonObject } from "./json.js";
import { inputHandlerFor, type InputHandler } from "./requester.js";
import { RpcError, type RpcErrorBody } from "./rpc-error.js";

/**
 * The client side of a modern `input_required` result: each embedded input request (sampling,
 * elicitation, roots) goes to its handler, and the answers come back keyed as the server asked,
 * ready to send as `inputResponses` with the retried request. Never throws, never rejects.
 */

export interface InputSpec {
  readonly version: string;
  /** Input request methods this release defines. */
  readonly inputs: readonly string[];
  readonly codes: {
    readonly methodNotFound: number;
    readonly invalidParams: number;
    readonly internalError: number;
  };
  /** Input request method → the definition its params must match; a method not here takes any params. */
  readonly inputParams: { readonly [method: string]: string };
  /**
   * The release's `validate(definition, value)`; an `ok: false` lists the issues. A method, so that the
   * release's own, which takes only its definition names, fits (`inputParams` holds only those).
   */
  validateDefinition(
    definition: string,
    value: unknown,
  ):
    | { readonly ok: true }
    | {
        readonly ok: false;
        readonly errors: readonly { pointer: string; expected: string; got: string }[];
      };
}

export interface InputContext<C = unknown> {
  /** The key the server gave this input request in `inputRequests`. */
  readonly key: string;
  readonly method: string;
  readonly _meta: JsonObject | undefined;
  /** Aborted when the signal given to `answerInputRequests` is. */
  readonly signal: AbortSignal;
  readonly context: C;
}

export interface InputAnswers {
  /** The handlers' results by key: send as `inputResponses`. */
  readonly inputResponses: JsonObject;
  /** Keys no handler could answer, with the error each would have been. */
  readonly errors: { readonly [key: string]: RpcErrorBody };
}

export async function answerInputRequests<C>(
  spec: InputSpec,
  handlers: object,
  requests: unknown,
  context: C,
  options: {
    readonly validate?: boolean;
    readonly signal?: AbortSignal;
    readonly onError?: (
      error: unknown,
      info: { readonly method: string | undefined; readonly key: string; readonly context: C },
    ) => void;
  } = {},
): Promise<InputAnswers> {
  const inputResponses: JsonObject = {};
  const errors: { [key: string]: RpcErrorBody } = {};
  if (!isObject(requests)) return { inputResponses, errors };
  const known = new Set(spec.inputs);
  const signal = options.signal ?? abortController().signal;
  const answer = async (key: string): Promise<void> => {
    const request = requests[key];
    const method =
      isObject(request) && typeof request["method"] === "string" ? request["method"] : undefined;
    const params = isObject(request) ? request["params"] : undefined;
    const handler =
      method !== undefined && known.has(method) && own(handlers, method)
        ? (handlers as JsonObject)[method]
        : undefined;
    if (method === undefined || typeof handler !== "function") {
      setOwn(errors, key, { code: spec.codes.methodNotFound, message: "Method not found" });
      return;
    }
    if (options.validate ?? true) {
      const definition = own(spec.inputParams, method) ? spec.inputParams[method] : undefined;
      const checked =
        definition === undefined
          ? { ok: true as const }
          : spec.validateDefinition(definition, params);
      if (!checked.ok) {
        setOwn(errors, key, {
          code: spec.codes.invalidParams,
          message: "Invalid params",
          data: { errors: checked.errors },
        });
        return;
      }
    }
    const ctx: InputContext<C> = {
      key,
      method,
      _meta: isObject(params) && isObject(params["_meta"]) ? params["_meta"] : undefined,
      signal,
      context,
    };
    try {
      const result = await (handler as (params: unknown, ctx: unknown) => unknown)(params, ctx);
      if (!isObject(result))
        throw new TypeError(
          `the ${method} handler returned ${result === null ? "null" : typeof result}, not a result object`,
        );
      setOwn(inputResponses, key, result);
    } catch (error) {
      if (error instanceof RpcError && Number.isInteger(error.code)) {
        setOwn(
          errors,
          key,
          error.data === undefined
            ? { code: error.code, message: String(error.message) }
            : { code: error.code, message: String(error.message), data: error.data },
        );
        return;
      }
      try {
        options.onError?.(error, { method, key, context });
      } catch {
        // onError is the last place an error can go.
      }
      setOwn(errors, key, { code: spec.codes.internalError, message: "Internal error" });
    }
  };
  try {
    await Promise.all(Object.keys(requests).map(answer));
  } catch {
    // Only a hostile `requests` object (a throwing getter) gets here: what was answered stands.
  }
  return { inputResponses, errors };
}

/**
 * A modern client's dispatcher: also answers an `input_required` result's input requests with the same handler
 * table, and, given to a requester as its input handler, completes such results by retrying with the answers.
 */
export interface InputDispatcher<C, Requests = unknown, Responses = JsonObject>
  extends Dispatcher<C>, InputHandler {
  /** Send `inputResponses` with the retried request. Never rejects. */
  answerInputRequests(
    inputRequests: Requests | undefined,
    context?: C,
    signal?: AbortSignal,
  ): Promise<InputAnswers & { readonly inputResponses: Responses }>;
}

/** `Requests` and `Responses` type `answerInputRequests` with the release's input types. */
export function createInputDispatcher<C, Requests, Responses>(
  spec: DispatchSpec<false> & InputSpec,
  handlers: object,
  options: DispatcherOptions<C>,
): InputDispatcher<C, Requests, Responses> {
  const core = createDispatcher(spec, handlers, options);
  const dispatcher: Omit<InputDispatcher<C, Requests, Responses>, "settleInput"> = {
    handle: (message, context, signal) => core.handle(message, context, signal),
    answerInputRequests: (inputRequests, context, signal) =>
      answerInputRequests(spec, handlers, inputRequests, context as C, {
        ...(options.validate === undefined ? {} : { validate: options.validate }),
        ...(signal === undefined ? {} : { signal }),
        onError: (error, info) =>
          options.onError?.(error, { method: info.method, id: undefined, context: info.context }),
      }) as Promise<InputAnswers & { readonly inputResponses: Responses }>,
  };
  return { ...dispatcher, ...inputHandlerFor(dispatcher) };
}
