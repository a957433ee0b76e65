import { header, VERSION_HEADER } from "./http-exchange.js";
import type { HeaderValues } from "./origin.js";
import { metadataUrl, protectedResourceMetadata } from "./protected-resource.js";
import type { ProtectedResourceMetadata } from "./protected-resource.js";
import type { Authorize, GateRefusal, GateRequest, Identity, Permit } from "./request-gate.js";

/**
 * The OAuth 2.1 resource server on the request gate (basic/authorization): `authorize` takes the
 * `Authorization: Bearer` token (never the query), has `verify` name its caller, and answers 401 with
 * `WWW-Authenticate` pointing at the protected resource metadata when it cannot; `permit` answers 403
 * `insufficient_scope`, naming every scope the method or tool needs, when the token lacks one. How a
 * challenge reads follows the rules of the request's release, which its `server.ts` exports
 * (`RESOURCE_SERVER_RULES`). The token itself goes to `verify` and nowhere else.
 */

/** What one release says about answering as a resource server: from its `server.ts`, never written by hand. */
export interface ResourceServerRules {
  /** The release, as `MCP-Protocol-Version` names it. */
  readonly version: string;
  /** A 401 names the protected resource metadata (`resource_metadata`). */
  readonly resourceMetadataInChallenge: boolean;
  /** A 401 carries the `scope` the request needs. */
  readonly scopeInChallenge: boolean;
  /** An `insufficient_scope` 403 names the scopes already granted beside the needed ones. */
  readonly grantedScopesInChallenge: boolean;
  /** Scopes never named in a challenge or in `scopes_supported` (`offline_access`). */
  readonly withheldScopes: readonly string[];
  /** The method whose `params.name` names a tool (the `tools` row of a `ScopeTable`). */
  readonly toolCallMethod: string;
}

/** Who a verified access token speaks for. Add it to `Identity` by declaration merging to see it typed in handlers. */
export interface BearerIdentity {
  /** The resource owner (`sub`), else the client acting for itself. */
  readonly subject: string;
  readonly clientId: string | undefined;
  readonly scopes: readonly string[];
  /** Seconds since the epoch (`exp`). */
  readonly expiresAt: number | undefined;
  /** The token's audiences: the canonical resource URI among them, or `verify` refused it. */
  readonly audience: readonly string[];
  /** Every claim of the token (or the introspection answer), as verified. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** Why `verify` named no one: a token that is not good (401), or a check that could not run (503). */
export interface VerifyFailure {
  readonly ok: false;
  readonly reason: "invalid" | "unavailable";
  /** Shown to the client as `error_description`: say what is wrong, never what the token holds. */
  readonly description?: string;
}

export type VerifyResult = { readonly ok: true; readonly identity: BearerIdentity } | VerifyFailure;

/** The verifier seam: the built-ins are runtime/jwt/ and runtime/introspection/ (extras). */
export type Verify = (token: string, request: GateRequest) => VerifyResult | Promise<VerifyResult>;

/**
 * Scopes by release method and by tool: a request needs every scope of `all`, of its method's row, and,
 * for a tool call, of its tool's row. Type it with a release's `ScopeTable<ToolName>` (its `server.ts`,
 * and a `servers/<name>.ts` for the tool names) so that a misspelt method or tool does not compile.
 */
export interface ScopeTable<Method extends string = string, Tool extends string = string> {
  readonly all?: readonly string[];
  readonly methods?: { readonly [M in Method]?: readonly string[] };
  /** Without tool names (`Tool` never), no tool row can be named. */
  readonly tools?: [Tool] extends [never] ? never : { readonly [T in Tool]?: readonly string[] };
}

export interface BearerGateOptions {
  /** The canonical URI of the MCP endpoint (`https://mcp.example.com/mcp`): every token's audience must name it. */
  readonly resource: string;
  /** The issuers whose tokens `verify` takes (at least one). */
  readonly authorizationServers: readonly string[];
  readonly verify: Verify;
  /** `RESOURCE_SERVER_RULES` of each release the endpoint serves; a request naming none gets the oldest's. */
  readonly rules: readonly ResourceServerRules[];
  readonly scopes?: ScopeTable;
  /** `scopes_supported` of the metadata. Default: every scope of `scopes`. */
  readonly scopesSupported?: readonly string[];
  /** `resource_name` of the metadata. */
  readonly resourceName?: string;
  /** Seconds a client should wait after a 503 (the verifier could not reach its server). Default 5. */
  readonly retryAfter?: number;
}

export interface BearerGate {
  /** For `createHttpHandler({ authorize })`. */
  readonly authorize: Authorize<BearerIdentity>;
  /** For `createHttpHandler({ permit })`: the per-method and per-tool scopes. */
  readonly permit: Permit;
  /** The protected resource metadata (RFC 9728), as `serveResourceMetadata` serves it. */
  readonly metadata: ProtectedResourceMetadata;
  /** Where the metadata is served: the path-aware well-known URL. */
  readonly metadataUrl: string;
}

/** Longer than any access token a real server issues; a longer one is refused before `verify` sees it. */
const MAX_TOKEN_LENGTH = 16_384;
/** RFC 6750 section 2.1: `b64token`. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const NONE: readonly string[] = [];

type Challenge = {
  readonly error?: "invalid_request" | "invalid_token" | "insufficient_scope";
  readonly description?: string;
  readonly scopes: readonly string[];
};

export function createBearerGate(options: BearerGateOptions): BearerGate {
  if (options.rules.length === 0) throw new TypeError("createBearerGate needs a release's rules");
  if (options.authorizationServers.length === 0)
    throw new TypeError("createBearerGate needs at least one authorization server");
  const byVersion = new Map(options.rules.map((rules) => [rules.version, rules]));
  const oldest = [...options.rules].sort((a, b) => (a.version < b.version ? -1 : 1))[0]!;
  const table = options.scopes ?? {};
  const all = table.all ?? NONE;
  const withheld = new Set(options.rules.flatMap((rules) => rules.withheldScopes));
  const url = metadataUrl(options.resource);
  const metadata = protectedResourceMetadata({
    resource: options.resource,
    authorizationServers: options.authorizationServers,
    scopesSupported: (options.scopesSupported ?? tableScopes(table)).filter(
      (s) => !withheld.has(s),
    ),
    ...(options.resourceName === undefined ? {} : { resourceName: options.resourceName }),
  });
  const retryAfter = String(options.retryAfter ?? 5);

  const rulesOf = (headers: HeaderValues): ResourceServerRules =>
    byVersion.get(header(headers, VERSION_HEADER) ?? "") ?? oldest;

  const challenge = (rules: ResourceServerRules, status: number, said: Challenge): GateRefusal => {
    const params: string[] = [];
    if (said.error !== undefined) params.push(`error="${said.error}"`);
    if (said.description !== undefined)
      params.push(`error_description="${quoted(said.description)}"`);
    const scopes = said.scopes.filter((scope) => !rules.withheldScopes.includes(scope));
    if (scopes.length > 0 && (status === 403 || rules.scopeInChallenge))
      params.push(`scope="${quoted(scopes.join(" "))}"`);
    if (rules.resourceMetadataInChallenge) params.push(`resource_metadata="${quoted(url)}"`);
    const headers: Record<string, string> = {
      "www-authenticate": params.length === 0 ? "Bearer" : `Bearer ${params.join(", ")}`,
    };
    return refusal(status, headers);
  };

  const authorize: Authorize<BearerIdentity> = async (request) => {
    const rules = rulesOf(request.headers);
    const found = bearerToken(request.headers["authorization"]);
    if (found === undefined) return challenge(rules, 401, { scopes: all });
    if (found === false)
      return challenge(rules, 400, {
        error: "invalid_request",
        description: "Malformed Authorization header: one Bearer token expected",
        scopes: NONE,
      });
    const verdict = await options.verify(found, request);
    if (!verdict.ok) {
      if (verdict.reason === "unavailable")
        return refusal(503, { "retry-after": retryAfter }, "The token could not be checked");
      return challenge(rules, 401, {
        error: "invalid_token",
        description: verdict.description ?? "The access token is not valid here",
        scopes: all,
      });
    }
    const missing = all.filter((scope) => !verdict.identity.scopes.includes(scope));
    if (missing.length > 0) return insufficient(rules, all, verdict.identity.scopes);
    return verdict.identity;
  };

  const insufficient = (
    rules: ResourceServerRules,
    needed: readonly string[],
    granted: readonly string[],
  ): GateRefusal =>
    challenge(rules, 403, {
      error: "insufficient_scope",
      description: "The access token lacks a scope this request needs",
      scopes: rules.grantedScopesInChallenge ? union(granted, needed) : needed,
    });

  const permit: Permit = (identity, call, request) => {
    const rules = rulesOf(request.headers);
    const granted = scopesOf(identity);
    if (granted === undefined) return challenge(rules, 401, { scopes: all });
    const tool =
      call.method === rules.toolCallMethod && typeof call.params?.["name"] === "string"
        ? rowOf(table.tools, call.params["name"])
        : NONE;
    const needed = union(union(all, rowOf(table.methods, call.method)), tool);
    if (needed.every((scope) => granted.includes(scope))) return undefined;
    return insufficient(rules, needed, granted);
  };

  return { authorize, permit, metadata, metadataUrl: url };
}

/**
 * The token of an `Authorization` header: undefined when there is no Bearer credential (no header,
 * another scheme), false when the header is malformed (two tokens, two headers, not a `b64token`).
 * The scheme is case-insensitive (RFC 9110 section 11.1).
 */
export function bearerToken(
  value: string | readonly string[] | undefined,
): string | undefined | false {
  if (value === undefined) return undefined;
  if (typeof value !== "string") return false;
  const space = value.indexOf(" ");
  const scheme = space < 0 ? value : value.slice(0, space);
  if (scheme.toLowerCase() !== "bearer") return scheme === "" ? false : undefined;
  if (space < 0) return false;
  const token = value.slice(space + 1).trim();
  if (token === "" || token.length > MAX_TOKEN_LENGTH || !B64TOKEN.test(token)) return false;
  return token;
}

function scopesOf(identity: Identity | undefined): readonly string[] | undefined {
  const scopes = (identity as { scopes?: unknown } | undefined)?.scopes;
  return Array.isArray(scopes) && scopes.every((s) => typeof s === "string") ? scopes : undefined;
}

function rowOf(
  rows: { readonly [key: string]: readonly string[] | undefined } | undefined,
  key: string,
): readonly string[] {
  return (rows !== undefined && Object.hasOwn(rows, key) ? rows[key] : undefined) ?? NONE;
}

function tableScopes(table: ScopeTable): string[] {
  const rows = [
    table.all,
    ...Object.values(table.methods ?? {}),
    ...Object.values(table.tools ?? {}),
  ];
  return union(
    NONE,
    rows.flatMap((row) => row ?? NONE),
  );
}

function union(a: readonly string[], b: readonly string[]): string[] {
  const out = [...a];
  for (const scope of b) if (!out.includes(scope)) out.push(scope);
  return out;
}

/** A quoted-string's content (RFC 9110 section 5.6.4). */
function quoted(text: string): string {
  return text.replace(/[\\"]/g, "\\$&").replace(/[^\x20-\x7e]/g, "?");
}

function refusal(status: number, headers: Record<string, string>, body?: string): GateRefusal {
  const all: Record<string, string> =
    body === undefined ? headers : { ...headers, "content-type": "text/plain; charset=utf-8" };
  return {
    status,
    headers: { forEach: (callback) => Object.entries(all).forEach(([n, v]) => callback(v, n)) },
    text: () => Promise.resolve(body ?? ""),
  };
}

/**
 * The identity a verified token's claims (a JWT's payload, an introspection answer) name, for the
 * verifiers: `scope` (RFC 9068, RFC 7662) or `scp`, `client_id` or `azp`, `sub` else the client.
 * Undefined when they name no one.
 */
export function identityOfClaims(
  claims: Readonly<Record<string, unknown>>,
): BearerIdentity | undefined {
  const clientId = stringOr(claims["client_id"]) ?? stringOr(claims["azp"]);
  const subject = stringOr(claims["sub"]) ?? clientId;
  if (subject === undefined) return undefined;
  const scope = claims["scope"] ?? claims["scp"];
  const scopes =
    typeof scope === "string"
      ? scope.split(" ").filter((s) => s !== "")
      : Array.isArray(scope)
        ? scope.filter((s): s is string => typeof s === "string")
        : [];
  const aud = claims["aud"];
  const audience =
    typeof aud === "string"
      ? [aud]
      : Array.isArray(aud)
        ? aud.filter((a): a is string => typeof a === "string")
        : [];
  const exp = claims["exp"];
  return {
    subject,
    clientId,
    scopes,
    expiresAt: typeof exp === "number" ? exp : undefined,
    audience,
    claims,
  };
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
