import type { AbortSource } from "../core/abort.js";
import type { JsonObject } from "../core/json.js";
import type { HeaderValues } from "./origin.js";
import type { EventStream } from "./sse.js";

/**
 * What the server transport's parts share: one HTTP request as the adapters hand it over
 * (`HttpExchange`), the reply they write (`HttpReply`), and the few helpers every part answers with.
 */

/** What the adapters hand the handler: one HTTP request, read lazily. */
export interface HttpExchange {
  readonly method: string;
  /** The path, with or without the query. */
  readonly path: string;
  /** Header values by lower-cased name. */
  readonly headers: HeaderValues;
  /** The body, up to `limit` bytes; `false` beyond, `undefined` when it could not be read. */
  body(limit: number): Promise<Uint8Array | string | false | undefined>;
  /**
   * Aborted when the client goes away before the reply has ended: a platform signal, or a
   * `LazyAbort`, which the node adapter hands over because it makes no signal until one is read.
   */
  readonly signal: AbortSource;
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

/** What the client accepts a reply as. */
export interface ReplyPlan {
  readonly json: boolean;
  readonly sse: boolean;
}

export const JSON_TYPE = "application/json";
export const SSE_TYPE = "text/event-stream";
export const SESSION_HEADER = "mcp-session-id";
export const VERSION_HEADER = "mcp-protocol-version";

/** JSON-RPC's codes, for answers given before any era is known. */
export const BASE_CODES: {
  readonly invalidRequest: number;
  readonly invalidParams: number;
  readonly internalError: number;
} = {
  invalidRequest: -32600,
  invalidParams: -32602,
  internalError: -32603,
};

export function header(headers: HeaderValues, name: string): string | undefined {
  const value = headers[name];
  return typeof value === "string" ? value : undefined;
}

export function errorBody(code: number, message: string, id?: string | number): JsonObject {
  return id === undefined
    ? { jsonrpc: "2.0", error: { code, message } }
    : { jsonrpc: "2.0", id, error: { code, message } };
}

export function jsonReply(
  status: number,
  body: object,
  headers: Record<string, string> = {},
): HttpReply {
  return { status, headers: { ...headers, "content-type": JSON_TYPE }, body: JSON.stringify(body) };
}

export function failReply(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id?: string | number,
): HttpReply {
  return jsonReply(status, errorBody(code, message, id), headers);
}

/** What the client accepts: a missing `Accept` takes either; `*∕*` and `application/*` count too. */
export function acceptance(headers: HeaderValues): ReplyPlan {
  const accept = header(headers, "accept")?.toLowerCase();
  if (accept === undefined || accept.includes("*/*")) return { json: true, sse: true };
  return {
    json: accept.includes(JSON_TYPE) || accept.includes("application/*"),
    sse: accept.includes(SSE_TYPE) || accept.includes("text/*"),
  };
}

const platform = globalThis as unknown as {
  readonly crypto: { getRandomValues(array: Uint8Array): Uint8Array };
};

/** 128 random bits in hex: session and stream ids nobody can guess. */
export function randomId(): string {
  const bytes = platform.crypto.getRandomValues(new Uint8Array(16));
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

/** Lets the process exit while only this timer is left, where the platform's timers have `unref` (Node, Bun, Deno). */
export function unref(timer: unknown): void {
  if (typeof timer === "object" && timer !== null && "unref" in timer) {
    const release = timer.unref;
    if (typeof release === "function") release.call(timer);
  }
}
