import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { setFlagsFromString } from "node:v8";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { requireWithCodeCache, saveCodeCache } from "../generator/code-cache.ts";

/** A tiny CommonJS package: `index.js` requires `dep.js` and reports what Node's loader gives a module. */
function writePackage(root: string, depValue: string): void {
  mkdirSync(join(root, "pkg"), { recursive: true });
  writeFileSync(
    join(root, "pkg", "index.js"),
    `const dep = require("./dep.js");
module.exports = { dep, filename: __filename, dirname: __dirname, resolved: require.resolve("./dep.js"), sameModule: module.exports === exports, self: this === exports, later: () => dep.value };`,
  );
  writeFileSync(join(root, "pkg", "dep.js"), `exports.value = ${JSON.stringify(depValue)};`);
}

// V8 otherwise answers a second compile of the same text from memory, without looking at the
// cache it was given: each load here must compile as a fresh process would.
setFlagsFromString("--no-compilation-cache");

describe("requireWithCodeCache", () => {
  let root: string;
  let cache: string;
  const parent = () => join(root, "parent.js");
  /** Forgets the package's modules, as a new process would not have them. */
  const forget = () => {
    const loaded = createRequire(parent()).cache;
    for (const key of Object.keys(loaded)) if (key.startsWith(join(root, "pkg"))) delete loaded[key];
  };
  const load = () => {
    forget();
    return requireWithCodeCache("./pkg/index.js", parent(), cache);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "mcp-bindgen-code-cache-test-"));
    cache = join(root, "cache");
    writePackage(root, "one");
    saveCodeCache();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("loads modules as Node's loader does: exports, require, __filename, __dirname, this", () => {
    const { exports, report } = load();
    expect(exports).toMatchObject({
      dep: { value: "one" },
      filename: join(root, "pkg", "index.js"),
      dirname: join(root, "pkg"),
      resolved: join(root, "pkg", "dep.js"),
      sameModule: true,
      self: true,
    });
    expect(report).toEqual({ hits: 0, misses: 2 });
  });

  it("writes a cache on save and compiles from it the next time", () => {
    load();
    expect(readdirSync(cache)).toEqual([]);
    saveCodeCache();
    expect(readdirSync(cache)).toHaveLength(2);
    const { exports, report } = load();
    expect(report).toEqual({ hits: 2, misses: 0 });
    expect((exports as { later: () => string }).later()).toBe("one");
  });

  it("misses for a module whose text changed, and hits for the rest", () => {
    load();
    saveCodeCache();
    writePackage(root, "two");
    const { exports, report } = load();
    expect(report).toEqual({ hits: 1, misses: 1 });
    expect((exports as { dep: unknown }).dep).toEqual({ value: "two" });
  });

  it("compiles from source when a cache file is damaged, and replaces it", () => {
    load();
    saveCodeCache();
    for (const file of readdirSync(cache)) writeFileSync(join(cache, file), "not a code cache");
    const { exports, report } = load();
    expect(report).toEqual({ hits: 0, misses: 2 });
    expect((exports as { dep: unknown }).dep).toEqual({ value: "one" });
    saveCodeCache();
    expect(load().report).toEqual({ hits: 2, misses: 0 });
  });

  it("is a plain require with no folder, or one others can write to", () => {
    forget();
    expect(requireWithCodeCache("./pkg/index.js", parent(), null).report).toEqual({ hits: 0, misses: 0 });
    mkdirSync(cache);
    chmodSync(cache, 0o777);
    const { exports, report } = load();
    expect(report).toEqual({ hits: 0, misses: 0 });
    expect((exports as { dep: unknown }).dep).toEqual({ value: "one" });
    saveCodeCache();
    expect(readdirSync(cache)).toEqual([]);
  });

  it("passes a module's error on and puts Node's compile back", () => {
    const compile = (Module.prototype as unknown as { _compile: unknown })._compile;
    writeFileSync(join(root, "pkg", "dep.js"), `throw new Error("dep failed");`);
    expect(load).toThrow("dep failed");
    expect((Module.prototype as unknown as { _compile: unknown })._compile).toBe(compile);
  });
});
