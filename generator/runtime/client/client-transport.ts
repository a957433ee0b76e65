/**
 * What a client session needs of a transport, whichever it is (Streamable HTTP, stdio, a test's pair):
 * send one message, hand every message the server sends to `message`, say when the connection is gone.
 */
import { isObject } from "../core/json.js";
import type { Untimed } from "../core/requester.js";

/** What the session gives a transport when it opens it. */
export interface TransportEvents {
  /** Every message from the server, parsed JSON not yet checked (a response, a request, a notification, or a batch). */
  message(message: unknown): void;
  /**
   * Every pending call fails with `error`: the connection is gone for good (the server process exited, say), or a
   * reply could not be read and the call it was for is unknown.
   */
  closed(error: Error): void;
}

export interface SendOptions {
  /** Per-message HTTP headers (a stateless release's `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`); other transports ignore them. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A request's: aborted once its call has failed (timed out, aborted, closed), when reading its reply must stop. */
  readonly signal?: AbortSignal;
  /** A request's: stops its clock while a promise it is given is pending (an authorizer's wait for the user). */
  readonly untimed?: Untimed;
}

/**
 * `Part` is what an era hands the transport before its first message, opaque here so that the generic interface
 * names no wire: a session era gives an HTTP transport its `HttpSessionFactory` (`http-client.ts`); a transport
 * that needs nothing (stdio) takes any.
 */
export interface ClientTransport<Part = unknown> {
  /**
   * Sends one message. Rejects when it could not be delivered, or (a request) when the transport knows no
   * response will come (an HTTP reply that ended without one): the call fails with that error at once.
   */
  send(message: object, options?: SendOptions): Promise<void>;
  /**
   * An era is tried, before its first message: its version, which a stateless era's HTTP messages carry from
   * now on, and for a session era its HTTP part (`http-session.ts`: session id, resumption, GET stream, DELETE).
   */
  begin(protocolVersion: string, eraPart: Part | undefined): void;
  /** A session era is agreed on: an HTTP transport now sends `MCP-Protocol-Version` on every request. */
  started(protocolVersion: string): void;
  /** The session is initialized: a session-era HTTP transport opens its standalone GET stream. */
  listen(): void;
  close(): Promise<void>;
}

/** Opens a transport; `connect` calls it once per attempt to agree on an era. */
export type TransportFactory<Part = unknown> = (events: TransportEvents) => ClientTransport<Part>;

/** The request's id when `message` is a request, so a transport knows which response a reply should carry. */
export function requestIdOf(message: object): string | number | undefined {
  const { method, id } = message as { readonly method?: unknown; readonly id?: unknown };
  return typeof method === "string" && (typeof id === "string" || typeof id === "number")
    ? id
    : undefined;
}

/** Whether `value` (a message or a batch) holds the response to request `id`. */
export function answers(value: unknown, id: string | number): boolean {
  if (Array.isArray(value)) return value.some((item) => answers(item, id));
  return isObject(value) && value["method"] === undefined && value["id"] === id;
}

/** JSON text as an object or array (a message, or a batch); undefined for anything else, text that is no JSON included. */
export function jsonMessage(text: string): object | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The name of an error no other protocol version could avoid; `connect` fails with it rather than try one. */
export const CONNECTION_ERROR = "ConnectionError";
/** The name of the error of a request the server refused because it no longer knows the session (a 404). */
export const SESSION_EXPIRED = "SessionExpiredError";

/** An Error with `name`, so that callers (and `connect`) can tell it apart without a class to import. */
export function namedError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

/** The server cannot be reached, refuses the credentials or redirects elsewhere, or its command does not start. */
export function connectionError(message: string): Error {
  return namedError(CONNECTION_ERROR, message);
}
