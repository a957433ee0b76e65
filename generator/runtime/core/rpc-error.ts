/**
 * How a handler answers with a JSON-RPC error: `throw new RpcError(code, message, data?)`. The
 * dispatcher turns it into an error response; any other throw becomes -32603 with a generic message.
 * Each release exports it typed as its `ReleaseRpcError`, so the constructor takes that release's
 * `ErrorCode` and an application's own code goes through `RpcError.custom`, visibly.
 */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }

  /** An error with an application-defined code, one the release's `ErrorCode` does not list. */
  static custom(code: number, message: string, data?: unknown): RpcError {
    return new RpcError(code, message, data);
  }
}

/**
 * `RpcError` as a release exports it: `new` takes only the release's codes (a typo such as 12345 is a
 * compile error), `custom` any code. The same class at run time, so `instanceof` works across both.
 */
export interface ReleaseRpcError<Code extends number> {
  new (code: Code, message: string, data?: unknown): RpcError;
  readonly prototype: RpcError;
  /** An error with an application-defined code, one the release's `ErrorCode` does not list. */
  custom(code: number, message: string, data?: unknown): RpcError;
}

/** An error response's error object (`responseError`, an input request's answer) as the RpcError a call rejects with. */
export function rpcErrorOf(body: RpcErrorBody): RpcError {
  return new RpcError(body.code, body.message, body.data);
}

/** The JSON-RPC error object of an error response. */
export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}
