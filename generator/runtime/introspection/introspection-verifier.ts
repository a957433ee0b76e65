import * as oauth from "oauth4webapi";
import { identityOfClaims, type Verify, type VerifyResult } from "../server/bearer-gate.js";
import { verifiedTokens } from "../server/verified-tokens.js";

/**
 * The verifier by token introspection (RFC 7662) for `createBearerGate`, for authorization servers
 * that issue opaque tokens: the issuer's metadata names its introspection endpoint, which this
 * server calls as a client. An active token passes when its `aud` names `audience` (the canonical
 * resource URI, always checked); the answer is kept until the token expires, so a busy client costs
 * the server one call per token. An authorization server that cannot be reached gives `unavailable`
 * (a 503), never a pass.
 */

export interface IntrospectionVerifierOptions {
  /** The authorization server's issuer identifier. */
  readonly issuer: string;
  /** The canonical URI of this MCP server: a token whose `aud` does not name it is refused. */
  readonly audience: string;
  /** This server's client registration at the authorization server (for `client_secret_basic`). */
  readonly clientId: string;
  readonly clientSecret: string;
  /** Introspection answers kept at most, the oldest dropped first. Default 10,000. */
  readonly cacheSize?: number;
  /** Most seconds an answer is kept, whatever the token's `exp`. Default 300. */
  readonly maxCacheSeconds?: number;
  /** How long a call to the authorization server may take before it counts as unreachable, in ms. Default 5 s. */
  readonly timeoutMs?: number;
  /** Allow `http:` URLs for the authorization server (tests, a loopback AS). Default false. */
  readonly allowHttp?: boolean;
  /** The clock, in ms (tests set it). */
  readonly now?: () => number;
}

export function createIntrospectionVerifier(options: IntrospectionVerifierOptions): Verify {
  const now = options.now ?? Date.now;
  const cache = verifiedTokens({
    size: options.cacheSize ?? 10_000,
    maxMs: (options.maxCacheSeconds ?? 300) * 1000,
    now,
  });
  const client: oauth.Client = { client_id: options.clientId };
  const auth = oauth.ClientSecretBasic(options.clientSecret);
  const timeoutMs = options.timeoutMs ?? 5000;
  // A server that hangs must not hold requests: each call gets its own deadline.
  const http = {
    signal: () => AbortSignal.timeout(timeoutMs),
    ...(options.allowHttp === true ? { [oauth.allowInsecureRequests]: true } : {}),
  };
  let server: Promise<oauth.AuthorizationServer> | undefined;

  const metadata = (): Promise<oauth.AuthorizationServer> => {
    server ??= (async () => {
      const issuer = new URL(options.issuer);
      // RFC 8414's well-known URI first, then OpenID Connect's.
      try {
        const response = await oauth.discoveryRequest(issuer, { ...http, algorithm: "oauth2" });
        return await oauth.processDiscoveryResponse(issuer, response);
      } catch {
        const response = await oauth.discoveryRequest(issuer, { ...http, algorithm: "oidc" });
        return await oauth.processDiscoveryResponse(issuer, response);
      }
    })().catch((error: unknown) => {
      // A failed lookup is tried again by the next request, never remembered.
      server = undefined;
      throw error;
    });
    return server;
  };

  return async (token): Promise<VerifyResult> => {
    const cached = cache.get(token);
    if (cached !== undefined) return { ok: true, identity: cached };
    let answer: oauth.IntrospectionResponse;
    try {
      const as = await metadata();
      const response = await oauth.introspectionRequest(as, client, auth, token, http);
      answer = await oauth.processIntrospectionResponse(as, client, response);
    } catch {
      return {
        ok: false,
        reason: "unavailable",
        description: "The authorization server is unreachable",
      };
    }
    if (!answer.active)
      return { ok: false, reason: "invalid", description: "The token is not active" };
    const audience = typeof answer.aud === "string" ? [answer.aud] : (answer.aud ?? []);
    if (!audience.includes(options.audience))
      return {
        ok: false,
        reason: "invalid",
        description: "The access token is for another resource",
      };
    if (answer.exp !== undefined && answer.exp * 1000 <= now())
      return { ok: false, reason: "invalid", description: "The access token has expired" };
    const identity = identityOfClaims(answer);
    if (identity === undefined)
      return { ok: false, reason: "invalid", description: "The token names no subject" };
    cache.remember(token, identity);
    return { ok: true, identity };
  };
}
