import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import Provider from "oidc-provider";

/**
 * A real OAuth 2.1 / OpenID provider in-process (oidc-provider): resource indicators (RFC 8707), JWT
 * access tokens (RFC 9068) for resources ending in `/mcp` and opaque ones otherwise, introspection
 * (RFC 7662), dynamic registration, client credentials, and an authorization code flow whose login and
 * consent are approved at once for `SUBJECT`. `restart` brings it back on the same port, with new keys
 * if asked (a key rotation).
 */

export const SUBJECT = "alice";
export const SCOPES = "mcp:tools mcp:admin";

export interface SigningKey {
  readonly jwk: JWK;
  readonly privateKey: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
}

export async function signingKey(kid: string): Promise<SigningKey> {
  const pair = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(pair.privateKey)), kid, alg: "RS256", use: "sig" };
  return { jwk, privateKey: pair.privateKey };
}

export interface AuthorizationServer {
  readonly issuer: string;
  /** A confidential client for client credentials and introspection. */
  readonly client: { readonly id: string; readonly secret: string };
  /** A token from the client credentials grant for `resource` (JWT when it ends in `/mcp`, else opaque). */
  token(resource: string, scope?: string): Promise<string>;
  /** Stops and starts again on the same port, signing with `keys` (the first) when given. */
  restart(keys?: readonly SigningKey[]): Promise<void>;
  stop(): Promise<void>;
}

export async function startAuthorizationServer(initial?: readonly SigningKey[]): Promise<AuthorizationServer> {
  let keys = initial ?? [await signingKey("key-1")];
  const client = { id: "mcp-test-client", secret: "a-test-secret-that-is-long-enough-0123456789" };
  let server: Server | undefined;
  let port = 0;
  let issuer = "";

  const build = (): Provider => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: client.id,
          client_secret: client.secret,
          grant_types: ["client_credentials"],
          redirect_uris: [],
          response_types: [],
        },
      ],
      jwks: { keys: keys.map((k) => k.jwk) },
      scopes: ["openid", "offline_access", ...SCOPES.split(" ")],
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        introspection: { enabled: true },
        registration: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: (_ctx, _client, oneOf) => oneOf ?? undefined,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, resource) => ({
            scope: SCOPES,
            audience: resource,
            accessTokenTTL: 3600,
            accessTokenFormat: resource.endsWith("/mcp") ? "jwt" : "opaque",
            ...(resource.endsWith("/mcp") ? { jwt: { sign: { alg: "RS256" } } } : {}),
          }),
        },
      },
      pkce: { required: () => true },
      clientBasedCORS: () => true,
      findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      ttl: { AccessToken: 3600, AuthorizationCode: 60, Grant: 3600, Interaction: 600, Session: 3600 },
    });
    provider.proxy = false;
    return provider;
  };

  /** Approves every login and consent: the subject is SUBJECT, with every scope asked for. */
  const interact = async (provider: Provider, request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const details = await provider.interactionDetails(request, response);
    const grant = new provider.Grant({
      accountId: SUBJECT,
      clientId: String(details.params["client_id"]),
    });
    // The scopes are the provider's own too (its `scopes`), so they are granted both ways.
    const scope = typeof details.params["scope"] === "string" ? details.params["scope"] : "";
    if (scope !== "") grant.addOIDCScope(scope);
    const resource = details.params["resource"];
    for (const r of Array.isArray(resource) ? resource : resource === undefined ? [] : [resource])
      grant.addResourceScope(String(r), SCOPES);
    const grantId = await grant.save();
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId: SUBJECT }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  };

  const start = async (): Promise<void> => {
    const provider = build();
    const callback = provider.callback();
    server = createServer((request, response) => {
      if (request.url?.startsWith("/interaction/")) {
        void interact(provider, request, response).catch(() => {
          response.statusCode = 500;
          response.end();
        });
        return;
      }
      void callback(request, response);
    });
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
  };

  // The issuer names the port, so the port is taken first.
  await new Promise<void>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      port = (probe.address() as AddressInfo).port;
      probe.close(() => resolve());
    });
  });
  issuer = `http://127.0.0.1:${port}`;
  await start();

  const stop = async (): Promise<void> => {
    const running = server;
    server = undefined;
    if (running === undefined) return;
    await new Promise<void>((resolve) => {
      running.close(() => resolve());
      running.closeAllConnections();
    });
  };

  return {
    issuer,
    client,
    async token(resource, scope = SCOPES) {
      // A restart closes the sockets fetch keeps alive, so the first try may meet a closed one.
      const post = (): Promise<Response> =>
        fetch(`${issuer}/token`, {
          method: "POST",
          headers: {
            authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}`,
            "content-type": "application/x-www-form-urlencoded",
          },
          body: new URLSearchParams({ grant_type: "client_credentials", resource, scope }),
        });
      const response = await post().catch(post);
      const body = (await response.json()) as { access_token?: string; error?: string };
      if (body.access_token === undefined) throw new Error(`no token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async restart(next) {
      await stop();
      if (next !== undefined) keys = next;
      await start();
    },
    stop,
  };
}
