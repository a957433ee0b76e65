import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate as generateProject } from "../../generator/api.ts";
import {
  fixture,
  freezeGenerator,
  REAL_SCHEMA_DIR,
  runCli,
  snapshotTree,
  tmpProject,
  type TmpProject,
} from "../support/tmp-project.ts";

/**
 * The output is a function of the input's meaning only: byte-identical across runs, locales
 * and time zones, and when every object in the schema lists its keys in another order.
 */
const INPUTS: Record<string, Buffer> = {
  // One real release of each era, so every emitter runs on real input.
  "2026-07-28": readFileSync(join(REAL_SCHEMA_DIR, "2026-07-28", "schema.json")),
  "2025-06-18": readFileSync(join(REAL_SCHEMA_DIR, "2025-06-18", "schema.json")),
  "2031-01-01": fixture("legacy-minimal.json"),
};

/** Seeded shuffle of every object's keys (and of `required`, which is a set), arrays otherwise kept. */
function shuffled(value: unknown, next: () => number, key?: string): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => shuffled(v, next));
    return key === "required" ? permute(items, next) : items;
  }
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const k of permute(Object.keys(value), next)) out[k] = shuffled((value as Record<string, unknown>)[k], next, k);
  return out;
}

function permute<T>(items: T[], next: () => number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

/** The emitted modules, without the bookkeeping stamps (those record the input file's hash by design). */
const modules = (tree: Record<string, string> | null) =>
  Object.fromEntries(
    Object.entries(tree ?? {}).filter(([path]) => !path.split("/").some((part) => part.startsWith("."))),
  );

describe("deterministic output", () => {
  const projects: TmpProject[] = [];
  let unfreeze: () => void;
  let first: Record<string, string> | null;

  const project = (inputs: Record<string, Buffer>) => {
    const p = tmpProject("mcp-bindgen-determinism-");
    projects.push(p);
    for (const [version, bytes] of Object.entries(inputs)) p.putSchema(version, bytes);
    return p;
  };
  /** In process; the locale test needs a real process, since LANG and TZ are read at start-up. */
  // The project's own cached schemas, whatever MCP_SCHEMA_DIR says (CI sets it): a folder named there is read and
  // checked against the project's lock on every run, and these projects re-seal their releases.
  const generate = async (p: TmpProject, options: { force?: boolean } = {}) => {
    await generateProject({ cwd: p.root, schemaDir: "", ...options });
    return snapshotTree(p.paths.outDir);
  };
  const generateInChild = (p: TmpProject, env: Record<string, string>) => {
    const r = runCli(["generate", "--project", p.root, "--quiet"], env);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    return snapshotTree(p.paths.outDir);
  };

  beforeAll(() => {
    unfreeze = freezeGenerator();
  });
  afterAll(() => {
    projects.forEach((p) => p.cleanup());
    unfreeze();
  });

  it("two runs give byte-identical trees", async () => {
    const p = project(INPUTS);
    first = await generate(p);
    expect(Object.keys(modules(first)).length).toBeGreaterThan(0);
    expect(Object.keys(first!)).toContain("2031-01-01/index.ts");
    expect(await generate(p, { force: true })).toEqual(first);
  });

  it("LANG, LC_ALL and TZ do not change a byte", () => {
    const p = project(INPUTS);
    expect(
      generateInChild(p, { LANG: "tr_TR.UTF-8", LC_ALL: "tr_TR.UTF-8", LANGUAGE: "tr", TZ: "Pacific/Kiritimati" }),
    ).toEqual(first);
  });

  it("shuffled object keys (synthetic and real schemas) give the same modules", async () => {
    const next = rng(20310101);
    const inputs = Object.fromEntries(
      Object.entries(INPUTS).map(([version, bytes]) => [
        version,
        Buffer.from(JSON.stringify(shuffled(JSON.parse(bytes.toString("utf8")), next))),
      ]),
    );
    // The shuffle really changed the files.
    for (const version of Object.keys(INPUTS))
      expect(inputs[version]!.equals(Buffer.from(JSON.stringify(JSON.parse(INPUTS[version]!.toString()))))).toBe(false);
    const p = project(inputs);
    expect(modules(await generate(p))).toEqual(modules(first));
  });
});
