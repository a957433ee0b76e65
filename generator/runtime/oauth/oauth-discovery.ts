/**
 * Discovery for the OAuth client (`oauth-client.ts`): the server's challenge, its protected resource
 * metadata (RFC 9728) and its authorization server's metadata (RFC 8414, OpenID Connect Discovery), found
 * where the release's authorization page says, in its order. oauth4webapi parses and checks every document
 * (the `resource` and `issuer` each must name what was asked for); this module only says where to look.
 * Every request is bounded in size and time: a hostile server's endless body ends as an error.
 */
import * as oauth from "oauth4webapi";
import type { ClientAuthFacts } from "../client/client-auth.js";

/** How the OAuth client reaches the network. */
export interface OAuthFetchOptions {
  /** Defaults to the platform's `fetch`. */
  readonly fetch?: typeof fetch;
  /** Lets the protocol steps use `http:` URLs (a loopback server in tests); `https:` only by default. */
  readonly allowHttp?: boolean;
  /** A response body larger than this is an error. Defaults to 1 MiB. */
  readonly maxBodyBytes?: number;
  /** A request that takes longer is aborted. Defaults to 30 s. */
  readonly timeoutMs?: number;
}

/** What a `WWW-Authenticate: Bearer …` challenge says. */
export interface BearerChallenge {
  readonly error?: string;
  readonly scope?: string;
  readonly resourceMetadata?: string;
}

/** What the client learned about the server: its resource identifier, its authorization server, its scopes. */
export interface Discovered {
  /** The `resource` of the protected resource metadata, verbatim: the `resource` parameter of every request. */
  readonly resource: string;
  readonly server: oauth.AuthorizationServer;
  /** The metadata's `scopes_supported`, if it lists any. */
  readonly scopesSupported?: readonly string[];
}

const DEFAULT_MAX_BODY_BYTES = 1_048_576;
const DEFAULT_TIMEOUT_MS = 30_000;
const NO_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** The options every oauth4webapi call takes: the bounded fetch, and `http:` where allowed. */
export function requestOptions(options: OAuthFetchOptions): {
  [oauth.customFetch]: typeof fetch;
  [oauth.allowInsecureRequests]: boolean;
} {
  return {
    [oauth.customFetch]: boundedFetch(options),
    [oauth.allowInsecureRequests]: options.allowHttp === true,
  };
}

/**
 * `fetch` whose response body is read whole, up to `maxBodyBytes`, within `timeoutMs`: oauth4webapi reads
 * bodies without a limit, and a hostile server could send one without end.
 */
export function boundedFetch(options: OAuthFetchOptions): typeof fetch {
  const max = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return async (input, init) => {
    const fetchFn = options.fetch ?? fetch;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const url = String(input instanceof Request ? input.url : input);
    try {
      const response = await fetchFn(input, { ...init, signal: controller.signal });
      const body = NO_BODY_STATUSES.has(response.status)
        ? null
        : await readBounded(response, max, url);
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      if (controller.signal.aborted)
        throw failure(`${new URL(url).origin} did not answer within ${timeoutMs} ms`);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
}

async function readBounded(response: Response, max: number, url: string): Promise<Uint8Array> {
  const reader: ReadableStreamDefaultReader<Uint8Array> | undefined = response.body?.getReader();
  if (reader === undefined) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || value === undefined) break;
      size += value.length;
      if (size > max) throw failure(`the reply from ${new URL(url).origin} exceeds ${max} bytes`);
      chunks.push(value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return body;
}

/** The Bearer challenge of a `WWW-Authenticate` header, parsed by oauth4webapi; undefined without one. */
export async function bearerChallenge(header: string | null): Promise<BearerChallenge | undefined> {
  if (header === null) return undefined;
  // oauth4webapi parses WWW-Authenticate only on a response it processes: it throws the challenges it found.
  const refused = new Response(null, { status: 401, headers: { "www-authenticate": header } });
  const challenges = await oauth.processRevocationResponse(refused).then(
    () => undefined,
    (error: unknown) =>
      error instanceof oauth.WWWAuthenticateChallengeError ? error.cause : undefined,
  );
  const bearer = challenges?.find((challenge) => challenge.scheme === "bearer");
  if (bearer === undefined) return undefined;
  const { error, scope, resource_metadata: resourceMetadata } = bearer.parameters;
  return {
    ...(error === undefined ? {} : { error }),
    ...(scope === undefined ? {} : { scope }),
    ...(resourceMetadata === undefined ? {} : { resourceMetadata }),
  };
}

/**
 * The server's protected resource metadata, from where `facts` say in their order, and its authorization
 * server's metadata. Throws a clear error when there is none, when the metadata names another resource,
 * or when the authorization server's metadata names another issuer.
 */
export async function discover(
  endpoint: string,
  challenge: BearerChallenge | undefined,
  facts: ClientAuthFacts,
  options: OAuthFetchOptions,
): Promise<Discovered> {
  const metadata = await resourceMetadata(endpoint, challenge, facts, options);
  const issuer = metadata.authorization_servers?.[0];
  if (issuer === undefined)
    throw failure(
      `the protected resource metadata of ${shown(endpoint)} names no authorization server`,
    );
  const server = await serverMetadata(issuer, facts, options);
  return {
    resource: metadata.resource,
    server,
    ...(metadata.scopes_supported === undefined
      ? {}
      : { scopesSupported: metadata.scopes_supported }),
  };
}

async function resourceMetadata(
  endpoint: string,
  challenge: BearerChallenge | undefined,
  facts: ClientAuthFacts,
  options: OAuthFetchOptions,
): Promise<oauth.ResourceServer> {
  const url = new URL(endpoint);
  url.hash = "";
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const fetchFn = boundedFetch(options);
  for (const where of facts.resourceMetadata) {
    // RFC 9728 §3.3: the resource must be the identifier the well-known URI was built from; the challenge's
    // URL came with a request to the endpoint itself.
    const [location, expected] =
      where === "challenge"
        ? [challenge?.resourceMetadata, url.href]
        : where === "path"
          ? [
              path === "" ? undefined : `${url.origin}/.well-known/oauth-protected-resource${path}`,
              url.href,
            ]
          : [`${url.origin}/.well-known/oauth-protected-resource`, url.origin];
    if (location === undefined) continue;
    const response = await fetchFn(location, { headers: { accept: "application/json" } });
    if (response.status !== 200) continue;
    try {
      return await oauth.processResourceDiscoveryResponse(new URL(expected), response);
    } catch (error) {
      throw failure(
        `the protected resource metadata at ${shown(location)} is refused: ${reason(error)} (it must name ${shown(expected)})`,
      );
    }
  }
  throw failure(
    `${shown(endpoint)} asks for authorization but publishes no protected resource metadata`,
  );
}

/** The authorization server's metadata, from the well-known URIs in the release's order. */
export async function serverMetadata(
  issuer: string,
  facts: ClientAuthFacts,
  options: OAuthFetchOptions,
): Promise<oauth.AuthorizationServer> {
  const expected = new URL(issuer);
  const path = expected.pathname === "/" ? "" : expected.pathname.replace(/\/$/, "");
  const origin = expected.origin;
  const locations = facts.serverMetadata.map((form) =>
    form === "oauth-insert"
      ? `${origin}/.well-known/oauth-authorization-server${path}`
      : form === "oidc-insert"
        ? `${origin}/.well-known/openid-configuration${path}`
        : `${origin}${path}/.well-known/openid-configuration`,
  );
  const fetchFn = boundedFetch(options);
  for (const location of new Set(locations)) {
    const response = await fetchFn(location, { headers: { accept: "application/json" } });
    if (response.status !== 200) continue;
    let server: oauth.AuthorizationServer;
    try {
      server = await oauth.processDiscoveryResponse(expected, response);
    } catch (error) {
      throw failure(
        `the authorization server metadata at ${shown(location)} is refused: ${reason(error)} (its issuer must be ${issuer})`,
      );
    }
    return server;
  }
  throw failure(
    `the authorization server ${issuer} publishes no metadata at ${[...new Set(locations)].map(shown).join(", ")}`,
  );
}

/** Why oauth4webapi refused something, in its own words (never a server's text, which may carry anything). */
export function reason(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError) return `the server answered ${error.error}`;
  if (error instanceof oauth.AuthorizationResponseError)
    return `the authorization server answered ${error.error}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The error of a refused step. It carries no `cause`: oauth4webapi's errors hold the server's response and
 * body, tokens included, and an error's cause reaches logs.
 */
export function failure(message: string): Error {
  return new Error(message);
}

/** A URL as errors name it: without query or fragment, where tokens and codes ride. */
export function shown(href: string): string {
  return href.replace(/[?#].*$/, "");
}
