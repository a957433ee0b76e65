import { failReply, header, type HttpReply } from "./http-exchange.js";
import { checkOrigin, type HeaderValues, type OriginPolicy } from "./origin.js";
import type { EraHeaders } from "./server-eras.js";

/**
 * CORS (the Fetch standard's protocol) for a page on another origin that calls the server: the
 * preflight answer, and what every actual reply adds. Only origins the Origin check accepts (the
 * server's own loopback port, `allowedOrigins`) get CORS headers, so a page is let in exactly where
 * the DNS-rebinding check would let it in, and nowhere by default. The origin is echoed, never `*`,
 * since a client may send `Authorization`; cookies are not asked for, so no `Allow-Credentials`.
 */

export interface CorsFacts {
  readonly policy: OriginPolicy;
  /** The verbs the endpoint serves, as `Allow` lists them. */
  readonly methods: string;
  /** Request headers a page may send, spelled as the facts spell them. */
  readonly allowHeaders: readonly string[];
  /** Lower-cased prefixes of request headers a page may send under any name (`mcp-param-`). */
  readonly allowPrefixes: readonly string[];
  /** Reply headers a page's script may read. */
  readonly exposeHeaders: readonly string[];
}

/** Generic HTTP headers every MCP client sends or may send (RFC 9110, RFC 6750): no release's facts. */
const HTTP_REQUEST_HEADERS: readonly string[] = ["Content-Type", "Accept", "Authorization"];
/** The bearer gate's challenge (RFC 6750), which a browser client reads to find the authorization server. */
const HTTP_RESPONSE_HEADERS: readonly string[] = ["WWW-Authenticate"];

/** How long a browser may reuse a preflight's answer, in seconds: Chromium's upper bound. */
export const PREFLIGHT_MAX_AGE: number = 7200;

/** More requested header names than this and the rest are not looked at. */
const MAX_REQUESTED_HEADERS = 64;

/** An RFC 9110 token: what a header name is. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** The facts for an endpoint serving `eras` (their header names), under `policy`. */
export function corsFacts(
  policy: OriginPolicy,
  methods: string,
  eras: readonly (EraHeaders | undefined)[],
): CorsFacts {
  const served = eras.filter((era): era is EraHeaders => era !== undefined);
  const prefixes = served.flatMap((era) =>
    era.requestPrefix === undefined ? [] : [era.requestPrefix.toLowerCase()],
  );
  return {
    policy,
    methods,
    allowHeaders: unique([...HTTP_REQUEST_HEADERS, ...served.flatMap((era) => era.request)]),
    allowPrefixes: unique(prefixes),
    exposeHeaders: unique([...served.flatMap((era) => era.response), ...HTTP_RESPONSE_HEADERS]),
  };
}

/** The request's `Origin` when the Origin check accepts it (whether or not the server enforces that check). */
export function corsOrigin(headers: HeaderValues, policy: OriginPolicy): string | undefined {
  const origin = header(headers, "origin")?.trim();
  if (origin === undefined || origin === "") return undefined;
  return checkOrigin(headers, policy).ok ? origin : undefined;
}

/**
 * The answer to `OPTIONS`: for an accepted origin, 204 naming the verbs, the headers and how long
 * to keep that; a requested header is allowed when it is one of the MCP headers or carries an
 * allowed prefix (a tool's `Mcp-Param-*` names, which only the tool knows). Another origin gets 403
 * and no CORS headers; an `OPTIONS` without `Origin` is no preflight and gets 204 with `Allow`.
 */
export function preflight(headers: HeaderValues, facts: CorsFacts, code: number): HttpReply {
  const origin = corsOrigin(headers, facts.policy);
  if (origin === undefined)
    return header(headers, "origin") === undefined
      ? { status: 204, headers: { allow: `OPTIONS, ${facts.methods}` }, body: undefined }
      : failReply(403, code, "Origin not allowed");
  const known = new Set(facts.allowHeaders.map((name) => name.toLowerCase()));
  const extra = requested(headers).filter(
    (name) => !known.has(name) && facts.allowPrefixes.some((prefix) => name.startsWith(prefix)),
  );
  return {
    status: 204,
    headers: {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": facts.methods,
      "access-control-allow-headers": [...facts.allowHeaders, ...extra].join(", "),
      "access-control-max-age": String(PREFLIGHT_MAX_AGE),
      vary: "Origin",
    },
    body: undefined,
  };
}

/**
 * `reply` with what an actual response carries for the page that asked: for an accepted origin the
 * origin itself and the headers its script may read; `Vary: Origin` whenever an `Origin` was sent,
 * since the answer depends on it.
 */
export function withCors(headers: HeaderValues, reply: HttpReply, facts: CorsFacts): HttpReply {
  if (header(headers, "origin") === undefined) return reply;
  const origin = corsOrigin(headers, facts.policy);
  const vary = reply.headers["vary"] ?? "";
  const added: Record<string, string> = {
    vary: vary === "" ? "Origin" : /\borigin\b/i.test(vary) ? vary : `${vary}, Origin`,
  };
  if (origin !== undefined) {
    added["access-control-allow-origin"] = origin;
    added["access-control-expose-headers"] = facts.exposeHeaders.join(", ");
  }
  return { ...reply, headers: { ...reply.headers, ...added } };
}

/** `Access-Control-Request-Headers`, lower-cased; names that are no token are left out. */
function requested(headers: HeaderValues): string[] {
  const list = header(headers, "access-control-request-headers");
  if (list === undefined) return [];
  return list
    .split(",", MAX_REQUESTED_HEADERS)
    .map((name) => name.trim().toLowerCase())
    .filter((name) => TOKEN.test(name));
}

/** The names once each, ignoring case; the first spelling stays. */
function unique(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.filter((name) => {
    const key = name.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
