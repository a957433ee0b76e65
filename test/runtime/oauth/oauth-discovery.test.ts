// Discovery for the OAuth client (runtime/oauth/oauth-discovery.ts): the Bearer challenge, protected resource
// metadata from the challenge or the well-known URIs, and authorization server metadata from the URIs in each
// release's order (schema/facts.json `clientAuth`), a mismatched issuer refused without trying further.
import { afterEach, describe, expect, it } from "vitest";
import { CLIENT_AUTH } from "../../../generated/2026-07-28/index.ts";
import { CLIENT_AUTH as JUNE_AUTH } from "../../../generated/2025-06-18/index.ts";
import { bearerChallenge, discover, serverMetadata } from "../../../generated/runtime/oauth/oauth-discovery.ts";
import { fakeServer, json, type FakeServer } from "../../support/fake-oauth.ts";

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function server(routes: Parameters<typeof fakeServer>[0] = {}): Promise<FakeServer> {
  const created = await fakeServer(routes);
  servers.push(created);
  return created;
}

describe("bearerChallenge", () => {
  it("reads the Bearer challenge among others; none without one", async () => {
    expect(
      await bearerChallenge(
        'Negotiate, Bearer error="insufficient_scope", scope="a b", resource_metadata="https://x/.well-known/oauth-protected-resource"',
      ),
    ).toEqual({
      error: "insufficient_scope",
      scope: "a b",
      resourceMetadata: "https://x/.well-known/oauth-protected-resource",
    });
    expect(await bearerChallenge("Basic realm=x")).toBeUndefined();
    expect(await bearerChallenge(null)).toBeUndefined();
  });
});

describe("serverMetadata", () => {
  it("tries OAuth path-insert, OIDC path-insert, OIDC path-append for an issuer with a path (2025-11-25 on)", async () => {
    const as = await server();
    as.routes.set(
      "/tenant/.well-known/openid-configuration",
      json({ issuer: `${as.url}/tenant`, code_challenge_methods_supported: ["S256"] }),
    );
    const found = await serverMetadata(`${as.url}/tenant`, CLIENT_AUTH, { allowHttp: true });
    expect(found.issuer).toBe(`${as.url}/tenant`);
    expect(as.seen).toEqual([
      "GET /.well-known/oauth-authorization-server/tenant",
      "GET /.well-known/openid-configuration/tenant",
      "GET /tenant/.well-known/openid-configuration",
    ]);
  });

  it("tries RFC 8414 alone in 2025-06-18, and refuses metadata naming another issuer at once", async () => {
    const as = await server();
    await expect(serverMetadata(`${as.url}/tenant`, JUNE_AUTH, { allowHttp: true })).rejects.toThrow(
      /publishes no metadata/,
    );
    expect(as.seen).toEqual(["GET /.well-known/oauth-authorization-server/tenant"]);
    as.routes.set("/.well-known/oauth-authorization-server", json({ issuer: "https://attacker.example" }));
    as.routes.set(
      "/.well-known/openid-configuration",
      json({ issuer: as.url, code_challenge_methods_supported: ["S256"] }),
    );
    await expect(serverMetadata(as.url, CLIENT_AUTH, { allowHttp: true })).rejects.toThrow(/its issuer must be/);
    expect(as.seen.at(-1)).toBe("GET /.well-known/oauth-authorization-server");
  });
});

describe("discover", () => {
  it("takes the challenge's metadata URL first, then the path-aware URI, then the root one (whose resource is the origin)", async () => {
    const as = await server();
    as.routes.set(
      "/.well-known/oauth-authorization-server",
      json({ issuer: as.url, code_challenge_methods_supported: ["S256"] }),
    );
    const rs = await server();
    rs.routes.set(
      "/.well-known/oauth-protected-resource",
      json({ resource: rs.url, authorization_servers: [as.url], scopes_supported: ["a"] }),
    );
    const found = await discover(`${rs.url}/mcp`, undefined, CLIENT_AUTH, { allowHttp: true });
    expect(found.resource).toBe(rs.url);
    expect(found.scopesSupported).toEqual(["a"]);
    expect(rs.seen).toEqual([
      "GET /.well-known/oauth-protected-resource/mcp",
      "GET /.well-known/oauth-protected-resource",
    ]);
    rs.routes.set("/custom.json", json({ resource: `${rs.url}/mcp`, authorization_servers: [as.url] }));
    const challenged = await discover(`${rs.url}/mcp`, { resourceMetadata: `${rs.url}/custom.json` }, CLIENT_AUTH, {
      allowHttp: true,
    });
    expect(challenged.resource).toBe(`${rs.url}/mcp`);
    expect(rs.seen.at(-1)).toBe("GET /custom.json");
  });
});
