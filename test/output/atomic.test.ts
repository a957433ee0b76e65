import { spawn } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BindgenError } from "../../generator/common/failures.ts";
import { PACKAGE_ROOT } from "../../generator/project/project.ts";
import { acquireLock } from "../../generator/common/files.ts";
import { recoverTree, writeTree } from "../../generator/output/write.ts";
import {
  childEnv,
  fixture,
  freezeGenerator,
  plantMarkerTree,
  REAL_SCHEMA_DIR,
  runCli,
  runCliAsync,
  sha256,
  snapshotTree,
  spawnCli,
  tmpProject,
  type TmpProject,
} from "../support/tmp-project.ts";

/**
 * SIGKILL at random points must never leave generated/ mixed between old and new output, and
 * the next run must clean up after the dead one. Two generators at once must agree.
 */
type Tree = Record<string, string> | null;

/**
 * What the next command sees after a kill: recoverTree finishes a swap cut between its two renames, and moves the
 * user's files back from the retired tree when the kill came after the swap.
 */
function observe(target: string, old: Tree): { tree: Tree; midSwap: boolean } {
  const midSwap = snapshotTree(target) === null;
  if (midSwap) expect(snapshotTree(join(dirname(target), `.${basename(target)}.old`))).toEqual(old);
  recoverTree(target);
  return { tree: snapshotTree(target), midSwap };
}

/** A file of the user's inside the output folder: every kill and every run must leave it there, byte for byte. */
const USER_FILE = { path: "notes/mine.md", content: "the user's own notes\n" };
const withUserFile = (tree: Tree): Tree => ({ ...tree, [USER_FILE.path]: sha256(USER_FILE.content) });

/** Files as generate writes them: a root stamp lists them, so a later write may replace them. */
function stamped(files: Record<string, string>): Map<string, string> {
  const hashes = Object.fromEntries(Object.entries(files).map(([path, content]) => [path, sha256(content)]));
  return new Map([
    ...Object.entries(files),
    [".bindgen-stamp", JSON.stringify({ input: "test", versions: [], files: hashes })],
  ]);
}

function leftovers(target: string): string[] {
  return readdirSync(dirname(target)).filter((e) => e.startsWith(`.${basename(target)}.`));
}

/** Deterministic "random" delays, so a failure can be replayed. */
function delays(seed: number, n: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  });
}

describe("writeTree", () => {
  it("replaces the old tree with the new one, symlinks the user left included, and leaves only the new tree", () => {
    const root = mkdtempSync(join(tmpdir(), "mcp-bindgen-write-"));
    try {
      const target = join(root, "generated");
      writeTree(
        target,
        stamped({ "a/same.ts": "same\n", "a/changed.ts": "old\n", "gone.ts": "x", "linked.ts": "elsewhere\n" }),
      );
      writeFileSync(join(root, "elsewhere.ts"), "elsewhere\n");
      rmSync(join(target, "linked.ts"));
      symlinkSync(join(root, "elsewhere.ts"), join(target, "linked.ts"));
      writeFileSync(join(target, "a/mine.ts"), "mine\n");
      const kept = writeTree(
        target,
        stamped({ "a/same.ts": "same\n", "a/changed.ts": "new\n", "linked.ts": "elsewhere\n", "added.ts": "same\n" }),
      );
      // A file no stamp lists is moved into the new tree, not dropped with the old one.
      expect(kept).toEqual([{ path: "a/mine.ts", folder: false }]);
      const expected: Record<string, string> = {
        "a/same.ts": "same\n",
        "a/changed.ts": "new\n",
        "linked.ts": "elsewhere\n",
        "added.ts": "same\n",
        "a/mine.ts": "mine\n",
      };
      expect(Object.keys(snapshotTree(target)!).sort()).toEqual([...Object.keys(expected), ".bindgen-stamp"].sort());
      for (const [path, content] of Object.entries(expected))
        expect(readFileSync(join(target, path), "utf8")).toBe(content);
      // A symlink the user left in the tree is replaced by a file, even when it reads the same.
      expect(lstatSync(join(target, "linked.ts")).isFile()).toBe(true);
      expect(leftovers(target)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("recoverTree after a kill between the swap and the carry-over", () => {
  it("moves the user's files from the retired tree into the new one, then drops the retired tree", () => {
    const root = mkdtempSync(join(tmpdir(), "mcp-bindgen-write-"));
    try {
      const target = join(root, "generated");
      const retired = join(root, ".generated.old");
      writeTree(target, stamped({ "index.ts": "new\n" }));
      const old = plantMarkerTree(retired, USER_FILE);
      writeFileSync(join(retired, "2000-01-01", "mine.ts"), "mine\n");
      recoverTree(target);
      expect(readFileSync(join(target, USER_FILE.path), "utf8")).toBe(USER_FILE.content);
      expect(readFileSync(join(target, "2000-01-01", "mine.ts"), "utf8")).toBe("mine\n");
      // The old generation's own files went with it.
      expect(existsSync(join(target, "MARKER.txt"))).toBe(false);
      expect(existsSync(join(target, "2000-01-01", "types.ts"))).toBe(false);
      expect(existsSync(retired)).toBe(false);
      expect(Object.keys(old)).toContain(USER_FILE.path);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("keeps the retired tree, naming the file, when the new tree holds something at the same place", () => {
    const root = mkdtempSync(join(tmpdir(), "mcp-bindgen-write-"));
    try {
      const target = join(root, "generated");
      const retired = join(root, ".generated.old");
      writeTree(target, stamped({ [USER_FILE.path]: "generated\n" }));
      plantMarkerTree(retired, USER_FILE);
      expect(() => recoverTree(target)).toThrow(
        `${join(retired, USER_FILE.path)}: expected nothing at the same place in ${target}`,
      );
      expect(readFileSync(join(retired, USER_FILE.path), "utf8")).toBe(USER_FILE.content);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("a retired tree is dropped whole", () => {
  it("a dead run's half-deleted retired tree (renamed away first) is removed, and none of it joins the new tree", async () => {
    const root = mkdtempSync(join(tmpdir(), "mcp-bindgen-write-"));
    try {
      const target = join(root, "generated");
      writeTree(target, stamped({ "index.ts": "new\n" }));
      // A run killed while it deleted its retired tree: the stamp already gone, files it listed still there.
      const dead = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
      await new Promise((resolve) => dead.on("close", resolve));
      const doomed = join(root, `.generated.gone-${dead.pid}`);
      plantMarkerTree(doomed, USER_FILE);
      rmSync(join(doomed, ".bindgen-stamp"));
      recoverTree(target);
      expect(existsSync(doomed)).toBe(false);
      expect(existsSync(join(target, "MARKER.txt"))).toBe(false);
      writeTree(target, stamped({ "index.ts": "newer\n" }));
      expect(leftovers(target)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("the output lock", () => {
  let project: TmpProject;
  beforeAll(() => (project = tmpProject("mcp-bindgen-atomic-")));
  afterAll(() => project.cleanup());

  it("held by a live process: waits, then gives up with a message naming the holder", async () => {
    const target = project.paths.outDir;
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "ignore" });
    try {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(join(dirname(target), ".generated.lock"), String(holder.pid));
      expect(() => acquireLock(target, 300)).toThrow(
        new BindgenError(
          join(dirname(target), ".generated.lock"),
          "",
          `no other mcp-bindgen writing ${target}`,
          `pid ${holder.pid} holds the lock; waited 0.3s`,
        ),
      );
    } finally {
      holder.kill("SIGKILL");
      await new Promise((resolve) => holder.on("close", resolve));
    }
    // Its holder is dead now: the lock is taken over, and released cleanly.
    const release = acquireLock(target, 300);
    expect(readFileSync(join(dirname(target), ".generated.lock"), "utf8")).toBe(String(process.pid));
    release();
    expect(existsSync(join(dirname(target), ".generated.lock"))).toBe(false);
  });
});

describe("writeTree killed while writing", () => {
  let project: TmpProject;
  beforeAll(() => (project = tmpProject("mcp-bindgen-atomic-")));
  afterAll(() => project.cleanup());

  it("leaves the old or the new tree, never a mix, and the next writer recovers", async () => {
    const target = project.paths.outDir;
    const child = (tag: string) =>
      spawn(
        process.execPath,
        ["--import", "tsx", join(PACKAGE_ROOT, "test/support/write-tree-child.ts"), target, "500", tag],
        {
          cwd: PACKAGE_ROOT,
          env: childEnv(),
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
    const run = (tag: string) =>
      new Promise<number>((resolve) => {
        const c = child(tag);
        let t0 = 0;
        c.stdout.on("data", (d: Buffer) => {
          if (d.toString().includes("writing")) t0 = performance.now();
        });
        c.on("close", () => resolve(performance.now() - t0));
      });
    // Measure how long the write itself takes, and record what complete trees look like.
    await run("new");
    const NEW = withUserFile(snapshotTree(target));
    rmSync(target, { recursive: true });
    const OLD = plantMarkerTree(target, USER_FILE);
    const writeMs = Math.max(await run("probe"), 20);
    const outcomes = { old: 0, new: 0, midSwap: 0 };
    for (const fraction of delays(8, 6)) {
      rmSync(target, { recursive: true, force: true });
      plantMarkerTree(target, USER_FILE);
      const c = child("new");
      await new Promise<void>((resolve) => {
        c.stdout.on("data", (d: Buffer) => {
          if (d.toString().includes("writing")) setTimeout(() => c.kill("SIGKILL"), fraction * writeMs * 1.1);
        });
        c.on("close", () => resolve());
      });
      const { tree, midSwap } = observe(target, OLD);
      if (midSwap) outcomes.midSwap++;
      if (JSON.stringify(tree) === JSON.stringify(OLD)) outcomes.old++;
      else {
        expect(tree).toEqual(NEW);
        outcomes.new++;
      }
    }
    // Most kills land inside the write, so the old tree must have been seen (the test aimed right).
    expect(outcomes.old).toBeGreaterThan(0);
    await run("new");
    expect(snapshotTree(target)).toEqual(NEW);
    expect(leftovers(target)).toEqual([]);
  });
});

describe("mcp-bindgen generate killed at random points", () => {
  let project: TmpProject;
  let NEW: Tree;
  let OLD: Tree;
  let unfreeze: () => void;

  beforeAll(() => {
    unfreeze = freezeGenerator();
    project = tmpProject("mcp-bindgen-atomic-");
    // A real release makes the tree large enough for the kill to land while it is being written.
    const real = "2026-07-28";
    project.putSchema(real, readFileSync(join(REAL_SCHEMA_DIR, real, "schema.json")));
    project.putSchema("2031-01-01", fixture("legacy-minimal.json"));
    const r = runCli(["generate", "--project", project.root, "--quiet"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    NEW = withUserFile(snapshotTree(project.paths.outDir));
    expect(Object.keys(NEW ?? {}).length).toBeGreaterThan(1);
    rmSync(project.paths.outDir, { recursive: true });
    OLD = plantMarkerTree(project.paths.outDir, USER_FILE);
  });
  afterAll(() => {
    project.cleanup();
    unfreeze();
  });

  it("killed while it writes the new tree: the complete old or new tree is left; the next run recovers", async () => {
    const target = project.paths.outDir;
    const seen = { old: 0, new: 0, midWrite: 0 };
    for (const fraction of delays(42, 4)) {
      rmSync(target, { recursive: true, force: true });
      plantMarkerTree(target, USER_FILE);
      const child = spawnCli(["generate", "--project", project.root, "--quiet"]);
      // The staging tree appears when the write begins: the kill is aimed at the write itself.
      const staging = join(dirname(target), `.${basename(target)}.new-${child.pid}`);
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (!existsSync(staging)) return;
          clearInterval(poll);
          setTimeout(() => child.kill("SIGKILL"), fraction * 5);
        }, 1);
        child.on("close", () => {
          clearInterval(poll);
          resolve();
        });
      });
      // A staging tree left behind by the dead child means it died before the swap: mid-write.
      if (existsSync(staging)) seen.midWrite++;
      const { tree } = observe(target, OLD);
      if (JSON.stringify(tree) === JSON.stringify(OLD)) seen.old++;
      else {
        expect(tree).toEqual(NEW);
        seen.new++;
      }
    }
    expect(seen.midWrite, JSON.stringify(seen)).toBeGreaterThan(0);
    expect(seen.old).toBeGreaterThanOrEqual(seen.midWrite);
    const r = await runCliAsync(["generate", "--project", project.root, "--quiet"]);
    expect(r.code).toBe(0);
    expect(snapshotTree(target)).toEqual(NEW);
    expect(leftovers(target)).toEqual([]);
  });

  it("two generators at once both succeed and leave the same tree", async () => {
    const target = project.paths.outDir;
    rmSync(target, { recursive: true, force: true });
    plantMarkerTree(target, USER_FILE);
    const [a, b] = await Promise.all([
      runCliAsync(["generate", "--project", project.root, "--quiet"]),
      runCliAsync(["generate", "--project", project.root, "--quiet"]),
    ]);
    expect([a.code, a.stderr, b.code, b.stderr]).toEqual([0, "", 0, ""]);
    expect(snapshotTree(target)).toEqual(NEW);
    expect(leftovers(target)).toEqual([]);
  });
});
