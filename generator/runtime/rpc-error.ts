/**
 * How a handler answers with a JSON-RPC error: `throw new RpcError(code, message, data?)`. The
 * dispatcher turns it into an error response; any other throw becomes -32603 with a generic message.
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
}

/** The JSON-RPC error object of an error response. */
export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}
