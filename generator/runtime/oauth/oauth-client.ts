/**
 * OAuth 2.1 for the client, as each release's authorization page says (its rules arrive as `ClientAuthFacts`,
 * the release's `CLIENT_AUTH`): `oauthClient` is a `ClientAuthorizer` for `httpTransport`'s `auth` option. On a
 * 401 it discovers the server's authorization server (`oauth-discovery.ts`), registers (pre-registered, a client
 * ID metadata document, dynamic registration), sends the user through the authorization code flow with PKCE
 * S256, `state`, `resource` and the `iss` check, and keeps the tokens; on a 403 `insufficient_scope` it steps up.
 * A refresh token is used first, kept across rotation, with the original scope, retried on a transient failure.
 * Every protocol step is oauth4webapi's.
 */
import * as oauth from "oauth4webapi";
import {
  authorizeRequests,
  memoryTokenStore,
  type AuthorizationUrlHandler,
  type ClientAuthFacts,
  type ClientAuthorizer,
  type RequestAuthorizer,
  type StoredRecord,
  type TokenStore,
} from "../client/client-auth.js";
import type { Untimed } from "../core/requester.js";
import {
  bearerChallenge,
  discover,
  failure,
  reason,
  requestOptions,
  serverMetadata,
  type Discovered,
  type OAuthFetchOptions,
} from "./oauth-discovery.js";

/** Credentials registered beforehand with an authorization server. */
export interface PreregisteredClient {
  readonly clientId: string;
  /** Absent for a public client. */
  readonly clientSecret?: string;
  /** The authorization server's issuer they belong to; they are sent to no other. Any, when absent. */
  readonly issuer?: string;
}

/**
 * How the pre-registered `client` authenticates at the token endpoint when it holds a key rather than a secret:
 * `private_key_jwt` signs a short-lived assertion with `key` (a WebCrypto private key, imported with
 * `crypto.subtle.importKey`; its algorithm gives the JWS `alg`).
 */
export interface PrivateKeyJwtAuthentication {
  readonly method: "private_key_jwt";
  readonly key: oauth.CryptoKey | oauth.PrivateKey;
}

export interface OAuthClientOptions extends OAuthFetchOptions {
  /** The release's authorization rules: its `CLIENT_AUTH`. */
  readonly facts: ClientAuthFacts;
  /** Where the authorization server sends the user back (a loopback URL for a command-line tool). */
  readonly redirectUri: string;
  /** Sends the user to the authorization URL; `followRedirect()` for tests and headless use. */
  readonly openAuthorizationUrl: AuthorizationUrlHandler;
  /** Where tokens and registrations are kept. Defaults to memory. */
  readonly store?: TokenStore;
  readonly client?: PreregisteredClient;
  /** How the pre-registered `client` authenticates at the token endpoint, besides a secret. */
  readonly clientAuthentication?: PrivateKeyJwtAuthentication;
  /** The HTTPS URL of this client's metadata document, used as its client id where the server supports it. */
  readonly clientMetadataUrl?: string;
  /** The `client_name` of a dynamic registration. Defaults to "MCP client". */
  readonly clientName?: string;
  /** Ask for `offline_access` where the release allows it and the server lists it. Defaults to true. */
  readonly offlineAccess?: boolean;
  /** How many times a refresh that failed for the network or a 5xx is tried again. Defaults to 2. */
  readonly refreshRetries?: number;
  /**
   * "client_credentials" for a machine acting for itself (the `ext-auth` client credentials extension): the
   * pre-registered `client` gets tokens at the token endpoint, with no user and no redirect. Defaults to
   * "authorization_code".
   */
  readonly grant?: "authorization_code" | "client_credentials";
}

/** The tokens held for one resource, as the store keeps them. */
interface HeldTokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Milliseconds since the epoch. */
  readonly expiresAt?: number;
  /** The scope asked for, which a refresh asks for again and a step-up adds to. */
  readonly scope?: string;
  readonly issuer: string;
  readonly resource: string;
}

interface Registration {
  readonly clientId: string;
  readonly clientSecret?: string;
  readonly authMethod?: string;
  /** The `client` given, whose `clientAuthentication` applies (it is never kept in the store). */
  readonly preregistered?: boolean;
}

/** A token this close to its expiry is refreshed before it is sent. */
const EXPIRY_MARGIN_MS = 30_000;

/** An authorizer for `httpTransport(url, { auth })` that runs OAuth 2.1 as the release in `facts` says. */
export function oauthClient(options: OAuthClientOptions): ClientAuthorizer & RequestAuthorizer {
  const store = options.store ?? memoryTokenStore();
  const facts = options.facts;
  const http = requestOptions(options);
  const tokensKey = (endpoint: string): string => `tokens ${endpoint}`;
  const clientKey = (issuer: string): string => `client ${issuer}`;

  async function held(endpoint: string): Promise<HeldTokens | undefined> {
    const record = await store.get(tokensKey(endpoint));
    return record === undefined ? undefined : asTokens(record);
  }

  async function keep(endpoint: string, tokens: HeldTokens): Promise<void> {
    await store.set(tokensKey(endpoint), { ...tokens });
  }

  async function registration(server: oauth.AuthorizationServer): Promise<Registration> {
    const kept = await store.get(clientKey(server.issuer));
    if (kept !== undefined && typeof kept["clientId"] === "string") return asRegistration(kept);
    for (const way of facts.registration) {
      if (way === "preregistered" && options.client !== undefined) {
        const given = options.client;
        if (given.issuer === undefined || sameUrl(given.issuer, server.issuer))
          return {
            clientId: given.clientId,
            ...(given.clientSecret === undefined ? {} : { clientSecret: given.clientSecret }),
            preregistered: true,
          };
      }
      if (
        way === "metadata-document" &&
        options.clientMetadataUrl !== undefined &&
        server.client_id_metadata_document_supported === true
      )
        return { clientId: options.clientMetadataUrl };
      if (way === "dynamic" && server.registration_endpoint !== undefined) {
        const registered = await register(server);
        await store.set(clientKey(server.issuer), { ...registered });
        return registered;
      }
    }
    throw failure(
      `no client id for the authorization server ${server.issuer}: it takes no dynamic registration${facts.registration.includes("metadata-document") ? " and no client ID metadata document this client offers" : ""}; register a client there and give its id (and secret)`,
    );
  }

  async function register(server: oauth.AuthorizationServer): Promise<Registration> {
    const supported = server.token_endpoint_auth_methods_supported;
    const method =
      supported === undefined || supported.includes("none")
        ? "none"
        : supported.includes("client_secret_basic")
          ? "client_secret_basic"
          : "client_secret_post";
    const metadata = {
      client_name: options.clientName ?? "MCP client",
      redirect_uris: [options.redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: method,
      ...(facts.applicationType ? { application_type: applicationType(options.redirectUri) } : {}),
    };
    try {
      const response = await oauth.dynamicClientRegistrationRequest(server, metadata, {
        ...http,
        [oauth.customFetch]: secretExpiryDefaulted(http[oauth.customFetch]),
      });
      const client = await oauth.processDynamicClientRegistrationResponse(response);
      const secret = client["client_secret"];
      const auth = client.token_endpoint_auth_method;
      return {
        clientId: client.client_id,
        ...(typeof secret === "string" ? { clientSecret: secret } : {}),
        ...(typeof auth === "string" ? { authMethod: auth } : {}),
      };
    } catch (error) {
      throw failure(`dynamic registration at ${server.issuer} failed: ${reason(error)}`);
    }
  }

  function clientAuth(server: oauth.AuthorizationServer, client: Registration): oauth.ClientAuth {
    const keyed = options.clientAuthentication;
    if (client.preregistered === true && keyed !== undefined) return oauth.PrivateKeyJwt(keyed.key);
    if (client.clientSecret === undefined) return oauth.None();
    const supported = server.token_endpoint_auth_methods_supported;
    const method =
      client.authMethod ??
      (supported === undefined || supported.includes("client_secret_basic")
        ? "client_secret_basic"
        : supported.includes("client_secret_post")
          ? "client_secret_post"
          : "client_secret_basic");
    return method === "client_secret_post"
      ? oauth.ClientSecretPost(client.clientSecret)
      : secretBasic(client.clientId, client.clientSecret);
  }

  /**
   * The authorization code flow for `scope`; keeps the tokens for `endpoint`. The wait for the user goes
   * through `untimed`, so that the refused call's timeout does not count it.
   */
  async function authorize(
    endpoint: string,
    found: Discovered,
    scope: string | undefined,
    untimed: Untimed,
  ): Promise<void> {
    const server = found.server;
    if (server.authorization_endpoint === undefined || server.token_endpoint === undefined)
      throw failure(
        `the authorization server ${server.issuer} lists no authorization or token endpoint`,
      );
    if (facts.requireS256 && !(server.code_challenge_methods_supported ?? []).includes("S256"))
      throw failure(
        `the authorization server ${server.issuer} does not list PKCE S256 in code_challenge_methods_supported, so it is refused`,
      );
    const registered = await registration(server);
    const client: oauth.Client = { client_id: registered.clientId };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(server.authorization_endpoint);
    const query: Record<string, string> = {
      response_type: "code",
      client_id: registered.clientId,
      redirect_uri: options.redirectUri,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      resource: found.resource,
      ...(scope === undefined ? {} : { scope }),
    };
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const back = await untimed(options.openAuthorizationUrl(url.href, options.redirectUri));
    let params: URLSearchParams;
    try {
      // Checks `state`, and `iss` against the issuer the metadata was fetched for (RFC 9207).
      params = oauth.validateAuthResponse(server, client, new URL(back), state);
    } catch (error) {
      throw failure(`the authorization response is refused: ${reason(error)}`);
    }
    let result: oauth.TokenEndpointResponse;
    try {
      const response = await oauth.authorizationCodeGrantRequest(
        server,
        client,
        clientAuth(server, registered),
        params,
        options.redirectUri,
        verifier,
        { ...http, additionalParameters: { resource: found.resource } },
      );
      result = await oauth.processAuthorizationCodeResponse(server, client, response);
    } catch (error) {
      throw failure(`the token request to ${server.issuer} failed: ${reason(error)}`);
    }
    await keep(endpoint, tokensOf(result, undefined, scope, server.issuer, found.resource));
  }

  /** The client credentials grant for `scope`; keeps the tokens for `endpoint`. */
  async function clientCredentials(
    endpoint: string,
    found: Discovered,
    scope: string | undefined,
  ): Promise<void> {
    const server = found.server;
    const given = options.client;
    if (given === undefined || (given.clientSecret === undefined && !options.clientAuthentication))
      throw failure(
        "the client credentials grant needs a pre-registered client with its secret or its key (clientAuthentication)",
      );
    const registered = await registration(server);
    const client: oauth.Client = { client_id: registered.clientId };
    let result: oauth.TokenEndpointResponse;
    try {
      const parameters = { resource: found.resource, ...(scope === undefined ? {} : { scope }) };
      const response = await oauth.clientCredentialsGrantRequest(
        server,
        client,
        clientAuth(server, registered),
        parameters,
        http,
      );
      result = await oauth.processClientCredentialsResponse(server, client, response);
    } catch (error) {
      throw failure(`the token request to ${server.issuer} failed: ${reason(error)}`);
    }
    await keep(endpoint, tokensOf(result, undefined, scope, server.issuer, found.resource));
  }

  /**
   * Trades the refresh token for new tokens, keeping the refresh token when none comes back and the scope
   * first asked for. False when the server refuses it (the caller authorizes anew); a network error or a 5xx
   * is tried again first.
   */
  async function refresh(
    endpoint: string,
    tokens: HeldTokens,
    server: oauth.AuthorizationServer,
  ): Promise<boolean> {
    const refreshToken = tokens.refreshToken;
    if (refreshToken === undefined) return false;
    const kept = await store.get(clientKey(server.issuer));
    const registered =
      kept !== undefined && typeof kept["clientId"] === "string"
        ? asRegistration(kept)
        : await registration(server);
    const client: oauth.Client = { client_id: registered.clientId };
    const parameters = {
      resource: tokens.resource,
      ...(tokens.scope === undefined ? {} : { scope: tokens.scope }),
    };
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= (options.refreshRetries ?? 2);
      let response: Response;
      try {
        response = await oauth.refreshTokenGrantRequest(
          server,
          client,
          clientAuth(server, registered),
          refreshToken,
          {
            ...http,
            additionalParameters: parameters,
          },
        );
      } catch {
        if (last) return false;
        continue;
      }
      if (response.status >= 500 && !last) continue;
      try {
        const result = await oauth.processRefreshTokenResponse(server, client, response);
        await keep(
          endpoint,
          tokensOf(result, refreshToken, tokens.scope, server.issuer, tokens.resource),
        );
        return true;
      } catch {
        await store.delete(tokensKey(endpoint));
        return false;
      }
    }
  }

  return authorizeRequests({
    async authorization(endpoint) {
      let tokens = await held(endpoint);
      if (tokens === undefined) return undefined;
      if (tokens.expiresAt !== undefined && tokens.expiresAt - EXPIRY_MARGIN_MS <= Date.now()) {
        const server = await serverMetadata(tokens.issuer, facts, options).catch(() => undefined);
        if (server !== undefined && (await refresh(endpoint, tokens, server)))
          tokens = await held(endpoint);
      }
      return tokens === undefined ? undefined : `Bearer ${tokens.accessToken}`;
    },

    async refused(endpoint, status, header, untimed = (waiting) => waiting) {
      const challenge = await bearerChallenge(header);
      if (status === 403 && challenge?.error !== "insufficient_scope") return false;
      const found = await discover(endpoint, challenge, facts, options);
      const tokens = await held(endpoint);
      // Tokens of another authorization server (the server moved) are never sent to this one.
      const ours = tokens?.issuer === found.server.issuer ? tokens : undefined;
      if (status === 401 && ours !== undefined && (await refresh(endpoint, ours, found.server)))
        return true;
      const wanted =
        status === 403
          ? facts.stepUpUnion
            ? union(ours?.scope, challenge?.scope)
            : challenge?.scope
          : (challenge?.scope ?? found.scopesSupported?.join(" "));
      if (options.grant === "client_credentials") await clientCredentials(endpoint, found, wanted);
      else await authorize(endpoint, found, withOfflineAccess(wanted, found.server), untimed);
      return true;
    },
  });

  function withOfflineAccess(
    scope: string | undefined,
    server: oauth.AuthorizationServer,
  ): string | undefined {
    if (scope === undefined || options.offlineAccess === false || !facts.offlineAccess)
      return scope;
    if (!(server.scopes_supported ?? []).includes("offline_access")) return scope;
    return union(scope, "offline_access");
  }
}

/**
 * `client_secret_basic`, the id and secret form-encoded as URLSearchParams does it (RFC 6749 §2.3.1).
 * oauth4webapi's `ClientSecretBasic` escapes "-", "." and "_" too, which servers that skip the decoding (the
 * conformance suite's among them) then refuse; an id of letters, digits and those reaches them as it is.
 */
function secretBasic(clientId: string, clientSecret: string): oauth.ClientAuth {
  const encode = (value: string): string => encodeURIComponent(value).replace(/%20/g, "+");
  return (_server, _client, _body, headers) => {
    headers.set("authorization", `Basic ${btoa(`${encode(clientId)}:${encode(clientSecret)}`)}`);
  };
}

/**
 * RFC 7591 §3.2.1 requires `client_secret_expires_at` beside a `client_secret`, and oauth4webapi refuses a
 * registration without it; servers in the field (the conformance suite's among them) leave it out. Its absence
 * is read as 0, "does not expire".
 */
function secretExpiryDefaulted(fetchFn: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await fetchFn(input, init);
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => undefined);
    if (
      typeof body !== "object" ||
      body === null ||
      !("client_secret" in body) ||
      "client_secret_expires_at" in body
    )
      return response;
    return new Response(JSON.stringify({ ...body, client_secret_expires_at: 0 }), {
      status: response.status,
      headers: response.headers,
    });
  };
}

function tokensOf(
  result: oauth.TokenEndpointResponse,
  refreshToken: string | undefined,
  scope: string | undefined,
  issuer: string,
  resource: string,
): HeldTokens {
  if (result.token_type !== "bearer")
    throw failure(`the token type ${result.token_type} is not supported (only Bearer)`);
  const rotated = result.refresh_token ?? refreshToken;
  return {
    accessToken: result.access_token,
    ...(rotated === undefined ? {} : { refreshToken: rotated }),
    ...(result.expires_in === undefined
      ? {}
      : { expiresAt: Date.now() + result.expires_in * 1000 }),
    ...(scope === undefined ? {} : { scope }),
    issuer,
    resource,
  };
}

function asTokens(record: StoredRecord): HeldTokens | undefined {
  const { accessToken, refreshToken, expiresAt, scope, issuer, resource } = record;
  if (typeof accessToken !== "string" || typeof issuer !== "string" || typeof resource !== "string")
    return undefined;
  return {
    accessToken,
    issuer,
    resource,
    ...(typeof refreshToken === "string" ? { refreshToken } : {}),
    ...(typeof expiresAt === "number" ? { expiresAt } : {}),
    ...(typeof scope === "string" ? { scope } : {}),
  };
}

function asRegistration(record: StoredRecord): Registration {
  const { clientId, clientSecret, authMethod } = record;
  return {
    clientId: String(clientId),
    ...(typeof clientSecret === "string" ? { clientSecret } : {}),
    ...(typeof authMethod === "string" ? { authMethod } : {}),
  };
}

/** The scopes of both, each once, in the order first seen; undefined when neither has any. */
function union(first: string | undefined, second: string | undefined): string | undefined {
  const scopes = new Set(
    `${first ?? ""} ${second ?? ""}`.split(" ").filter((scope) => scope !== ""),
  );
  return scopes.size === 0 ? undefined : [...scopes].join(" ");
}

/** "native" for a loopback or custom-scheme redirect URI (a desktop or command-line app), else "web". */
function applicationType(redirectUri: string): "native" | "web" {
  const url = new URL(redirectUri);
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  return loopback || (url.protocol !== "https:" && url.protocol !== "http:") ? "native" : "web";
}

function sameUrl(first: string, second: string): boolean {
  try {
    return new URL(first).href === new URL(second).href;
  } catch {
    return first === second;
  }
}
