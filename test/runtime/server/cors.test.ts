// CORS as a browser page on another origin needs it: the preflight (`OPTIONS`) and what actual replies carry,
// for origins the Origin check accepts and no others. The unit part drives cors.ts with hand-made facts; the
// handler part drives createHttpHandler with both generated eras, whose header names come from schema/facts.json.
import { afterEach, describe, expect, it } from "vitest";
import { corsFacts, corsOrigin, preflight, withCors, type CorsFacts } from "../../../generator/runtime/server/cors.ts";
import type { HttpReply } from "../../../generator/runtime/server/http-exchange.ts";
import { createHttpHandler, type HttpHandler, type HttpServerOptions } from "../../../generated/index.js";
import * as legacy from "../../../generated/2025-11-25/index.js";
import * as modern from "../../../generated/2026-07-28/index.js";

const PAGE = "http://localhost:5173";
const SERVER = "127.0.0.1:3000";
const facts: CorsFacts = corsFacts({ allowedOrigins: [PAGE] }, "GET, POST, DELETE", [
  { request: ["MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"], requestPrefix: "Mcp-Param-", response: [] },
  { request: ["Last-Event-ID", "MCP-Protocol-Version", "Mcp-Session-Id"], response: ["Mcp-Session-Id"] },
]);
const ok: HttpReply = { status: 200, headers: { "content-type": "application/json" }, body: "{}" };
const asking = (origin: string, requested?: string) => ({
  host: SERVER,
  origin,
  "access-control-request-method": "POST",
  ...(requested === undefined ? {} : { "access-control-request-headers": requested }),
});
const list = (value: string | undefined) => (value ?? "").split(", ");

describe("corsFacts", () => {
  it("allows the HTTP headers and each era's MCP headers once, and exposes the session id and the bearer challenge", () => {
    expect(facts.allowHeaders).toEqual([
      "Content-Type",
      "Accept",
      "Authorization",
      "MCP-Protocol-Version",
      "Mcp-Method",
      "Mcp-Name",
      "Last-Event-ID",
      "Mcp-Session-Id",
    ]);
    expect(facts.allowPrefixes).toEqual(["mcp-param-"]);
    expect(facts.exposeHeaders).toEqual(["Mcp-Session-Id", "WWW-Authenticate"]);
  });
});

describe("corsOrigin", () => {
  it.each([
    ["a listed origin", { host: SERVER, origin: PAGE }, PAGE],
    ["the server's own loopback port", { host: SERVER, origin: "http://localhost:3000" }, "http://localhost:3000"],
    ["another loopback port, unlisted", { host: SERVER, origin: "http://localhost:8080" }, undefined],
    ["a foreign origin", { host: SERVER, origin: "https://evil.example" }, undefined],
    ["Origin null", { host: SERVER, origin: "null" }, undefined],
    ["a listed origin through a foreign Host", { host: "evil.example", origin: PAGE }, undefined],
    ["no Origin", { host: SERVER }, undefined],
  ])("%s → %s", (_, headers, origin) => {
    expect(corsOrigin(headers, facts.policy)).toBe(origin);
  });
});

describe("preflight", () => {
  it("answers an allowed origin 204 with the origin, the verbs, the MCP headers and a max age", () => {
    const reply = preflight(asking(PAGE, "content-type,mcp-method,mcp-name,mcp-protocol-version"), facts, -32600);
    expect(reply.status).toBe(204);
    expect(reply.headers["access-control-allow-origin"]).toBe(PAGE);
    expect(reply.headers["access-control-allow-methods"]).toBe("GET, POST, DELETE");
    expect(list(reply.headers["access-control-allow-headers"])).toEqual(facts.allowHeaders);
    expect(reply.headers["access-control-max-age"]).toBe("7200");
    expect(reply.headers["vary"]).toBe("Origin");
  });

  it("allows a requested Mcp-Param-* name (only the tool knows them), and no other unknown header", () => {
    const reply = preflight(asking(PAGE, "Mcp-Param-Region, mcp-method, x-secret, mcp-param-bad name"), facts, 0);
    const allowed = list(reply.headers["access-control-allow-headers"]);
    expect(allowed).toContain("mcp-param-region");
    expect(allowed.filter((name) => !facts.allowHeaders.includes(name))).toEqual(["mcp-param-region"]);
  });

  it("refuses an origin the Origin check refuses: 403 and no CORS headers", () => {
    const reply = preflight(asking("https://evil.example", "mcp-method"), facts, -32600);
    expect(reply.status).toBe(403);
    expect(Object.keys(reply.headers).filter((name) => name.startsWith("access-control-"))).toEqual([]);
  });

  it("answers an OPTIONS that is no preflight (no Origin) with Allow", () => {
    const reply = preflight({ host: SERVER }, facts, -32600);
    expect([reply.status, reply.headers["allow"]]).toEqual([204, "OPTIONS, GET, POST, DELETE"]);
  });
});

describe("withCors", () => {
  it("gives an allowed origin's reply the origin (never *), Vary and the headers its script may read", () => {
    const reply = withCors({ host: SERVER, origin: PAGE }, ok, facts);
    expect(reply.headers).toEqual({
      "content-type": "application/json",
      "access-control-allow-origin": PAGE,
      "access-control-expose-headers": "Mcp-Session-Id, WWW-Authenticate",
      vary: "Origin",
    });
  });

  it("gives another origin's reply Vary alone, and a reply without Origin nothing", () => {
    expect(withCors({ host: SERVER, origin: "https://evil.example" }, ok, facts).headers).toEqual({
      "content-type": "application/json",
      vary: "Origin",
    });
    expect(withCors({ host: SERVER }, ok, facts)).toBe(ok);
  });

  it("keeps a Vary the reply had, naming Origin once", () => {
    const varied = { ...ok, headers: { vary: "Accept" } };
    expect(withCors({ host: SERVER, origin: PAGE }, varied, facts).headers["vary"]).toBe("Accept, Origin");
    const already = { ...ok, headers: { vary: "Origin" } };
    expect(withCors({ host: SERVER, origin: PAGE }, already, facts).headers["vary"]).toBe("Origin");
  });
});

describe("createHttpHandler, both eras, a page on another origin", () => {
  let opened: HttpHandler[] = [];
  afterEach(() => {
    for (const handler of opened) handler.close();
    opened = [];
  });

  function serve(options: Partial<HttpServerOptions> = {}, sessions = true): HttpHandler {
    const handlers = {
      "tools/call": () => ({ content: [{ type: "text" as const, text: "hi" }] }),
    };
    const handler = createHttpHandler({
      stateless: modern.statelessEra(handlers),
      ...(sessions
        ? {
            sessions: legacy.sessionEra({
              ...handlers,
              initialize: () => ({
                protocolVersion: legacy.PROTOCOL_VERSION,
                capabilities: { tools: {} },
                serverInfo: { name: "s", version: "1" },
              }),
            }),
          }
        : {}),
      path: "/mcp",
      allowedOrigins: [PAGE],
      ...options,
    });
    opened.push(handler);
    return handler;
  }
  const request = (method: string, origin: string, headers: Record<string, string> = {}, body?: unknown) =>
    new Request(`http://${SERVER}/mcp`, {
      method,
      headers: { host: SERVER, origin, ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const initialize = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
  };
  const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };

  it("a preflight names the releases' header names (schema/facts.json) and the verbs of both eras", async () => {
    const reply = await serve().fetch(
      request("OPTIONS", PAGE, {
        "access-control-request-method": "DELETE",
        "access-control-request-headers": "mcp-param-region",
      }),
    );
    expect(reply.status).toBe(204);
    expect(reply.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(reply.headers.get("access-control-allow-methods")).toBe("GET, POST, DELETE");
    const allowed = list(reply.headers.get("access-control-allow-headers") ?? undefined);
    expect(allowed).toEqual(
      expect.arrayContaining([
        ...Object.values(modern.HttpHeader),
        ...Object.values(legacy.HttpHeader),
        "Authorization",
        "mcp-param-region",
      ]),
    );
  });

  it("a stateless-only endpoint preflights POST alone", async () => {
    const reply = await serve({}, false).fetch(request("OPTIONS", PAGE));
    expect(reply.headers.get("access-control-allow-methods")).toBe("POST");
    expect(reply.headers.get("access-control-allow-headers")).not.toContain("Mcp-Session-Id");
  });

  it("the preflight passes no request gate (it carries no credentials), and its answer is not the gate's 401", async () => {
    const reply = await serve({ authorize: () => new Response(null, { status: 401 }) }).fetch(request("OPTIONS", PAGE));
    expect(reply.status).toBe(204);
  });

  it("initialize's reply lets the page read Mcp-Session-Id", async () => {
    const reply = await serve().fetch(request("POST", PAGE, json, initialize));
    expect(reply.status).toBe(200);
    expect(reply.headers.get("mcp-session-id")).toMatch(/^[0-9a-f]{32}$/);
    expect(reply.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(reply.headers.get("access-control-expose-headers")).toContain(legacy.HttpHeader.sessionId);
    expect(reply.headers.get("vary")).toBe("Origin");
  });

  it("a gate's 401 carries CORS headers too, so the page can read WWW-Authenticate", async () => {
    const handler = serve({
      authorize: () => new Response(null, { status: 401, headers: { "www-authenticate": 'Bearer realm="mcp"' } }),
    });
    const reply = await handler.fetch(request("POST", PAGE, json, initialize));
    expect(reply.status).toBe(401);
    expect(reply.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(reply.headers.get("access-control-expose-headers")).toContain("WWW-Authenticate");
  });

  it("by default nothing but the server's own port is allowed: a listed-nowhere origin gets 403 and no CORS headers", async () => {
    const handler = serve({ allowedOrigins: [] });
    for (const method of ["OPTIONS", "POST"]) {
      const reply = await handler.fetch(request(method, PAGE, json, method === "POST" ? initialize : undefined));
      expect(reply.status).toBe(403);
      expect([...reply.headers.keys()].filter((name) => name.startsWith("access-control-"))).toEqual([]);
    }
    const own = await handler.fetch(request("OPTIONS", `http://${SERVER}`));
    expect([own.status, own.headers.get("access-control-allow-origin")]).toEqual([204, `http://${SERVER}`]);
  });

  it("with checkOrigin off, a foreign origin is served but gets no CORS headers (a browser keeps the reply from it)", async () => {
    const handler = serve({ checkOrigin: false });
    const refused = await handler.fetch(request("OPTIONS", "https://evil.example"));
    expect(refused.status).toBe(403);
    const reply = await handler.fetch(request("POST", "https://evil.example", json, initialize));
    expect(reply.status).toBe(200);
    expect(reply.headers.get("access-control-allow-origin")).toBeNull();
  });
});
