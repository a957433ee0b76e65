import { describe, expect, it } from "vitest";
import {
  metadataPaths,
  metadataUrl,
  protectedResourceMetadata,
  serveResourceMetadata,
  type ProtectedResourceMetadata,
} from "../../../generator/runtime/server/protected-resource.ts";
import type { HttpHandler } from "../../../generator/runtime/server/http-server.ts";

describe("protected resource metadata (RFC 9728)", () => {
  it.each([
    ["https://mcp.example.com/mcp", "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"],
    ["https://mcp.example.com/public/mcp", "https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp"],
    ["https://mcp.example.com:8443/", "https://mcp.example.com:8443/.well-known/oauth-protected-resource"],
    ["https://mcp.example.com", "https://mcp.example.com/.well-known/oauth-protected-resource"],
    ["http://127.0.0.1:3000/mcp?x=1", "http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp"],
  ])("%s: the path-aware URL is %s", (resource, url) => {
    expect(metadataUrl(resource)).toBe(url);
  });

  it("is served at the path-aware path first, then the root one", () => {
    expect(metadataPaths("https://mcp.example.com/public/mcp")).toEqual([
      "/.well-known/oauth-protected-resource/public/mcp",
      "/.well-known/oauth-protected-resource",
    ]);
    expect(metadataPaths("https://mcp.example.com/")).toEqual(["/.well-known/oauth-protected-resource"]);
  });

  it("names the resource, its authorization servers, its scopes and the header as the only bearer method", () => {
    expect(
      protectedResourceMetadata({
        resource: "https://mcp.example.com/mcp",
        authorizationServers: ["https://as.example.com"],
        scopesSupported: ["mcp:tools"],
        resourceName: "Example",
      }),
    ).toEqual({
      resource: "https://mcp.example.com/mcp",
      authorization_servers: ["https://as.example.com"],
      scopes_supported: ["mcp:tools"],
      bearer_methods_supported: ["header"],
      resource_name: "Example",
    });
    expect(
      protectedResourceMetadata({ resource: "https://m/mcp", authorizationServers: ["https://as"] }),
    ).not.toHaveProperty("scopes_supported");
  });

  it("answers its paths beside a handler (GET, the CORS preflight, 405 otherwise) and passes every other request on", async () => {
    const { inner, passed } = recording();
    const metadata = protectedResourceMetadata({
      resource: "https://m.example/mcp",
      authorizationServers: ["https://as"],
    });
    const handler = serveResourceMetadata(inner, metadata);
    const got = await handler.fetch(new Request("https://m.example/.well-known/oauth-protected-resource/mcp"));
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual(metadata);
    const exchange = (method: string, path: string) =>
      handler.serve({
        method,
        path,
        headers: {},
        body: () => Promise.resolve(undefined),
        signal: new AbortController().signal,
      });
    expect(await exchange("OPTIONS", "/.well-known/oauth-protected-resource")).toMatchObject({
      status: 204,
      headers: { "access-control-allow-origin": "*", "access-control-allow-methods": "GET" },
    });
    expect(await exchange("POST", "/.well-known/oauth-protected-resource")).toMatchObject({ status: 405 });
    expect(await exchange("GET", "/mcp")).toMatchObject({ status: 204 });
    expect((await handler.fetch(new Request("https://m.example/mcp"))).status).toBe(204);
    expect(passed).toEqual(["/mcp", "https://m.example/mcp"]);
  });

  it("takes the metadata lazily: asked on each request, nothing served while it is undefined, a new one served at its own paths", async () => {
    const { inner, passed } = recording();
    let metadata: ProtectedResourceMetadata | undefined;
    const handler = serveResourceMetadata(inner, () => metadata);
    const get = (url: string) => handler.fetch(new Request(url));
    expect((await get("http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp")).status).toBe(204);
    metadata = protectedResourceMetadata({
      resource: "http://127.0.0.1:3000/mcp",
      authorizationServers: ["https://as"],
    });
    const served = await get("http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp");
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual(metadata);
    metadata = protectedResourceMetadata({
      resource: "http://127.0.0.1:3000/v2/mcp",
      authorizationServers: ["https://as"],
    });
    expect(await (await get("http://127.0.0.1:3000/.well-known/oauth-protected-resource/v2/mcp")).json()).toEqual(
      metadata,
    );
    expect((await get("http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp")).status).toBe(204);
    metadata = undefined;
    expect((await get("http://127.0.0.1:3000/.well-known/oauth-protected-resource/v2/mcp")).status).toBe(204);
    expect(passed).toEqual([
      "http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp",
      "http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp",
      "http://127.0.0.1:3000/.well-known/oauth-protected-resource/v2/mcp",
    ]);
  });
});

/** A handler that answers 204 to everything, recording what reached it. */
function recording() {
  const passed: string[] = [];
  const inner = {
    serve: (exchange: { path: string }) => {
      passed.push(exchange.path);
      return Promise.resolve({ status: 204, headers: {}, body: undefined });
    },
    fetch: (request: Request) => {
      passed.push(request.url);
      return Promise.resolve(new Response(null, { status: 204 }));
    },
    close: () => undefined,
    sessions: 0,
    pending: 0,
    outbox: { maxUnsentBytes: 1 },
  } as unknown as HttpHandler;
  return { inner, passed };
}
