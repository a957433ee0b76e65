import type { JsonObject } from "./json.js";

/**
 * The message types every release's `envelope.ts` instantiates with its own method tables
 * (`{ [method]: { params } }`): what the builders build and what `parse` returns. Types only.
 */
type RequestId = string | number;

/**
 * `params` as a method table types it: absent when the method has none, optional when the schema
 * says so. Releases write their request and notification envelopes as one mapped type over their
 * own table with it (a generic over the table cost a consumer's tsc about 200 instantiations more).
 */
export type ParamsField<P> = [P] extends [undefined]
  ? unknown
  : undefined extends P
    ? { params?: Exclude<P, undefined> }
    : { params: P };

/** A successful response. A response does not name its method, so `parse` types `result` loosely; narrow it with the request you sent. */
export type ResultEnvelope<R = JsonObject> = { jsonrpc: "2.0"; id: RequestId; result: R };

interface ErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * An error response. `id` is null when the request's id could not be read (JSON-RPC 2.0,
 * section 5); `IdOptional` where the release's schema lets an error leave it out.
 */
export type ErrorEnvelopeOf<IdOptional extends boolean> = IdOptional extends true
  ? { jsonrpc: "2.0"; id?: RequestId | null; error: ErrorBody }
  : { jsonrpc: "2.0"; id: RequestId | null; error: ErrorBody };

/** A message whose requests and notifications are of methods the release defines, tagged by `kind`. */
export type ValidatedOf<Request, Notification, Error> =
  | (Request & { kind: "request" })
  | (Notification & { kind: "notification" })
  | (ResultEnvelope & { kind: "result" })
  | (Error & { kind: "error" });

/** What an unvalidated `parse` may also return: a method the release does not define (a newer peer may send one). */
export type UnknownMethodMessage =
  | { kind: "request"; jsonrpc: "2.0"; id: RequestId; method: string; params?: JsonObject }
  | { kind: "notification"; jsonrpc: "2.0"; method: string; params?: JsonObject };
