import { createRemoteJWKSet, errors, jwtVerify } from "jose";
import { identityOfClaims, type Verify, type VerifyResult } from "../server/bearer-gate.js";
import { verifiedTokens } from "../server/verified-tokens.js";

/**
 * The verifier of JWT access tokens (RFC 9068) for `createBearerGate`: the issuer's metadata names
 * its JWKS, which jose fetches, caches and fetches again when a token names a key it does not hold
 * (a rotation). A token passes only when signed by that key set with an allowed asymmetric algorithm,
 * issued by `issuer`, within `exp`/`nbf` give or take the clock tolerance, and for `audience`: the
 * canonical resource URI, always checked. An accepted token is remembered until it expires (at most
 * `maxCacheSeconds`), so a busy client costs one signature check per token, not one per request.
 */

export interface JwtVerifierOptions {
  /** The authorization server's issuer identifier, exactly as its metadata and tokens state it. */
  readonly issuer: string;
  /** The canonical URI of this MCP server: a token whose `aud` does not name it is refused. */
  readonly audience: string;
  /** The JWKS URL, when it is not to be found through the issuer's metadata. */
  readonly jwksUri?: string;
  /** Allowed signature algorithms, asymmetric only (`none` and HMAC are never taken). Default: RS, PS, ES and EdDSA. */
  readonly algorithms?: readonly string[];
  /** Seconds of clock skew allowed on `exp`, `nbf` and `iat`. Default 30. */
  readonly clockToleranceSeconds?: number;
  /** A token type the header must state (RFC 9068 `at+jwt`). Default: any. */
  readonly type?: string;
  /** How long a fetch of the metadata or the JWKS may take before it counts as unreachable, in ms. Default 5 s. */
  readonly timeoutMs?: number;
  /** Least time between two JWKS fetches for an unknown key, in ms. Default 30 s (jose's). */
  readonly jwksCooldownMs?: number;
  /** Fetches the issuer's metadata. Default: the platform's `fetch`. */
  readonly fetch?: MetadataFetch;
  /** Accepted tokens remembered at most, the oldest dropped first. Default 10,000. */
  readonly cacheSize?: number;
  /**
   * Most seconds an accepted token is remembered before its signature is checked again, whatever its
   * `exp`; 0 checks every request. Default 60 (a key the issuer withdraws stops counting within it).
   */
  readonly maxCacheSeconds?: number;
  /** The clock, in ms since the epoch (tests set it). */
  readonly now?: () => number;
}

/** The part of `fetch` the metadata lookup uses. */
export type MetadataFetch = (
  url: string,
  init: { headers: Record<string, string>; redirect: "error"; signal: AbortSignal },
) => Promise<{ readonly ok: boolean; json(): Promise<unknown> }>;

const ASYMMETRIC = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];

/** Failures of the key set's fetch: the issuer is unreachable or answered nonsense, not the token. */
const UNAVAILABLE = new Set(["ERR_JWKS_TIMEOUT", "ERR_JWKS_INVALID", "ERR_JOSE_GENERIC"]);

export function createJwtVerifier(options: JwtVerifierOptions): Verify {
  const algorithms = (options.algorithms ?? ASYMMETRIC).filter((alg) => ASYMMETRIC.includes(alg));
  if (algorithms.length === 0)
    throw new TypeError("createJwtVerifier: no asymmetric algorithm allowed");
  const timeoutMs = options.timeoutMs ?? 5000;
  const fetchMetadata = options.fetch ?? (globalThis as unknown as { fetch: MetadataFetch }).fetch;
  const now = options.now ?? Date.now;
  const cache = verifiedTokens({
    size: options.cacheSize ?? 10_000,
    maxMs: (options.maxCacheSeconds ?? 60) * 1000,
    now,
  });
  let keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  let finding: Promise<ReturnType<typeof createRemoteJWKSet> | undefined> | undefined;

  const keySet = (): Promise<ReturnType<typeof createRemoteJWKSet> | undefined> => {
    if (keys !== undefined) return Promise.resolve(keys);
    finding ??= (async () => {
      const uri = options.jwksUri ?? (await jwksUriOf(options.issuer, fetchMetadata, timeoutMs));
      // A failed lookup is tried again by the next request, never remembered.
      finding = undefined;
      if (uri === undefined) return undefined;
      keys = createRemoteJWKSet(new URL(uri), {
        timeoutDuration: timeoutMs,
        ...(options.jwksCooldownMs === undefined
          ? {}
          : { cooldownDuration: options.jwksCooldownMs }),
      });
      return keys;
    })();
    return finding;
  };

  return async (token): Promise<VerifyResult> => {
    const cached = cache.get(token);
    if (cached !== undefined) return { ok: true, identity: cached };
    const set = await keySet();
    if (set === undefined)
      return { ok: false, reason: "unavailable", description: "The issuer's keys are unreachable" };
    try {
      const { payload } = await jwtVerify(token, set, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms,
        clockTolerance: options.clockToleranceSeconds ?? 30,
        requiredClaims: ["exp"],
        currentDate: new Date(now()),
        ...(options.type === undefined ? {} : { typ: options.type }),
      });
      const identity = identityOfClaims(payload);
      if (identity === undefined)
        return { ok: false, reason: "invalid", description: "The token names no subject" };
      cache.remember(token, identity);
      return { ok: true, identity };
    } catch (error) {
      if (!(error instanceof errors.JOSEError) || UNAVAILABLE.has(error.code))
        return {
          ok: false,
          reason: "unavailable",
          description: "The issuer's keys are unreachable",
        };
      return { ok: false, reason: "invalid", description: describe(error) };
    }
  };
}

/** What the client is told: the kind of failure, never the token's content. */
function describe(error: InstanceType<typeof errors.JOSEError>): string {
  if (error instanceof errors.JWTExpired) return "The access token has expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return "The access token is for another resource";
    if (error.claim === "nbf") return "The access token is not valid yet";
    return "The access token's claims are not valid here";
  }
  return "The access token is not valid here";
}

/**
 * The `jwks_uri` of the issuer's metadata: RFC 8414's well-known URI (inserted before the issuer's
 * path), then OpenID Connect's (inserted, then appended). The metadata's `issuer` must be the one asked
 * for (RFC 8414 section 3.3). Undefined when none answers.
 */
async function jwksUriOf(
  issuer: string,
  fetch: MetadataFetch,
  timeoutMs: number,
): Promise<string | undefined> {
  const schemeEnd = issuer.indexOf("//");
  const pathStart = issuer.indexOf("/", schemeEnd < 0 ? 0 : schemeEnd + 2);
  const origin = pathStart < 0 ? issuer : issuer.slice(0, pathStart);
  const path = pathStart < 0 ? "" : issuer.slice(pathStart).replace(/\/$/, "");
  const candidates = [
    `${origin}/.well-known/oauth-authorization-server${path}`,
    `${origin}/.well-known/openid-configuration${path}`,
    `${origin}${path}/.well-known/openid-configuration`,
  ];
  for (const url of [...new Set(candidates)]) {
    try {
      const response = await fetch(url, {
        headers: { accept: "application/json" },
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) continue;
      const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
      if (metadata.issuer !== issuer || typeof metadata.jwks_uri !== "string") continue;
      return metadata.jwks_uri;
    } catch {
      continue;
    }
  }
  return undefined;
}
