import { base64url, SignJWT } from "jose";
import { createServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJwtVerifier } from "../../../generator/runtime/jwt/jwt-verifier.ts";
import type { Verify } from "../../../generator/runtime/server/bearer-gate.ts";
import {
  signingKey,
  startAuthorizationServer,
  type AuthorizationServer,
  type SigningKey,
} from "../../support/authorization-server.ts";

const RESOURCE = "http://127.0.0.1:1/mcp";
const request = { method: "POST", path: "/mcp", headers: {} };

let as: AuthorizationServer;
let key: SigningKey;
let verify: Verify;

beforeAll(async () => {
  key = await signingKey("key-1");
  as = await startAuthorizationServer([key]);
  verify = createJwtVerifier({ issuer: as.issuer, audience: RESOURCE, jwksCooldownMs: 0 });
});
afterAll(() => as.stop());

/** A token as the AS would sign it, with `claims` changed. */
function forged(claims: Record<string, unknown>, signer: SigningKey = key): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: as.issuer,
    sub: "alice",
    aud: RESOURCE,
    iat: now,
    exp: now + 600,
    scope: "mcp:tools",
    ...claims,
  };
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "RS256", kid: signer.jwk.kid!, typ: "at+jwt" })
    .sign(signer.privateKey);
}

describe("createJwtVerifier against a real authorization server (oidc-provider)", () => {
  it("names the caller of a token issued for this resource: subject, client, scopes, expiry, audience, claims", async () => {
    const result = await verify(await as.token(RESOURCE), request);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.identity).toMatchObject({
      subject: as.client.id,
      clientId: as.client.id,
      scopes: expect.arrayContaining(["mcp:tools", "mcp:admin"]),
      audience: [RESOURCE],
    });
    expect(result.identity.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(result.identity.claims["iss"]).toBe(as.issuer);
  });

  it("refuses a token the same server issued for another resource (the audience)", async () => {
    const result = await verify(await as.token("http://127.0.0.1:2/mcp"), request);
    expect(result).toEqual({ ok: false, reason: "invalid", description: "The access token is for another resource" });
  });

  it.each([
    ["expired", { exp: Math.floor(Date.now() / 1000) - 120 }, "The access token has expired"],
    ["not yet valid", { nbf: Math.floor(Date.now() / 1000) + 120 }, "The access token is not valid yet"],
    ["from another issuer", { iss: "http://127.0.0.1:9/other" }, "The access token's claims are not valid here"],
  ])("refuses a token %s", async (_, claims, description) => {
    expect(await verify(await forged(claims), request)).toEqual({ ok: false, reason: "invalid", description });
  });

  it("takes a token expired within the clock tolerance", async () => {
    expect((await verify(await forged({ exp: Math.floor(Date.now() / 1000) - 5 }), request)).ok).toBe(true);
  });

  it("refuses a token signed by a key the issuer does not publish", async () => {
    const result = await verify(await forged({}, await signingKey("stranger")), request);
    expect(result).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("refuses an unsigned token (alg none) and an HMAC one keyed with the public key's id", async () => {
    const good = (await forged({})).split(".");
    const none = `${base64url.encode(JSON.stringify({ alg: "none", kid: "key-1" }))}.${good[1]}.`;
    const hmac = await new SignJWT({ scope: "mcp:tools" })
      .setProtectedHeader({ alg: "HS256", kid: "key-1" })
      .setIssuer(as.issuer)
      .setSubject("alice")
      .setAudience(RESOURCE)
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode(JSON.stringify(key.jwk)));
    for (const token of [none, hmac])
      expect(await verify(token, request)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("follows a key rotation: a token signed by a new key is checked against the refetched key set", async () => {
    expect((await verify(await as.token(RESOURCE), request)).ok).toBe(true);
    const next = await signingKey("key-2");
    await as.restart([next, key]);
    const token = await as.token(RESOURCE);
    expect(JSON.parse(new TextDecoder().decode(base64url.decode(token.split(".")[0]!)))).toMatchObject({
      kid: "key-2",
    });
    expect((await verify(token, request)).ok).toBe(true);
  });

  it("says unavailable, not invalid, when the issuer cannot be reached, and recovers when it is back", async () => {
    const fresh = createJwtVerifier({ issuer: as.issuer, audience: RESOURCE });
    const token = await as.token(RESOURCE);
    await as.stop();
    try {
      expect(await fresh(token, request)).toMatchObject({ ok: false, reason: "unavailable" });
    } finally {
      await as.restart();
    }
    expect((await fresh(token, request)).ok).toBe(true);
  });

  it("answers a token it accepted from memory until maxCacheSeconds, then checks it again; never past its exp", async () => {
    let now = Date.now();
    const remembering = createJwtVerifier({
      issuer: as.issuer,
      audience: RESOURCE,
      now: () => now,
      maxCacheSeconds: 60,
    });
    const token = await forged({ exp: Math.floor(now / 1000) + 90 });
    const first = await remembering(token, request);
    expect(first.ok).toBe(true);
    // The same identity object: no second signature check.
    expect(await remembering(token, request)).toEqual(first);
    expect(((await remembering(token, request)) as typeof first & { ok: true }).identity).toBe(
      (first as typeof first & { ok: true }).identity,
    );
    now += 61_000;
    const again = await remembering(token, request);
    expect(again.ok).toBe(true);
    expect((again as typeof again & { ok: true }).identity).not.toBe((first as typeof first & { ok: true }).identity);
    now += 60_000;
    expect(await remembering(token, request)).toEqual({
      ok: false,
      reason: "invalid",
      description: "The access token has expired",
    });
    const checking = createJwtVerifier({ issuer: as.issuer, audience: RESOURCE, maxCacheSeconds: 0 });
    const one = await checking(token, request);
    const two = await checking(token, request);
    expect(one.ok && two.ok && one.identity !== two.identity).toBe(true);
  });

  it("refuses to be built with no asymmetric algorithm (none, HS256)", () => {
    expect(() => createJwtVerifier({ issuer: as.issuer, audience: RESOURCE, algorithms: ["none", "HS256"] })).toThrow(
      TypeError,
    );
  });

  it("gives up on an issuer that accepts and never answers: unavailable after timeoutMs, not a hung request", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const issuer = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const hung = createJwtVerifier({ issuer, audience: RESOURCE, timeoutMs: 100 });
      expect(await hung(await forged({}), request)).toMatchObject({ ok: false, reason: "unavailable" });
    } finally {
      silent.close();
    }
  });
});
