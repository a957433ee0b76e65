import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EXTRA_NAMES } from "../../generator/common/extras.ts";
import { PACKAGE_ROOT } from "../../generator/common/package-root.ts";
import { missingExtraPackages } from "../../generator/project/extra-packages.ts";

describe("missingExtraPackages: what generate tells a project that asked for an optional part", () => {
  let root: string | undefined;
  afterEach(() => root && rmSync(root, { recursive: true, force: true }));

  it("names each missing package once, with the parts that need it and the install command", () => {
    root = mkdtempSync(join(tmpdir(), "mcp-bindgen-extras-"));
    writeFileSync(join(root, "package.json"), "{}");
    expect(missingExtraPackages(root, ["introspection", "jwt", "oauth"])).toEqual([
      `extras "introspection", "oauth" import oauth4webapi, which this project does not have: npm install 'oauth4webapi@^3.8.0'`,
      `extras "jwt" import jose, which this project does not have: npm install 'jose@^6.2.0'`,
    ]);
  });

  it("says nothing when the project has the packages, or asked for none", () => {
    root = mkdtempSync(join(tmpdir(), "mcp-bindgen-extras-"));
    mkdirSync(join(root, "node_modules", "ioredis"), { recursive: true });
    writeFileSync(join(root, "node_modules", "ioredis", "package.json"), '{"name":"ioredis"}');
    expect(missingExtraPackages(root, ["redis"])).toEqual([]);
    expect(missingExtraPackages(PACKAGE_ROOT, EXTRA_NAMES)).toEqual([]);
    expect(missingExtraPackages(root, [])).toEqual([]);
  });
});
