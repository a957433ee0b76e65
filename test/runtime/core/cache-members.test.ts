import { describe, expect, it } from "vitest";
import { cacheFields } from "../../../generator/runtime/core/cache-members.ts";

const CACHE = { ttl: "ttlMs", scope: "cacheScope" };

describe("cacheFields", () => {
  it("writes nothing where the release's results have no cache members, whatever the options", () => {
    expect(cacheFields(null, { listTtlMs: 5, cacheScope: "private" }, "private")).toEqual({});
  });

  it("writes the members under the names it is given: 5 minutes and public by default", () => {
    expect(cacheFields(CACHE, {})).toEqual({ ttlMs: 300_000, cacheScope: "public" });
    expect(cacheFields({ ttl: "maxAge", scope: "audience" }, {})).toEqual({ maxAge: 300_000, audience: "public" });
  });

  it("takes the options' values, a scope given for the one result over the options'", () => {
    expect(cacheFields(CACHE, { listTtlMs: 0, cacheScope: "private" })).toEqual({ ttlMs: 0, cacheScope: "private" });
    expect(cacheFields(CACHE, { cacheScope: "public" }, "private")).toEqual({
      ttlMs: 300_000,
      cacheScope: "private",
    });
  });
});
