// The OAuth client (runtime/oauth/oauth-client.ts) as a transport uses it, against in-process authorization
// servers: the honest flow (PKCE, state, resource, tokens kept), refresh (rotation, scope, a transient 5xx),
// step-up, registration per issuer, and hostile servers, each refused with a clear error and no token kept.
import { jwtVerify } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { CLIENT_AUTH } from "../../../generated/2026-07-28/index.ts";
import { CLIENT_AUTH as LEGACY_AUTH } from "../../../generated/2025-11-25/index.ts";
import { followRedirect, memoryTokenStore, type TokenStore } from "../../../generated/runtime/client/client-auth.ts";
import { oauthClient, type OAuthClientOptions } from "../../../generated/runtime/oauth/oauth-client.ts";
import {
  fakeServer,
  honestAuthorizationServer,
  json,
  protectedResource,
  type FakeServer,
} from "../../support/fake-oauth.ts";

const REDIRECT = "http://127.0.0.1:1/callback";
const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function setUp(
  options: { readonly metadata?: Record<string, unknown>; readonly token?: () => Record<string, unknown> } = {},
) {
  const as = await fakeServer();
  const rs = await fakeServer();
  servers.push(as, rs);
  honestAuthorizationServer(as, options);
  protectedResource(rs, as.url);
  return { as, rs, endpoint: `${rs.url}/mcp` };
}

function client(store: TokenStore, extra: Partial<OAuthClientOptions> = {}) {
  return oauthClient({
    facts: CLIENT_AUTH,
    redirectUri: REDIRECT,
    openAuthorizationUrl: followRedirect(),
    allowHttp: true,
    store,
    ...extra,
  });
}

/** What the store holds: nothing, after a refused flow. */
async function tokensIn(store: TokenStore, endpoint: string) {
  return store.get(`tokens ${endpoint}`);
}

describe("the authorization code flow", () => {
  it("the wait for the user, and only it, goes through the refused call's untimed: discovery and tokens stay timed", async () => {
    const { as, endpoint } = await setUp();
    const held: { readonly from: string[]; to?: string[] }[] = [];
    const untimed = <T>(waiting: Promise<T>): Promise<T> => {
      const hold: { readonly from: string[]; to?: string[] } = { from: [...as.seen] };
      held.push(hold);
      return waiting.finally(() => (hold.to = [...as.seen]));
    };
    expect(await client(memoryTokenStore()).refused(endpoint, 401, null, untimed)).toBe(true);
    expect(held).toHaveLength(1);
    const [{ from, to }] = held as [{ from: string[]; to: string[] }];
    // Metadata and registration before the wait; the authorization endpoint (the user's part) within; the token after.
    expect(from).toContain("POST /register");
    expect(to.slice(from.length).map((line) => line.split("?")[0])).toEqual(["GET /authorize"]);
    expect(as.seen.slice(to.length)).toContain("POST /token");
  });

  it("registers, authorizes with PKCE S256, state and resource, and sends the token it got", async () => {
    const { as, endpoint } = await setUp();
    const store = memoryTokenStore();
    const auth = client(store);
    expect(await auth.authorization(endpoint)).toBeUndefined();
    expect(await auth.refused(endpoint, 401, 'Bearer scope="read"')).toBe(true);
    expect(await auth.authorization(endpoint)).toBe("Bearer token-1");
    const authorize = as.seen.find((line) => line.startsWith("GET /authorize"))!;
    const query = new URL(authorize.slice(4), as.url).searchParams;
    expect(query.get("code_challenge_method")).toBe("S256");
    expect(query.get("resource")).toBe(endpoint);
    expect(query.get("scope")).toBe("read");
    expect(query.get("state")).toMatch(/\S{20,}/);
    const token = as.forms.get("/token")![0]!;
    expect(token.get("resource")).toBe(endpoint);
    expect(token.get("client_id")).toBe("registered-client");
    const registration = as.seen.filter((line) => line === "POST /register");
    expect(registration).toHaveLength(1);
  });

  it("refuses an authorization server that does not list S256, before any authorization request", async () => {
    const { as, endpoint } = await setUp({ metadata: { code_challenge_methods_supported: ["plain"] } });
    const store = memoryTokenStore();
    await expect(client(store).refused(endpoint, 401, null)).rejects.toThrow(/S256/);
    expect(as.seen.some((line) => line.startsWith("GET /authorize"))).toBe(false);
    expect(await tokensIn(store, endpoint)).toBeUndefined();
  });

  it("uses pre-registered credentials only with the issuer they name", async () => {
    const { as, endpoint } = await setUp({
      metadata: { token_endpoint_auth_methods_supported: ["client_secret_basic"] },
    });
    const elsewhere = { clientId: "other", clientSecret: "s", issuer: "https://other.example" };
    await client(memoryTokenStore(), { client: elsewhere }).refused(endpoint, 401, null);
    expect(as.seen).toContain("POST /register");
    const fresh = await setUp({ metadata: { token_endpoint_auth_methods_supported: ["client_secret_basic"] } });
    const mine = { clientId: "pre-registered-client", clientSecret: "secret", issuer: fresh.as.url };
    await client(memoryTokenStore(), { client: mine }).refused(fresh.endpoint, 401, null);
    expect(fresh.as.seen).not.toContain("POST /register");
    expect(fresh.as.forms.get("/token")![0]!.get("client_id")).toBeNull();
  });
});

describe('the client credentials grant (grant: "client_credentials")', () => {
  it("gets a token for the pre-registered client at the token endpoint, with the resource, and no user", async () => {
    const { as, endpoint } = await setUp({
      metadata: { token_endpoint_auth_methods_supported: ["client_secret_basic"] },
    });
    const store = memoryTokenStore();
    const auth = client(store, {
      grant: "client_credentials",
      client: { clientId: "machine", clientSecret: "secret" },
    });
    expect(await auth.refused(endpoint, 401, 'Bearer scope="jobs"')).toBe(true);
    expect(await auth.authorization(endpoint)).toBe("Bearer token-1");
    const form = as.forms.get("/token")![0]!;
    expect(Object.fromEntries(form)).toEqual({ grant_type: "client_credentials", resource: endpoint, scope: "jobs" });
    expect(as.seen.some((line) => line.startsWith("GET /authorize") || line === "POST /register")).toBe(false);
    await expect(
      client(memoryTokenStore(), { grant: "client_credentials" }).refused(endpoint, 401, null),
    ).rejects.toThrow(/needs a pre-registered client with its secret/);
  });

  it("authenticates with private_key_jwt: an assertion signed with the given key, for the issuer, and no secret", async () => {
    const { as, endpoint } = await setUp({ metadata: { token_endpoint_auth_methods_supported: ["private_key_jwt"] } });
    const keys = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
    const auth = client(memoryTokenStore(), {
      grant: "client_credentials",
      client: { clientId: "machine" },
      clientAuthentication: { method: "private_key_jwt", key: keys.privateKey },
    });
    expect(await auth.refused(endpoint, 401, null)).toBe(true);
    expect(await auth.authorization(endpoint)).toBe("Bearer token-1");
    const form = as.forms.get("/token")![0]!;
    expect(form.get("client_assertion_type")).toBe("urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
    const { payload, protectedHeader } = await jwtVerify(form.get("client_assertion")!, keys.publicKey, {
      audience: as.url,
      issuer: "machine",
      subject: "machine",
    });
    expect(protectedHeader.alg).toBe("ES256");
    expect(payload.jti).toBeDefined();
    expect(form.get("client_secret")).toBeNull();
  });
});

describe("refresh", () => {
  it("refreshes on a 401 with the original scope, keeps a refresh token the server did not rotate, retries a 503", async () => {
    let refreshes = 0;
    const { as, endpoint } = await setUp();
    const store = memoryTokenStore();
    const auth = client(store);
    await auth.refused(endpoint, 401, 'Bearer scope="read write"');
    const honest = as.routes.get("/token")!;
    as.routes.set("/token", (request, response, body) => {
      if (new URLSearchParams(body).get("grant_type") !== "refresh_token") return honest(request, response, body);
      refreshes++;
      if (refreshes === 1) return void response.writeHead(503).end();
      json({ access_token: "refreshed", token_type: "Bearer", expires_in: 60 })(request, response, body);
    });
    expect(await auth.refused(endpoint, 401, null)).toBe(true);
    expect(refreshes).toBe(2);
    expect(await auth.authorization(endpoint)).toBe("Bearer refreshed");
    const forms = as.forms.get("/token")!.filter((form) => form.get("grant_type") === "refresh_token");
    expect(forms.map((form) => form.get("scope"))).toEqual(["read write", "read write"]);
    expect(forms.map((form) => form.get("refresh_token"))).toEqual(["refresh-1", "refresh-1"]);
    expect((await tokensIn(store, endpoint))?.["refreshToken"]).toBe("refresh-1");
    expect(as.seen.filter((line) => line.startsWith("GET /authorize"))).toHaveLength(1);
  });
});

describe("step-up", () => {
  it("asks for the union of the scopes asked before and the challenge's (2026-07-28), the challenge's alone before", async () => {
    for (const [facts, expected] of [
      [CLIENT_AUTH, "read write"],
      [LEGACY_AUTH, "write"],
    ] as const) {
      const { as, endpoint } = await setUp();
      const auth = client(memoryTokenStore(), { facts });
      await auth.refused(endpoint, 401, 'Bearer scope="read"');
      expect(await auth.refused(endpoint, 403, 'Bearer error="insufficient_scope", scope="write"')).toBe(true);
      const scopes = as.seen
        .filter((line) => line.startsWith("GET /authorize"))
        .map((line) => new URL(line.slice(4), as.url).searchParams.get("scope"));
      expect(scopes).toEqual(["read", expected]);
    }
  });

  it("leaves a 403 that is no insufficient_scope alone", async () => {
    const { as, endpoint } = await setUp();
    expect(await client(memoryTokenStore()).refused(endpoint, 403, 'Bearer error="invalid_token"')).toBe(false);
    expect(as.seen).toEqual([]);
  });
});

describe("a hostile authorization server is refused, with a clear error and no token kept", () => {
  it("metadata naming another issuer", async () => {
    const { endpoint } = await setUp({ metadata: { issuer: "https://attacker.example" } });
    const store = memoryTokenStore();
    await expect(client(store).refused(endpoint, 401, null)).rejects.toThrow(/metadata .* is refused: .*issuer/);
    expect(await tokensIn(store, endpoint)).toBeUndefined();
  });

  it("an authorization redirect to another host", async () => {
    const { as, endpoint } = await setUp();
    as.routes.set(
      "/authorize",
      (_request, response) => void response.writeHead(302, { location: "https://evil.example/x" }).end(),
    );
    const store = memoryTokenStore();
    await expect(client(store).refused(endpoint, 401, null)).rejects.toThrow(/redirects to https:\/\/evil.example/);
    expect(await tokensIn(store, endpoint)).toBeUndefined();
  });

  it("an iss that is not the issuer, and never its error_description", async () => {
    const { as, endpoint } = await setUp();
    as.routes.set("/authorize", (request, response) => {
      const query = new URL(request.url ?? "/", as.url).searchParams;
      const back = new URL(query.get("redirect_uri")!);
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "click-here-evil-link");
      back.searchParams.set("state", query.get("state")!);
      back.searchParams.set("iss", `${as.url}/`);
      response.writeHead(302, { location: back.href }).end();
    });
    const store = memoryTokenStore();
    const failure = client(store).refused(endpoint, 401, null);
    await expect(failure).rejects.toThrow(/authorization response is refused: .*iss/);
    await expect(failure).rejects.not.toThrow(/click-here/);
    expect(as.seen.some((line) => line.startsWith("POST /token"))).toBe(false);
    expect(await tokensIn(store, endpoint)).toBeUndefined();
  });

  it("a token response without token_type", async () => {
    const { endpoint } = await setUp({ token: () => ({ access_token: "t", expires_in: 60 }) });
    const store = memoryTokenStore();
    await expect(client(store).refused(endpoint, 401, null)).rejects.toThrow(/token request .* failed: .*token_type/);
    expect(await tokensIn(store, endpoint)).toBeUndefined();
  });

  it("a huge body and an endless one", async () => {
    const { as, endpoint } = await setUp();
    as.routes.set("/.well-known/oauth-authorization-server", (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(`{"issuer":"${as.url}","x":"${"x".repeat(2_000_000)}"}`);
    });
    const store = memoryTokenStore();
    await expect(client(store).refused(endpoint, 401, null)).rejects.toThrow(/exceeds 1048576 bytes/);
    as.routes.set("/.well-known/oauth-authorization-server", (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      const chunk = "x".repeat(65_536);
      const more = (): void => void (response.write(chunk) ? setImmediate(more) : response.once("drain", more));
      more();
    });
    await expect(client(store).refused(endpoint, 401, null)).rejects.toThrow(/exceeds 1048576 bytes/);
    as.routes.set("/.well-known/oauth-authorization-server", (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).write("{");
    });
    await expect(client(store, { timeoutMs: 200 }).refused(endpoint, 401, null)).rejects.toThrow(
      /did not answer within 200 ms/,
    );
    expect(await tokensIn(store, endpoint)).toBeUndefined();
  });

  it("protected resource metadata that names another server", async () => {
    const { as, rs, endpoint } = await setUp();
    protectedResource(rs, as.url, { resource: "https://evil.example/mcp" });
    const store = memoryTokenStore();
    await expect(client(store).refused(endpoint, 401, null)).rejects.toThrow(
      /protected resource metadata .* is refused/,
    );
    expect(as.seen).toEqual([]);
  });
});

describe("registration is kept per authorization server", () => {
  it("registers again when the server moves to another authorization server, and sends it no old credential", async () => {
    const { as, rs, endpoint } = await setUp();
    const store = memoryTokenStore();
    const auth = client(store);
    await auth.refused(endpoint, 401, null);
    const moved = await fakeServer();
    servers.push(moved);
    honestAuthorizationServer(moved);
    moved.routes.set("/register", json({ client_id: "second-client" }, 201));
    protectedResource(rs, moved.url);
    expect(await auth.refused(endpoint, 401, null)).toBe(true);
    expect(moved.seen).toContain("POST /register");
    expect(moved.forms.get("/token")!.map((form) => form.get("client_id"))).toEqual(["second-client"]);
    expect(moved.forms.get("/token")!.some((form) => form.get("refresh_token") !== null)).toBe(false);
    expect(as.seen.filter((line) => line === "POST /register")).toHaveLength(1);
  });
});
