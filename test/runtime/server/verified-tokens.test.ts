// The memory of accepted tokens the JWT and introspection verifiers share (runtime/server/verified-tokens.ts).
import { describe, expect, it } from "vitest";
import type { BearerIdentity } from "../../../generator/runtime/server/bearer-gate.ts";
import { verifiedTokens } from "../../../generator/runtime/server/verified-tokens.ts";

const identity = (expiresAt: number | undefined): BearerIdentity => ({
  subject: "alice",
  clientId: "app",
  scopes: [],
  expiresAt,
  audience: ["https://mcp.example/mcp"],
  claims: {},
});

describe("verifiedTokens", () => {
  it("keeps a token until it expires or maxMs passes, whichever is first", () => {
    let now = 1_000_000;
    const cache = verifiedTokens({ size: 10, maxMs: 60_000, now: () => now });
    const soon = identity(now / 1000 + 10);
    const later = identity(now / 1000 + 3600);
    cache.remember("soon", soon);
    cache.remember("later", later);
    expect(cache.get("soon")).toBe(soon);
    now += 10_000;
    expect(cache.get("soon")).toBeUndefined();
    expect(cache.get("later")).toBe(later);
    now += 50_000;
    expect(cache.get("later")).toBeUndefined();
  });

  it("keeps no token without an expiry, none already expired, and none when maxMs or size is 0", () => {
    const now = 1_000_000;
    const cache = verifiedTokens({ size: 10, maxMs: 60_000, now: () => now });
    cache.remember("endless", identity(undefined));
    cache.remember("gone", identity(now / 1000 - 1));
    expect(cache.get("endless")).toBeUndefined();
    expect(cache.get("gone")).toBeUndefined();
    for (const off of [
      verifiedTokens({ size: 10, maxMs: 0, now: () => now }),
      verifiedTokens({ size: 0, maxMs: 60_000, now: () => now }),
    ]) {
      off.remember("t", identity(now / 1000 + 60));
      expect(off.get("t")).toBeUndefined();
    }
  });

  it("drops the oldest token when full", () => {
    const now = 1_000_000;
    const cache = verifiedTokens({ size: 2, maxMs: 60_000, now: () => now });
    for (const token of ["a", "b", "c"]) cache.remember(token, identity(now / 1000 + 60));
    expect(["a", "b", "c"].map((t) => cache.get(t) !== undefined)).toEqual([false, true, true]);
  });
});
