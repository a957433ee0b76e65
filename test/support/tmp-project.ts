import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { main } from "../../generator/cli.ts";
import { PACKAGE_ROOT, type ProjectPaths } from "../../generator/project/project.ts";

/** Real schemas for tests that need one: the shared folder when given, else the copies `npm run generate` placed in the cache. */
/** Absolute, so tests that run the tool in another folder (a fresh app) still find it; CI passes a relative path. */
const schemaDirOverride = process.env["MCP_SCHEMA_DIR"];
export const REAL_SCHEMA_DIR = schemaDirOverride
  ? resolve(schemaDirOverride)
  : join(PACKAGE_ROOT, "node_modules", ".cache", "mcp-bindgen");
export const FIXTURES = join(PACKAGE_ROOT, "test", "fixtures", "schemas");

/** Nothing listens on port 1: a lock URL that can never be fetched by accident. */
export const DEAD_URL = "http://127.0.0.1:1";

export function sha256(bytes: string | Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export function fixture(name: string): Buffer {
  return readFileSync(join(FIXTURES, name));
}

type LockJson = Record<string, { url: string; sha256: string; examples?: Record<string, string> }>;

export interface TmpProject {
  readonly root: string;
  /** The project as the generator sees it in process: its own lock only (not the package's), its own facts.json. */
  readonly paths: ProjectPaths;
  /** The releases its config chooses, newest first. */
  releases(): string[];
  schemaFile(version: string): string;
  /** Caches `<version>/schema.json`, adds the release to the config and (unless told otherwise) pins it in the project's lock. */
  putSchema(version: string, bytes: string | Uint8Array, lock?: { sha256?: string; url?: string } | false): void;
  /** Adds releases to the config's `releases`. */
  choose(...versions: string[]): void;
  setLock(entries: LockJson): void;
  readLock(): LockJson;
  cleanup(): void;
}

/** A throwaway user project (package.json, mcp-bindgen.config.json, its own lock and facts.json) in the OS temp folder. */
export function tmpProject(prefix = "mcp-bindgen-test-"): TmpProject {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const paths: ProjectPaths = {
    cacheDir: join(root, "node_modules", ".cache", "mcp-bindgen"),
    lockFile: join(root, "mcp-bindgen.lock.json"),
    factsFile: join(root, "facts.json"),
    outDir: join(root, "generated"),
  };
  writeFileSync(
    join(root, "package.json"),
    JSON.stringify({ name: "tmp-app", private: true, type: "module" }, null, 2) + "\n",
  );
  cpSync(join(PACKAGE_ROOT, "schema", "facts.json"), paths.factsFile);
  const configFile = join(root, "mcp-bindgen.config.json");
  const config = (): { out: string; releases?: string[] } =>
    JSON.parse(readFileSync(configFile, "utf8")) as { out: string; releases?: string[] };
  writeFileSync(configFile, JSON.stringify({ out: "generated" }, null, 2) + "\n");
  writeFileSync(paths.lockFile, JSON.stringify({ versions: {} }, null, 2) + "\n");
  const project: TmpProject = {
    root,
    paths,
    releases: () => [...(config().releases ?? [])].sort().reverse(),
    schemaFile: (version) => join(paths.cacheDir, version, "schema.json"),
    putSchema(version, bytes, lock = {}) {
      mkdirSync(join(paths.cacheDir, version), { recursive: true });
      writeFileSync(project.schemaFile(version), bytes);
      project.choose(version);
      if (lock === false) return;
      const entries = project.readLock();
      entries[version] = {
        url: lock.url ?? `${DEAD_URL}/${version}/schema.json`,
        sha256: lock.sha256 ?? sha256(bytes),
      };
      project.setLock(entries);
    },
    choose(...versions) {
      const c = config();
      const releases = [...new Set([...(c.releases ?? []), ...versions])];
      writeFileSync(configFile, JSON.stringify({ ...c, releases }, null, 2) + "\n");
    },
    setLock(entries) {
      writeFileSync(paths.lockFile, JSON.stringify({ versions: entries }, null, 2) + "\n");
    },
    readLock() {
      return (JSON.parse(readFileSync(paths.lockFile, "utf8")) as { versions: LockJson }).versions;
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
  return project;
}

/** relative path → sha256 of every file under `dir` (sorted), or null when `dir` does not exist. */
export function snapshotTree(dir: string): Record<string, string> | null {
  if (!existsSync(dir)) return null;
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const entry of readdirSync(d).sort()) {
      const path = join(d, entry);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(dir, path)] = sha256(readFileSync(path));
    }
  };
  walk(dir);
  return out;
}

/**
 * A generated/ tree that no generator would write, so "untouched" is easy to see. It is stamped as an earlier
 * generation (its stamps list its files), so generate may replace it; `userFile` adds a file no stamp lists.
 */
export function plantMarkerTree(dir: string, userFile?: { path: string; content: string }): Record<string, string> {
  const marker = "written by the test, must survive a failed run\n";
  const types = "export type Old = 1;\n";
  mkdirSync(join(dir, "2000-01-01"), { recursive: true });
  writeFileSync(join(dir, "MARKER.txt"), marker);
  writeFileSync(join(dir, "2000-01-01", "types.ts"), types);
  writeFileSync(
    join(dir, ".bindgen-stamp"),
    JSON.stringify({ input: "marker", versions: ["2000-01-01"], files: { "MARKER.txt": sha256(marker) } }),
  );
  writeFileSync(
    join(dir, "2000-01-01", ".bindgen-stamp"),
    JSON.stringify({ input: "marker", files: { "types.ts": sha256(types) } }),
  );
  if (userFile) {
    mkdirSync(dirname(join(dir, userFile.path)), { recursive: true });
    writeFileSync(join(dir, userFile.path), userFile.content);
  }
  return snapshotTree(dir)!;
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment for a CLI child: no MCP_SCHEMA_DIR leaking in from the test run unless given. */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env["MCP_SCHEMA_DIR"];
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Where spawned CLIs run from: the repo, or a frozen copy of its generator (see freezeGenerator). */
let cliRoot = PACKAGE_ROOT;
const nodeArgs = () => ["--import", "tsx", join(cliRoot, "generator", "cli.ts")];

/**
 * Runs spawned CLIs from a private copy of generator/ (node_modules linked), so tests that
 * compare the output of several runs are not disturbed by edits to the working tree meanwhile
 * (the output and its stamps depend on every generator file). Returns the cleanup.
 */
export function freezeGenerator(): () => void {
  const root = mkdtempSync(join(tmpdir(), "mcp-bindgen-frozen-"));
  cpSync(join(PACKAGE_ROOT, "generator"), join(root, "generator"), { recursive: true });
  cpSync(join(PACKAGE_ROOT, "package.json"), join(root, "package.json"));
  for (const file of ["lock.json", "facts.json"])
    cpSync(join(PACKAGE_ROOT, "schema", file), join(root, "schema", file));
  symlinkSync(join(PACKAGE_ROOT, "node_modules"), join(root, "node_modules"), "dir");
  cliRoot = root;
  return () => {
    cliRoot = PACKAGE_ROOT;
    rmSync(root, { recursive: true, force: true });
  };
}

/** Runs the real CLI to completion (synchronously: a handful per file). */
export function runCli(args: readonly string[], env: Record<string, string | undefined> = {}): CliResult {
  const r = spawnSync(process.execPath, [...nodeArgs(), ...args], {
    cwd: cliRoot,
    env: childEnv(env),
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the real CLI without blocking the event loop (needed when the test also serves HTTP). */
export function runCliAsync(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs(), ...args], { cwd: cliRoot, env: childEnv(env) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Starts the CLI and returns the child, for tests that kill it. */
export function spawnCli(args: readonly string[], env: Record<string, string | undefined> = {}) {
  return spawn(process.execPath, [...nodeArgs(), ...args], {
    cwd: cliRoot,
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * Runs a command line in this process through `main`, as the CLI would from `cwd`. MCP_SCHEMA_DIR
 * is what `env` says (unset by default, as for a spawned CLI), restored afterwards.
 */
export async function runMain(
  args: readonly string[],
  cwd: string,
  env: { MCP_SCHEMA_DIR?: string } = {},
): Promise<CliResult> {
  const saved = process.env["MCP_SCHEMA_DIR"];
  if (env.MCP_SCHEMA_DIR === undefined) delete process.env["MCP_SCHEMA_DIR"];
  else process.env["MCP_SCHEMA_DIR"] = env.MCP_SCHEMA_DIR;
  let stdout = "";
  let stderr = "";
  try {
    const code = await main(args, { cwd, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
    return { code, signal: null, stdout, stderr };
  } finally {
    if (saved === undefined) delete process.env["MCP_SCHEMA_DIR"];
    else process.env["MCP_SCHEMA_DIR"] = saved;
  }
}
