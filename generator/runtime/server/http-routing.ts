import {
  acceptance,
  failReply,
  header,
  SESSION_HEADER,
  VERSION_HEADER,
  type HttpExchange,
  type HttpReply,
  type ReplyPlan,
} from "./http-exchange.js";
import { preflight, type CorsFacts } from "./cors.js";
import { checkOrigin, type HeaderValues, type OriginPolicy } from "./origin.js";
import type { EraCodes } from "./server-eras.js";

/**
 * Era routing for Streamable HTTP with both eras on one endpoint, and the checks every request
 * passes before its body is read. A request with an `Mcp-Session-Id`, with an
 * `MCP-Protocol-Version` the session era serves, or an `initialize` without that header belongs to
 * the session era; every other request to the stateless era.
 */

export interface RouteFacts {
  /** The endpoint's path; other paths get 404. Undefined: every path. */
  readonly path: string | undefined;
  /** Check `Host` and `Origin` (DNS rebinding). */
  readonly checkOrigin: boolean;
  readonly policy: OriginPolicy;
  /** Whether a session era is served: GET and DELETE exist only then. */
  readonly sessions: boolean;
  readonly codes: EraCodes;
  /** What a browser's preflight (`OPTIONS`) is answered with. */
  readonly cors: CorsFacts;
}

export type Verb = "GET" | "POST" | "DELETE";

/**
 * The request's verb once its origin, path and method are acceptable, or the reply refusing it; an
 * `OPTIONS` (a browser's CORS preflight) is answered here, before any gate, as it carries no credentials.
 */
export function routeOf(exchange: HttpExchange, facts: RouteFacts): Verb | HttpReply {
  const codes = facts.codes;
  if (facts.checkOrigin) {
    const origin = checkOrigin(exchange.headers, facts.policy);
    if (!origin.ok) return failReply(origin.status, codes.invalidRequest, origin.message);
  }
  if (facts.path !== undefined) {
    const query = exchange.path.indexOf("?");
    const path = query < 0 ? exchange.path : exchange.path.slice(0, query);
    if (path !== facts.path) return failReply(404, codes.invalidRequest, "Not found");
  }
  const method = exchange.method;
  if (method === "GET" || method === "DELETE" || method === "POST") return method;
  if (method === "OPTIONS") return preflight(exchange.headers, facts.cors, codes.invalidRequest);
  return failReply(405, codes.invalidRequest, "Method not allowed", {
    allow: servedMethods(facts.sessions),
  });
}

/** The verbs an endpoint serves, as `Allow` lists them: GET and DELETE only with a session era. */
export function servedMethods(sessions: boolean): string {
  return sessions ? "GET, POST, DELETE" : "POST";
}

/** How a POST's reply may go (what it accepts), once its content type is JSON; else the refusal. */
export function postPlan(headers: HeaderValues, codes: EraCodes): ReplyPlan | HttpReply {
  const contentType = header(headers, "content-type")?.toLowerCase() ?? "";
  if (!/^application\/json\s*(;|$)/.test(contentType))
    return failReply(415, codes.invalidRequest, "Unsupported media type: send application/json");
  const plan = acceptance(headers);
  if (!plan.json && !plan.sse)
    return failReply(
      406,
      codes.invalidRequest,
      "Not acceptable: accept application/json or text/event-stream",
    );
  return plan;
}

/**
 * Whether a POST goes to the session era: it names a session, or a version that era serves, or it
 * is an `initialize` without a version header (`initialize` is whether the body is one).
 */
export function toSessionEra(
  sessionVersions: readonly string[] | undefined,
  headers: HeaderValues,
  initialize: () => boolean,
): boolean {
  if (sessionVersions === undefined) return false;
  if (header(headers, SESSION_HEADER) !== undefined) return true;
  const version = header(headers, VERSION_HEADER);
  return version === undefined ? initialize() : sessionVersions.includes(version);
}
