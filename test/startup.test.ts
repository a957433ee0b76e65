import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../generator/project/project.ts";

/**
 * What a run loads before it knows it has work: ts-morph, with all of TypeScript, is the largest
 * part of a cold run's start-up (1 s and more on a busy machine), so the CLI must import it only
 * on the paths that build models or render. A child process, since this runner has loaded it
 * already; both are CommonJS, so the require cache shows them.
 */
const PROBE = `
import { createRequire } from "node:module";
await import(${JSON.stringify(join(PACKAGE_ROOT, "generator", "cli.ts"))});
const loaded = Object.keys(createRequire(import.meta.url).cache);
process.stdout.write(JSON.stringify(loaded.filter((path) => /[\\\\/]node_modules[\\\\/](ts-morph|@ts-morph|typescript)[\\\\/]/.test(path))));
`;

describe("start-up", () => {
  it("importing the CLI loads neither ts-morph nor TypeScript", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", PROBE], {
      cwd: PACKAGE_ROOT,
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual([]);
  });
});
