// The bearer gate on createHttpHandler, driven through `fetch` as a client would, with a verifier that
// knows a few tokens: the 401/400/403/503 answers and their challenges per release, per-method and
// per-tool scopes, the identity handlers see, session owners, and a fuzz of Authorization headers.
import { afterEach, describe, expect, it } from "vitest";
import {
  createBearerGate,
  createHttpHandler,
  serveResourceMetadata,
  type BearerGateOptions,
  type BearerIdentity,
  type HttpHandler,
  type Verify,
} from "../../../generated/index.js";
import * as v2025_03_26 from "../../../generated/2025-03-26/index.js";
import * as v2025_06_18 from "../../../generated/2025-06-18/index.js";
import * as legacy from "../../../generated/2025-11-25/index.js";
import * as modern from "../../../generated/2026-07-28/index.js";

const RESOURCE = "http://127.0.0.1/mcp";
const METADATA = "http://127.0.0.1/.well-known/oauth-protected-resource/mcp";
const BASE = { host: "127.0.0.1", "content-type": "application/json", accept: "application/json, text/event-stream" };
const META = { [modern.MetaKey.protocolVersion]: "2026-07-28", [modern.MetaKey.clientCapabilities]: {} };

function identity(subject: string, scopes: string[]): BearerIdentity {
  return { subject, clientId: "app", scopes, expiresAt: undefined, audience: [RESOURCE], claims: { sub: subject } };
}

/** Tokens this verifier knows; "down" means its server cannot be reached. */
const TOKENS: Record<string, BearerIdentity> = {
  "alice-token": identity("alice", ["mcp:tools", "mcp:read"]),
  "bob-token": identity("bob", ["mcp:tools", "mcp:read"]),
  "reader-token": identity("carol", ["mcp:read"]),
};
const seenTokens: string[] = [];
const verify: Verify = (token) => {
  seenTokens.push(token);
  if (token === "down") return { ok: false, reason: "unavailable" };
  const found = TOKENS[token];
  return found === undefined ? { ok: false, reason: "invalid" } : { ok: true, identity: found };
};

const seen: unknown[] = [];
const seenHeaders: object[] = [];
const scopes: modern.ScopeTable<"deploy" | "echo"> = {
  all: ["mcp:read"],
  methods: { "tools/call": ["mcp:tools"] },
  tools: { deploy: ["mcp:deploy", "offline_access"] },
};

let opened: HttpHandler[] = [];
afterEach(() => {
  for (const handler of opened) handler.close();
  opened = [];
  seen.length = 0;
});

function serve(options: Partial<BearerGateOptions> = {}): HttpHandler {
  const gate = createBearerGate({
    resource: RESOURCE,
    authorizationServers: ["https://as.example"],
    verify,
    rules: [
      modern.RESOURCE_SERVER_RULES,
      legacy.RESOURCE_SERVER_RULES,
      v2025_06_18.RESOURCE_SERVER_RULES,
      v2025_03_26.RESOURCE_SERVER_RULES,
    ],
    scopes,
    ...options,
  });
  const call = (name: string, ctx: { context: { identity?: unknown; headers: object } }) => {
    seen.push(ctx.context.identity);
    seenHeaders.push(ctx.context.headers);
    return { content: [{ type: "text" as const, text: name }] };
  };
  const handler = createHttpHandler({
    stateless: modern.statelessEra({ "tools/call": (params, ctx) => call(params.name, ctx) }),
    sessions: legacy.sessionEra({
      initialize: () => ({
        protocolVersion: legacy.PROTOCOL_VERSION,
        capabilities: { tools: {} },
        serverInfo: { name: "s", version: "1" },
      }),
      "notifications/initialized": () => undefined,
      "tools/call": (params, ctx) => call(params.name, ctx),
    }),
    path: "/mcp",
    authorize: gate.authorize,
    permit: gate.permit,
  });
  const served = serveResourceMetadata(handler, gate.metadata);
  opened.push(served);
  return served;
}

const modernCall = (name: string, token?: string, version = "2026-07-28") =>
  new Request(RESOURCE, {
    method: "POST",
    headers: {
      ...BASE,
      "mcp-protocol-version": version,
      "mcp-method": "tools/call",
      "mcp-name": name,
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {}, _meta: META } }),
  });

const post = (handler: HttpHandler, body: unknown, headers: Record<string, string>) =>
  handler.fetch(
    new Request(RESOURCE, { method: "POST", headers: { ...BASE, ...headers }, body: JSON.stringify(body) }),
  );

const initialize = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
};
const legacyCall = (name: string) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } });

describe("createBearerGate on createHttpHandler", () => {
  it("answers a request without a token 401, pointing at the metadata, with the scope every request needs (2026-07-28)", async () => {
    const reply = await serve().fetch(modernCall("echo"));
    expect(reply.status).toBe(401);
    expect(reply.headers.get("www-authenticate")).toBe(`Bearer scope="mcp:read", resource_metadata="${METADATA}"`);
  });

  it.each([
    ["2025-11-25", `Bearer scope="mcp:read", resource_metadata="${METADATA}"`],
    ["2025-06-18", `Bearer resource_metadata="${METADATA}"`],
    ["2025-03-26", "Bearer"],
  ])("reads the 401's challenge from the request's release: %s", async (version, challenge) => {
    const reply = await post(serve(), initialize, { "mcp-protocol-version": version });
    expect(reply.status).toBe(401);
    expect(reply.headers.get("www-authenticate")).toBe(challenge);
  });

  it("answers an invalid token 401 invalid_token, and never with the token", async () => {
    const reply = await serve().fetch(modernCall("echo", "forged.token.value"));
    expect(reply.status).toBe(401);
    const challenge = reply.headers.get("www-authenticate")!;
    expect(challenge).toMatch(
      /^Bearer error="invalid_token", error_description="[^"]+", scope="mcp:read", resource_metadata=/,
    );
    expect(challenge + (await reply.text())).not.toContain("forged");
  });

  it("never takes a token from the query", async () => {
    const handler = serve();
    seenTokens.length = 0;
    const request = modernCall("echo");
    const reply = await handler.fetch(new Request(`${RESOURCE}?access_token=alice-token`, request));
    expect(reply.status).toBe(401);
    expect(seenTokens).toEqual([]);
  });

  it("passes a good token and hands the handler the identity, without the token", async () => {
    const reply = await serve().fetch(modernCall("echo", "alice-token"));
    expect(reply.status).toBe(200);
    expect(seen).toEqual([TOKENS["alice-token"]]);
    expect(seenHeaders.at(-1)).toMatchObject({ "mcp-name": "echo" });
    expect(seenHeaders.at(-1)).not.toHaveProperty("authorization");
    expect(JSON.stringify([seen, seenHeaders])).not.toContain("alice-token");
  });

  it("answers 403 insufficient_scope naming every scope a method needs (2026-07-28: only those)", async () => {
    const reply = await serve().fetch(modernCall("echo", "reader-token"));
    expect(reply.status).toBe(403);
    expect(reply.headers.get("www-authenticate")).toBe(
      `Bearer error="insufficient_scope", error_description="The access token lacks a scope this request needs", scope="mcp:read mcp:tools", resource_metadata="${METADATA}"`,
    );
    expect(seen).toEqual([]);
  });

  it("adds a tool's own scopes, leaving out offline_access in 2026-07-28", async () => {
    const reply = await serve().fetch(modernCall("deploy", "alice-token"));
    expect(reply.status).toBe(403);
    expect(reply.headers.get("www-authenticate")).toContain('scope="mcp:read mcp:tools mcp:deploy"');
  });

  it("names the granted scopes too in a 2025-11-25 session's 403 (the recommended approach)", async () => {
    const handler = serve();
    const opened = await post(handler, initialize, { authorization: "Bearer alice-token" });
    expect(opened.status).toBe(200);
    const session = opened.headers.get("mcp-session-id")!;
    const headers = {
      authorization: "Bearer alice-token",
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-11-25",
    };
    const reply = await post(handler, legacyCall("deploy"), headers);
    expect(reply.status).toBe(403);
    expect(reply.headers.get("www-authenticate")).toContain('scope="mcp:tools mcp:read mcp:deploy offline_access"');
    expect((await post(handler, legacyCall("echo"), headers)).status).toBe(200);
  });

  it("gives a 2025 session to its opener alone: another subject's good token gets 404 on it", async () => {
    const handler = serve();
    const opened = await post(handler, initialize, { authorization: "Bearer alice-token" });
    const session = opened.headers.get("mcp-session-id")!;
    const as = (token: string) => ({
      authorization: `Bearer ${token}`,
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-11-25",
    });
    expect((await post(handler, legacyCall("echo"), as("bob-token"))).status).toBe(404);
    expect((await post(handler, legacyCall("echo"), as("alice-token"))).status).toBe(200);
  });

  it("answers 503 with Retry-After when the verifier cannot reach its server, never 200", async () => {
    const reply = await serve().fetch(modernCall("echo", "down"));
    expect(reply.status).toBe(503);
    expect(reply.headers.get("retry-after")).toBe("5");
    expect(seen).toEqual([]);
  });

  it("serves the protected resource metadata at the path-aware and the root well-known URIs", async () => {
    const handler = serve();
    for (const url of [METADATA, "http://127.0.0.1/.well-known/oauth-protected-resource"]) {
      const reply = await handler.fetch(new Request(url));
      expect(reply.status).toBe(200);
      expect(reply.headers.get("access-control-allow-origin")).toBe("*");
      expect(await reply.json()).toEqual({
        resource: RESOURCE,
        authorization_servers: ["https://as.example"],
        scopes_supported: ["mcp:read", "mcp:tools", "mcp:deploy"],
        bearer_methods_supported: ["header"],
      });
    }
    expect((await handler.fetch(new Request("http://127.0.0.1/.well-known/other", { headers: BASE }))).status).toBe(
      404,
    );
  });

  it.each([
    ["empty", "", 400],
    ["the scheme alone", "Bearer", 400],
    ["two tokens", "Bearer alice-token bob-token", 400],
    ["two headers joined", "Bearer alice-token, Bearer bob-token", 400],
    ["a huge token", `Bearer ${"a".repeat(20_000)}`, 400],
    ["non-ASCII", "Bearer tökén", 400],
    ["Basic", `Basic ${Buffer.from("alice:pw").toString("base64")}`, 401],
    ["a lower-case scheme and an unknown token", "bearer nobody", 401],
    ["a token with a quote", 'Bearer a"b', 400],
  ])("answers an Authorization header that is %s with one %s, and keeps serving", async (_, value, status) => {
    const handler = serve();
    const reply = await handler.fetch(new Request(modernCall("echo"), { headers: { ...BASE, authorization: value } }));
    expect(reply.status).toBe(status);
    expect(reply.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await handler.fetch(modernCall("echo", "alice-token"))).status).toBe(200);
  });

  it("takes a lower-case scheme with a good token (schemes are case-insensitive)", async () => {
    const handler = serve();
    const reply = await handler.fetch(
      new Request(modernCall("echo"), {
        headers: {
          ...BASE,
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "echo",
          authorization: "bearer alice-token",
        },
      }),
    );
    expect(reply.status).toBe(200);
  });
});
