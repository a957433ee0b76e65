import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { checkOut, CONFIG_FILE, findConfig, readConfig, type Config, type ImportExtension } from "./config.ts";
import { BindgenError, UsageError } from "../common/failures.ts";
import type { ExtraName } from "../common/extras.ts";
import { PACKAGE_ROOT } from "../common/package-root.ts";
import type { Lock } from "../load/lock.ts";
import { storeLock, type SchemaStore } from "../load/pull.ts";
import type { OutputPaths } from "../output/generate-output.ts";
import { packageManager, runBinary, runScript } from "./package-manager.ts";
import { SNAPSHOT_FOLDER } from "../tools/snapshot.ts";

// The package's own paths start at its root, found from the code in common/ so that every stage can ask.
export { PACKAGE_ROOT };

/** The releases the package knows, pinned at one spec commit; a project's own lock adds to them. */
export const PACKAGE_LOCK: string = join(PACKAGE_ROOT, "schema", "lock.json");
export const PACKAGE_FACTS: string = join(PACKAGE_ROOT, "schema", "facts.json");
/** Beside the config: the releases the package does not know, recorded by `pull --update-lock`. */
export const PROJECT_LOCK_FILE = "mcp-bindgen.lock.json";

export function packageVersion(): string {
  return String(
    (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version?: unknown }).version,
  );
}

/** Where a project keeps its inputs and output. Tests point these at temporary folders. */
export type ProjectPaths = OutputPaths;

/** A project as every command sees it: its config with this run's overrides applied. */
export interface Project {
  readonly root: string;
  readonly configFile: string | undefined;
  readonly paths: ProjectPaths;
  /** The releases chosen by --release or the config; undefined means every release the locks know. */
  readonly releases: readonly string[] | undefined;
  readonly importExtension: ImportExtension;
  /** Whether the official examples the lock pins are placed in the cache too. */
  readonly examples: boolean;
  /** What the header of each file in a release folder tells the reader to run: a command that writes it as this run does. */
  readonly regenerateCommand: string;
  /** The same for the files outside the release folders, the root index among them: it names the releases when this run chose others than the config. */
  readonly rootRegenerateCommand: string;
  /** Whether the generated modules go without `@ts-nocheck`. */
  readonly typeCheckOutput: boolean;
  /** Optional runtime parts the config asks for (common/extras.ts). */
  readonly extras: readonly ExtraName[];
}

export interface ProjectOptions {
  /** Where to look for the config (upwards); default the working directory. */
  readonly cwd?: string | undefined;
  /** `--out`, `--release`, `--import-extension`: this run only. */
  readonly out?: string | undefined;
  readonly releases?: readonly string[] | undefined;
  readonly importExtension?: ImportExtension | undefined;
  /** Commands that write output need a config or --out; the others can work from the package's lock alone. */
  readonly needsOut?: boolean;
}

/** Finds the config from `cwd` upwards and applies the run's overrides. */
export function resolveProject(options: ProjectOptions = {}): Project {
  const start = resolve(options.cwd ?? process.cwd());
  const configFile = findConfig(start);
  const config = configFile ? readConfig(configFile) : undefined;
  const root = configFile ? dirname(configFile) : (nearestPackageDir(start) ?? start);
  if (!config && options.out === undefined && options.needsOut) {
    throw new UsageError(
      `no ${CONFIG_FILE} in ${start} or any folder above it: run "npx mcp-bindgen init" to create one, or name the output folder with --out DIR`,
    );
  }
  let outDir = join(root, config?.out ?? "generated");
  if (options.out !== undefined) {
    try {
      outDir = checkOut("--out", root, options.out);
    } catch (err) {
      if (err instanceof BindgenError) throw new UsageError(err.message);
      throw err;
    }
  }
  const checkout = root === PACKAGE_ROOT;
  const flags = overrideFlags(root, config, options, outDir);
  return {
    root,
    configFile,
    paths: {
      cacheDir: join(root, "node_modules", ".cache", "mcp-bindgen"),
      // In the tool's own checkout the package lock is the project's: a new release is added there.
      lockFile: checkout ? PACKAGE_LOCK : join(root, PROJECT_LOCK_FILE),
      packageLock: PACKAGE_LOCK,
      factsFile: PACKAGE_FACTS,
      outDir,
      toolSnapshots: Object.keys(config?.servers ?? {})
        .sort()
        .map((name) => join(root, SNAPSHOT_FOLDER, `${name}.json`)),
    },
    releases: options.releases && options.releases.length > 0 ? options.releases : config?.releases,
    importExtension: options.importExtension ?? config?.importExtension ?? ".js",
    examples: config?.examples ?? false,
    regenerateCommand: regenerateCommand(root, flags.files),
    rootRegenerateCommand: regenerateCommand(root, flags.root),
    typeCheckOutput: config?.typeCheckOutput ?? false,
    extras: config?.extras ?? [],
  };
}

/**
 * The chosen releases, newest first, each checked against the locks: an unknown one on the
 * command line is a usage error, in the config a bad-input error naming the file and key.
 */
export function chosenReleases(
  project: {
    readonly paths: SchemaStore;
    readonly releases: readonly string[] | undefined;
    readonly configFile: string | undefined;
  },
  fromCommandLine: boolean,
  lock: Lock = storeLock(project.paths),
): string[] {
  const known = [...lock.versions.keys()];
  if (project.releases === undefined) return known;
  project.releases.forEach((release, i) => {
    if (lock.versions.has(release)) return;
    const hint = `known: ${known.join(", ")}; a release the package does not know is added with "mcp-bindgen pull --release ${release} --from DIR|URL --update-lock"`;
    if (fromCommandLine || !project.configFile) throw new UsageError(`unknown release "${release}" (${hint})`);
    throw new BindgenError(
      project.configFile,
      `/releases/${i}`,
      "a release in the package's or the project's lock",
      `unknown release "${release}"; ${hint}`,
    );
  });
  return [...project.releases].sort().reverse();
}

function nearestPackageDir(start: string): string | undefined {
  for (let at = start; ; at = dirname(at)) {
    if (existsSync(join(at, "package.json"))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/**
 * The flags by which this run departs from the config, so a header can name a command that writes the same output:
 * `files` for every file, `root` for the files outside the release folders, which alone speak of the set of releases
 * (narrowing the run to some of the config's releases leaves the release folders as the config writes them).
 */
function overrideFlags(
  root: string,
  config: Config | undefined,
  options: ProjectOptions,
  outDir: string,
): { files: string[]; root: string[] } {
  const before: string[] = [];
  const after: string[] = [];
  if (options.out !== undefined && (!config || outDir !== join(root, config.out)))
    before.push("--out", relative(root, outDir).split(sep).join("/"));
  if (options.importExtension !== undefined && options.importExtension !== (config?.importExtension ?? ".js"))
    after.push("--import-extension", options.importExtension);
  const releases = [...new Set(options.releases ?? [])];
  const configured = config?.releases === undefined ? undefined : new Set(config.releases);
  const narrowing = configured === undefined || releases.every((r) => configured.has(r));
  if (releases.length === 0 || (configured !== undefined && narrowing && releases.length === configured.size))
    return { files: [...before, ...after], root: [...before, ...after] };
  const chosen = [...before, ...releases.flatMap((r) => ["-r", r]), ...after];
  return { files: narrowing ? [...before, ...after] : chosen, root: chosen };
}

/** A word as a POSIX shell reads it back: quoted only when it has to be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * With `flags` (this run overrides the config), the binary form with them; otherwise `<manager> run <script>` when
 * package.json has a script running the generator (as `init` adds), else the binary form; in the words of the
 * project's package manager (`npx mcp-bindgen`, `pnpm exec mcp-bindgen`, …).
 */
export function regenerateCommand(root: string, flags: readonly string[] = []): string {
  const manager = packageManager(root);
  if (flags.length > 0) return [`${runBinary(manager)} generate`, ...flags.map(shellWord)].join(" ");
  let scripts: Record<string, unknown> = {};
  try {
    scripts =
      (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts?: Record<string, unknown> }).scripts ??
      {};
  } catch {
    // No package.json (or an unreadable one): the npx form works anywhere.
  }
  const runs = Object.keys(scripts)
    .sort()
    .filter((name) => {
      const script = scripts[name];
      return typeof script === "string" && /(?:^|[\s/])(?:mcp-bindgen|cli\.[jt]s)\s+generate(?:\s|$)/.test(script);
    });
  const name = runs.includes("generate") ? "generate" : runs[0];
  return name ? runScript(manager, name) : `${runBinary(manager)} generate`;
}
