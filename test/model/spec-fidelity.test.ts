import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLock } from "../../generator/load/lock.ts";
import { sha256 } from "../../generator/load/read.ts";
import { appliesTo, loadFacts } from "../../generator/model/facts.ts";
import { PACKAGE_ROOT } from "../../generator/project/project.ts";
import { compareWithSpec, type Comparison, type Mismatch } from "../support/spec-fidelity.ts";
import { GENERATED_DIR } from "../support/test-tree.ts";

/**
 * Every generated type against the spec's own type of the same name (schema.ts, pinned in
 * schema/lock.json), both ways. Differences are allowed by kind and by name only; anything else
 * fails. Where schema.ts comes from, in order: <cache>/<v>/schema.ts as `pull` placed it, the
 * MCP_SCHEMA_DIR folder, the registry package the lock names as a stand-in; each checked by sha256.
 */
const lock = readLock([join(PACKAGE_ROOT, "schema", "lock.json")]);
const facts = loadFacts(join(PACKAGE_ROOT, "schema", "facts.json"));
const allowed = JSON.parse(
  readFileSync(join(PACKAGE_ROOT, "test", "fixtures", "fidelity", "allowed.json"), "utf8"),
) as Record<string, { closedSubtypes: string[]; objectSpelling: string[] }>;

interface Source {
  readonly file: string;
  readonly label: string;
}

/** The schema.ts copy to compare with, or why there is none. A copy with the wrong sha256 is an error, never a skip. */
function specSource(version: string): Source | string {
  const pin = lock.versions.get(version)?.typescript;
  if (pin === undefined) return "the lock pins no schema.ts";
  const candidates: Source[] = [
    {
      file: join(PACKAGE_ROOT, "node_modules", ".cache", "mcp-bindgen", version, "schema.ts"),
      label: "the cache's " + version + "/schema.ts",
    },
  ];
  const dir = process.env["MCP_SCHEMA_DIR"];
  if (dir !== undefined) candidates.push({ file: join(dir, version, "schema.ts"), label: "$MCP_SCHEMA_DIR" });
  for (const c of candidates) {
    if (!existsSync(c.file)) continue;
    expect(sha256(readFileSync(c.file)), `${c.file} against the lock`).toBe(pin.sha256);
    return c;
  }
  const standIn = pin.standIn;
  if (standIn === undefined)
    return "not pulled (no network when the schema was placed) and no registry package carries it";
  const file = join(PACKAGE_ROOT, "node_modules", standIn.package, standIn.path);
  expect(existsSync(file), `${standIn.package}@${standIn.version} is a devDependency and ships ${standIn.path}`).toBe(
    true,
  );
  expect(sha256(readFileSync(file)), `${file} against the lock's stand-in`).toBe(standIn.sha256);
  return { file, label: `${standIn.package}@${standIn.version} ${standIn.path}` };
}

type Kind = "closed-subtype" | "object-spelling" | "refinement";

/** Which allowed kind explains a mismatch, if any. */
function kindOf(version: string, m: Mismatch): Kind | undefined {
  const list = allowed[version];
  const closed = /Index signature for type 'string' is missing in type '(\w+)'/.exec(m.reason)?.[1];
  if (closed !== undefined && list?.closedSubtypes.includes(closed)) return "closed-subtype";
  if (closed === undefined && m.reason.includes("missing in type '{}'") && list?.objectSpelling.includes(m.name))
    return "object-spelling";
  const era = /export const ERA = "(legacy|modern)"/.exec(
    readFileSync(join(GENERATED_DIR, version, "index.ts"), "utf8"),
  )?.[1] as "legacy" | "modern";
  const refined = facts.typeRefinements.some(
    (r) => r.definition === m.name && appliesTo(r.versions, version, era) && m.reason.includes(JSON.stringify(r.const)),
  );
  return refined && m.direction === "spec-to-generated" ? "refinement" : undefined;
}

const versions = [...lock.versions.keys()].sort();
const sources = new Map(versions.map((v) => [v, specSource(v)]));
const compared = versions.filter((v) => typeof sources.get(v) !== "string");

describe("generated types against the spec's schema.ts", () => {
  it("runs for at least one release on every machine (CI: 2025-11-25 through the SDK's copy)", () => {
    expect(compared.length).toBeGreaterThan(0);
  });

  for (const version of versions) {
    const source = sources.get(version)!;
    if (typeof source === "string") {
      it.skip(`${version}: ${source}`, () => undefined);
      continue;
    }
    it(`${version} (${source.label}): same names, and every difference is an allowed kind for an allowed name`, () => {
      const result: Comparison = compareWithSpec(
        source.file,
        join(GENERATED_DIR, version, "types.ts"),
        join(PACKAGE_ROOT, "test", ".tmp", `fidelity-${version}`),
      );
      expect(result.compared.length).toBeGreaterThan(70);
      expect(result.generatedOnly).toEqual([]);
      expect(result.specOnly).toEqual([]);
      const unexplained = result.mismatches
        .filter((m) => kindOf(version, m) === undefined)
        .map((m) => `${m.name} (${m.direction}): ${m.reason}`);
      expect(unexplained).toEqual([]);
      // An allowance nothing needs any more is stale: drop it from the fixture.
      const used = new Set(result.mismatches.map((m) => /missing in type '(\w+)'/.exec(m.reason)?.[1] ?? m.name));
      expect(allowed[version]!.closedSubtypes.filter((n) => !used.has(n))).toEqual([]);
      expect(allowed[version]!.objectSpelling.filter((n) => !used.has(n))).toEqual([]);
    });
  }
});

describe("the comparison itself", () => {
  it("finds a difference of each kind, and one of no allowed kind, in a synthetic pair", () => {
    const dir = join(PACKAGE_ROOT, "test", "fixtures", "fidelity");
    const result = compareWithSpec(
      join(dir, "spec-sample.ts"),
      join(dir, "generated-sample.ts"),
      join(PACKAGE_ROOT, "test", ".tmp", "fidelity-sample"),
    );
    const found = result.mismatches.map((m) => `${m.name} ${m.direction}: ${m.reason}`);
    expect(found).toEqual([
      "JSONValue spec-to-generated: Type 'null' is not assignable to type 'JSONValue'.",
      "ListResult generated-to-spec: Index signature for type 'string' is missing in type 'ListResult'.",
      "Tool spec-to-generated: Type 'number' is not assignable to type 'string'.",
    ]);
    expect(result.generatedOnly).toEqual(["OnlyHere"]);
    expect(result.specOnly).toEqual(["OnlyThere"]);
  });
});
