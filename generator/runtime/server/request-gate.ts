import { failReply, BASE_CODES, type HttpExchange, type HttpReply } from "./http-exchange.js";
import type { HeaderValues } from "./origin.js";

/**
 * The request gate: `authorize` runs on every HTTP request before it is routed or its body read,
 * and either names the caller or answers in its place (a 401 with `WWW-Authenticate`, a 403). The
 * identity it returns goes to every handler as `ctx.context.identity`, binds the sessions it opens,
 * and scopes its cancellations.
 */

/**
 * Who sent a request, as `authorize` found it. `subject` is what the transport compares: a session
 * belongs to the subject that opened it, and a cancellation reaches only that subject's requests.
 * Add your own members (scopes, a tenant) by declaration merging (`declare module
 * "<output>/runtime/server/request-gate.js" { interface Identity { … } }`): `authorize` must then return them
 * and handlers see them typed. A session records only the subject, so an identity may hold live objects.
 */
export interface Identity {
  readonly subject: string;
}

/** What `authorize` is shown of the request: its method, path (with any query) and headers. */
export interface GateRequest {
  readonly method: string;
  readonly path: string;
  /** Header values by lower-cased name. */
  readonly headers: HeaderValues;
}

/** The reply that `authorize` sends in place of an answer: a fetch `Response` is one. */
export interface GateRefusal {
  readonly status: number;
  readonly headers: { forEach(callback: (value: string, name: string) => void): void };
  text(): Promise<string>;
}

export type Authorize<I extends Identity = Identity> = (
  request: GateRequest,
) => I | GateRefusal | Promise<I | GateRefusal>;

/** One request of a POST body, as `permit` is shown it once the body is parsed. */
export interface GateCall {
  readonly method: string;
  /** The request's `params`, unchecked: a tool's name, a prompt's. */
  readonly params: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The gate's second look, once a POST's body is parsed: for each request in it, with the identity
 * `authorize` returned, a reply to send in place of the answer (a 403 naming the scopes the method or
 * tool needs), or undefined to let it through.
 */
export type Permit = (
  identity: Identity | undefined,
  call: GateCall,
  request: GateRequest,
) => GateRefusal | undefined | Promise<GateRefusal | undefined>;

/** The gate's verdict: the caller (undefined without a gate), or the reply to send instead. */
export type GateResult =
  | { readonly ok: true; readonly identity: Identity | undefined }
  | { readonly ok: false; readonly reply: HttpReply };

const OPEN: GateResult = { ok: true, identity: undefined };

function isRefusal(value: Identity | GateRefusal): value is GateRefusal {
  return typeof (value as { text?: unknown }).text === "function";
}

/**
 * Runs `authorize` on `exchange`. A hook that throws or returns neither an identity nor a reply
 * refuses the request with a bare 500 and tells `report`: a broken gate never lets a request by.
 */
export async function passGate(
  authorize: Authorize | undefined,
  exchange: HttpExchange,
  report: (error: unknown) => void,
): Promise<GateResult> {
  if (authorize === undefined) return OPEN;
  try {
    const verdict = await authorize({
      method: exchange.method,
      path: exchange.path,
      headers: exchange.headers,
    });
    if (typeof verdict !== "object" || verdict === null)
      throw new TypeError("authorize returned neither an identity nor a reply");
    if (isRefusal(verdict)) return { ok: false, reply: await refusalReply(verdict) };
    if (typeof verdict.subject !== "string")
      throw new TypeError("authorize returned an identity without a string subject");
    return { ok: true, identity: verdict };
  } catch (error) {
    report(error);
    return { ok: false, reply: failReply(500, BASE_CODES.internalError, "Internal error") };
  }
}

async function refusalReply(refusal: GateRefusal): Promise<HttpReply> {
  const headers: Record<string, string> = {};
  refusal.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
  const body = await refusal.text();
  return { status: refusal.status, headers, body: body === "" ? undefined : body };
}

/**
 * Runs `permit` on each request of a parsed body: the first refusal is the reply for the whole body.
 * A hook that throws refuses with a bare 500, as `passGate` does.
 */
export async function passPermit(
  permit: Permit,
  identity: Identity | undefined,
  calls: readonly GateCall[],
  exchange: HttpExchange,
  report: (error: unknown) => void,
): Promise<HttpReply | undefined> {
  const request: GateRequest = {
    method: exchange.method,
    path: exchange.path,
    headers: exchange.headers,
  };
  try {
    for (const call of calls) {
      const refusal = await permit(identity, call, request);
      if (refusal !== undefined) return await refusalReply(refusal);
    }
    return undefined;
  } catch (error) {
    report(error);
    return failReply(500, BASE_CODES.internalError, "Internal error");
  }
}
