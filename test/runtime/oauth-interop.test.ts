// The OAuth client (runtime/oauth/) against a real authorization server (oidc-provider) and two protected servers:
// the official SDK v2 server behind its requireBearerAuth with its protected resource metadata, and the project's
// own (examples/server.ts with --auth-issuer: createBearerGate, the jwt extra's verifier, serveResourceMetadata).
// In each era, `connect` over `httpTransport(url, { auth: oauthClient(…) })` meets the 401, discovers, registers,
// runs the code flow headlessly (followRedirect through oidc-provider's login and consent) and calls a tool; the
// token it got is for that server alone, so the other refuses it.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  McpServer,
  OAuthError,
  OAuthErrorCode,
  oauthMetadataResponse,
  requireBearerAuth,
  type OAuthMetadata,
} from "@modelcontextprotocol/server";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, httpTransport, v2025_11_25, v2026_07_28 } from "../../generated/index.ts";
import {
  followRedirect,
  memoryTokenStore,
  type RedirectFetch,
  type TokenStore,
} from "../../generated/runtime/client/client-auth.ts";
import { oauthClient } from "../../generated/runtime/oauth/oauth-client.ts";
import { startServer } from "../../examples/server.ts";
import { startAuthorizationServer, type AuthorizationServer } from "../support/authorization-server.ts";
import { serveFetch } from "../support/serve-fetch.ts";

const REDIRECT = "http://127.0.0.1:1/callback";
const SCOPE = "mcp:tools";
const SDK_TEXT = "hello from the SDK v2 server";

interface Running {
  readonly url: string;
  close(): Promise<void>;
}

/** SDK v2's createMcpHandler behind its requireBearerAuth: JWTs from `issuer` for its own URL, with `mcp:tools`. */
async function startSdkServer(issuer: string): Promise<Running> {
  const metadata = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as OAuthMetadata;
  const keys = createRemoteJWKSet(new URL(metadata.jwks_uri!));
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "sdk-v2-oauth", version: "1" });
    server.registerTool("echo", { description: "Answers with a fixed text" }, () => ({
      content: [{ type: "text", text: SDK_TEXT }],
    }));
    return server;
  });
  let serve: (request: Request) => Promise<Response> = () => Promise.resolve(new Response(null, { status: 503 }));
  const server = createServer((req, res) => void serveFetch(serve, req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const resource = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  const gate = requireBearerAuth({
    verifier: {
      async verifyAccessToken(token) {
        const { payload } = await jwtVerify(token, keys, { issuer, audience: resource.href }).catch(() => {
          throw new OAuthError(OAuthErrorCode.InvalidToken, "invalid token");
        });
        return {
          token,
          clientId: String(payload["client_id"]),
          scopes: String(payload["scope"]).split(" "),
          expiresAt: payload.exp!,
          resource: new URL(String(payload.aud)),
        };
      },
    },
    requiredScopes: [SCOPE],
    expectedResource: resource,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resource),
  });
  const prm = {
    oauthMetadata: metadata,
    resourceServerUrl: resource,
    scopesSupported: [SCOPE],
    dangerouslyAllowInsecureIssuerUrl: true,
  };
  serve = async (request) => {
    const document = oauthMetadataResponse(request, prm);
    if (document !== undefined) return document;
    const verdict = await gate(request);
    return verdict instanceof Response ? verdict : handler.fetch(request, { authInfo: verdict });
  };
  return {
    url: resource.href,
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** A headless browser's fetch for followRedirect: it keeps the cookies oidc-provider's interaction sets. */
function cookieFetch(): RedirectFetch {
  const jar = new Map<string, string>();
  return async (url, init) => {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await fetch(url, { ...init, headers: { cookie } });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0]!;
      jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
    return response;
  };
}

/** Connects in `era` with an OAuth client of that release, lists and calls `echo`; answers with its text. */
async function callEcho(url: string, era: "2026-07-28" | "2025-11-25", store: TokenStore): Promise<string> {
  const auth = oauthClient({
    facts: era === "2026-07-28" ? v2026_07_28.CLIENT_AUTH : v2025_11_25.CLIENT_AUTH,
    redirectUri: REDIRECT,
    openAuthorizationUrl: followRedirect({ fetch: cookieFetch() }),
    allowHttp: true,
    store,
  });
  const client = await connectClient(httpTransport(url, { auth }), {
    releases: [v2026_07_28.clientRelease(), v2025_11_25.clientRelease()],
    clientInfo: { name: "oauth-interop", version: "1" },
    protocolVersion: era,
  });
  try {
    expect(client.version).toBe(era);
    expect((await client.listTools()).map((tool) => tool.name)).toContain("echo");
    const result = await client.callTool("echo", { text: "through the gate" });
    return JSON.stringify(result.content);
  } finally {
    await client.close();
  }
}

let as: AuthorizationServer;
const servers: Record<"sdk" | "ours", Running> = {} as never;

beforeAll(async () => {
  as = await startAuthorizationServer();
  servers.sdk = await startSdkServer(as.issuer);
  servers.ours = await startServer({ port: 0, authIssuer: as.issuer });
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.close()));
  await as.stop();
});

describe.each([
  ["the SDK v2 server (requireBearerAuth)", "sdk", "ours", SDK_TEXT],
  ["the project's server (createBearerGate, jwt verifier)", "ours", "sdk", "through the gate"],
] as const)("with oidc-provider as the authorization server, %s", (_, name, other, text) => {
  it.each(["2026-07-28", "2025-11-25"] as const)(
    "%s: the client authorizes, calls a tool, and its token is refused by the other server",
    async (era) => {
      const store = memoryTokenStore();
      expect(await callEcho(servers[name].url, era, store)).toContain(text);
      const held = await store.get(`tokens ${servers[name].url}`);
      expect(held).toMatchObject({ issuer: as.issuer, resource: servers[name].url });
      const replayed = await fetch(servers[other].url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${String(held!["accessToken"])}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
      expect(replayed.status).toBe(401);
    },
    60_000,
  );
});
