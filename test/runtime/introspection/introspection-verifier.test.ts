import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIntrospectionVerifier } from "../../../generator/runtime/introspection/introspection-verifier.ts";
import { createBearerGate, createHttpHandler } from "../../../generated/index.js";
import * as modern from "../../../generated/2026-07-28/index.js";
import { startAuthorizationServer, type AuthorizationServer } from "../../support/authorization-server.ts";

// Opaque tokens: the test AS issues JWTs only for resources ending in /mcp.
const RESOURCE = "http://127.0.0.1:1/api";
const request = { method: "POST", path: "/api", headers: {} };

let as: AuthorizationServer;
beforeAll(async () => {
  as = await startAuthorizationServer();
});
afterAll(() => as.stop());

const verifier = (now?: () => number) =>
  createIntrospectionVerifier({
    issuer: as.issuer,
    audience: RESOURCE,
    clientId: as.client.id,
    clientSecret: as.client.secret,
    allowHttp: true,
    ...(now === undefined ? {} : { now }),
  });

/** Runs `body` with the AS down, and brings it back whatever happens. */
async function whileDown(body: () => Promise<void>): Promise<void> {
  await as.stop();
  try {
    await body();
  } finally {
    await as.restart();
  }
}

describe("createIntrospectionVerifier against a real authorization server (oidc-provider)", () => {
  it("names the caller of an active opaque token for this resource", async () => {
    const token = await as.token(RESOURCE);
    expect(token.split(".")).toHaveLength(1);
    const result = await verifier()(token, request);
    expect(result).toMatchObject({
      ok: true,
      identity: {
        subject: as.client.id,
        clientId: as.client.id,
        scopes: ["mcp:tools", "mcp:admin"],
        audience: [RESOURCE],
      },
    });
  });

  it("refuses a token for another resource, and one the server does not know", async () => {
    const verify = verifier();
    expect(await verify(await as.token("http://127.0.0.1:2/api"), request)).toEqual({
      ok: false,
      reason: "invalid",
      description: "The access token is for another resource",
    });
    expect(await verify("not-a-token-it-issued", request)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("keeps an answer until the token expires: the server is asked once, then not even when it is down", async () => {
    let clock = Date.now();
    const verify = verifier(() => clock);
    const token = await as.token(RESOURCE);
    expect((await verify(token, request)).ok).toBe(true);
    await whileDown(async () => {
      expect((await verify(token, request)).ok).toBe(true);
      // Past the cache's bound (300 s) the server is asked again, and cannot answer.
      clock += 301_000;
      expect(await verify(token, request)).toMatchObject({ ok: false, reason: "unavailable" });
    });
  });

  it("turns a server that is down into 503 at the gate: never a 200, never a crash, and serves again when it is back", async () => {
    const gate = createBearerGate({
      resource: RESOURCE,
      authorizationServers: [as.issuer],
      verify: createIntrospectionVerifier({
        issuer: as.issuer,
        audience: RESOURCE,
        clientId: as.client.id,
        clientSecret: as.client.secret,
        allowHttp: true,
      }),
      rules: [modern.RESOURCE_SERVER_RULES],
    });
    const handler = createHttpHandler({
      stateless: modern.statelessEra({ "tools/call": () => ({ content: [] }) }),
      authorize: gate.authorize,
      permit: gate.permit,
    });
    const call = (token: string) =>
      handler.fetch(
        new Request("http://127.0.0.1/api", {
          method: "POST",
          headers: {
            host: "127.0.0.1",
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            authorization: `Bearer ${token}`,
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "tools/call",
            "mcp-name": "x",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: {
              name: "x",
              arguments: {},
              _meta: {
                [modern.MetaKey.protocolVersion]: "2026-07-28",
                [modern.MetaKey.clientCapabilities]: {},
              },
            },
          }),
        }),
      );
    const token = await as.token(RESOURCE);
    await whileDown(async () => {
      const reply = await call(token);
      expect(reply.status).toBe(503);
      expect(await reply.text()).not.toContain(token);
    });
    // The restarted server kept no tokens (it stores them in memory): a new one passes.
    expect((await call(await as.token(RESOURCE))).status).toBe(200);
    handler.close();
  });

  it("gives up on a server that accepts and never answers: unavailable after timeoutMs, not a hung request", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const issuer = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const verify = createIntrospectionVerifier({
        issuer,
        audience: RESOURCE,
        clientId: "c",
        clientSecret: "s",
        allowHttp: true,
        timeoutMs: 100,
      });
      expect(await verify("any-token", request)).toMatchObject({ ok: false, reason: "unavailable" });
    } finally {
      silent.close();
    }
  });
});
