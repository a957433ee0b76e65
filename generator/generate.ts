import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { EmittedFile, RenderOptions } from "./emit/emitted.ts";
import { readLock, type Lock } from "./load/lock.ts";
import { verifySha256 } from "./load/load-schema.ts";
import { pull, schemaPath } from "./load/pull.ts";
import { sha256 } from "./load/read.ts";
import type { ProtocolModel } from "./model/protocol-model.ts";
import { loadModels, type LoadOptions, type ProjectPaths } from "./project.ts";
import { fileHashes, generatorHash, readStamp, readStampedFiles, rootInput, STAMP_FILE, stampText, versionInput, type RootStamp, type VersionStamp } from "./stamp.ts";
import { acquireLock, writeTree } from "./write.ts";

export interface VersionReport {
  readonly version: string;
  readonly era: string;
  readonly types: number;
  readonly methods: number;
  readonly errorCodes: number;
  /** Time spent formatting this version's modules; 0 when reused. */
  readonly ms: number;
  readonly status: "generated" | "reused";
}

export interface GenerateReport {
  readonly versions: readonly VersionReport[];
  readonly root: "generated" | "reused";
  /** Whether generated/ was replaced; false when everything was already up to date. */
  readonly written: boolean;
  readonly files: number;
  /** One emission pass over all versions (0 when nothing was rendered); per-version `ms` is formatting. */
  readonly emitMs: number;
  readonly ms: number;
}

export interface GenerateOptions extends LoadOptions, RenderOptions {
  /** Render every version even if its recorded input hash is unchanged. */
  readonly force?: boolean;
  /** Receives one line per version as it is done, then a summary line. */
  readonly progress?: (line: string) => void;
}

/**
 * Everything but the write: models → emitters → prettier, in memory, so `--check` can compare.
 * The emitters and prettier are imported here, on demand, so a run with nothing to render
 * never loads them.
 */
export async function render(models: readonly ProtocolModel[], options: RenderOptions = {}): Promise<EmittedFile[]> {
  const { emitAll } = await import("./emit/index.ts");
  const { formatFiles } = await import("./format.ts");
  return sortByPath((await formatFiles(emitAll(models, options))).map((f) => ({ path: f.path, content: f.content })));
}

/** Only what changes the output: a stamp made under other options never counts as up to date. */
function renderOptions(options: GenerateOptions): RenderOptions {
  return {
    ...(options.importExtension === undefined ? {} : { importExtension: options.importExtension }),
    ...(options.regenerateCommand === undefined ? {} : { regenerateCommand: options.regenerateCommand }),
  };
}

/**
 * Makes sure every locked schema is in place, pulling what is missing (the selected versions
 * from `--from` when given). The tree always holds every locked version, so narrowing a run
 * to some versions never drops the others' output.
 */
async function prepareSchemas(paths: ProjectPaths, options: LoadOptions): Promise<{ versions: string[]; selected: ReadonlySet<string>; lock: Lock }> {
  const lockFile = join(paths.schemaDir, "lock.json");
  const lock = readLock(lockFile);
  const versions = [...lock.versions.keys()];
  const selected = new Set(options.versions && options.versions.length > 0 ? options.versions : versions);
  const log = options.log ? { log: options.log } : {};
  const fromSource = options.from !== undefined ? [...selected] : [];
  const missing = versions.filter((v) => !fromSource.includes(v) && !existsSync(schemaPath(paths.schemaDir, v)));
  if (fromSource.length > 0) await pull({ schemaDir: paths.schemaDir, versions: fromSource, from: options.from, env: options.env, ...log });
  if (missing.length > 0) await pull({ schemaDir: paths.schemaDir, versions: missing, env: options.env, ...log });
  return { versions, selected, lock: fromSource.length + missing.length > 0 ? readLock(lockFile) : lock };
}

interface Plan {
  readonly version: string;
  readonly stamp: Omit<VersionStamp, "era" | "counts" | "files">;
  /** The previous run's record and files, when they can be reused as they are. */
  readonly reuse: { readonly stamp: VersionStamp; readonly files: Map<string, string> } | undefined;
}

/**
 * Writes generated/ for the requested versions. Each version's input hash (schema, facts,
 * generator source, prettier and ts-morph versions) is compared with the one recorded in
 * `generated/<version>/.bindgen-hash`; unchanged versions are copied from the current tree, the
 * others rendered, and the whole tree is swapped in at once. With nothing to do, nothing is
 * written and neither the emitters nor prettier are loaded.
 */
export async function generate(paths: ProjectPaths, options: GenerateOptions = {}): Promise<GenerateReport> {
  const started = performance.now();
  const { versions, selected, lock } = await prepareSchemas(paths, options);
  const rendering = renderOptions(options);
  // The render options are part of the generator's identity: other options, other output.
  const generator = Object.keys(rendering).length === 0 ? generatorHash() : sha256(`${generatorHash()}\n${JSON.stringify(rendering)}`);
  const facts = sha256(readFileSync(paths.factsFile));
  const plans: Plan[] = versions.map((version) => {
    const file = schemaPath(paths.schemaDir, version);
    const schema = sha256(readFileSync(file));
    const locked = lock.versions.get(version);
    if (locked) verifySha256(file, schema, locked.sha256);
    const stamp = { input: versionInput(schema, facts, generator), schema, facts, generator };
    const forced = options.force === true && selected.has(version);
    return { version, stamp, reuse: forced ? undefined : reusable(join(paths.generatedDir, version), stamp.input) };
  });
  const rootStamp = {
    input: rootInput(
      generator,
      plans.map((p) => ({ version: p.version, input: p.stamp.input })),
    ),
    versions,
  };
  const root = options.force === true || plans.some((p) => !p.reuse) ? undefined : reusableRoot(paths.generatedDir, rootStamp.input);

  if (root && plans.every((p) => p.reuse)) {
    const report = plans.map((p) => reusedReport(p.version, p.reuse!.stamp));
    for (const v of report) options.progress?.(progressLine(v));
    const ms = Math.round(performance.now() - started);
    options.progress?.(`${paths.generatedDir} is up to date: ${versions.length} versions unchanged (${ms} ms)`);
    const files = plans.reduce((n, p) => n + p.reuse!.files.size, root.size);
    return { versions: report, root: "reused", written: false, files, emitMs: 0, ms };
  }

  const models = await loadModels(paths, { versions, env: options.env });
  // One emission pass over every model: the root modules need them all, and it keeps this
  // path byte-identical to `render`. Only the versions that changed are formatted.
  const { emitAll } = await import("./emit/index.ts");
  const { formatFiles } = await import("./format.ts");
  const t0 = performance.now();
  const emitted = emitAll(models, rendering);
  const emitMs = Math.round(performance.now() - t0);
  const tree = new Map<string, string>();
  const report: VersionReport[] = [];
  for (const [i, plan] of plans.entries()) {
    const model = models[i]!;
    let entry: VersionReport;
    if (plan.reuse) {
      entry = reusedReport(plan.version, plan.reuse.stamp);
      for (const [name, content] of plan.reuse.files) tree.set(`${plan.version}/${name}`, content);
      tree.set(`${plan.version}/${STAMP_FILE}`, stampText(plan.reuse.stamp));
    } else {
      const t1 = performance.now();
      const prefix = `${plan.version}/`;
      const formatted = await formatFiles(emitted.filter((f) => f.path.startsWith(prefix)));
      const files = new Map(formatted.map((f) => [f.path.slice(prefix.length), f.content]));
      const counts = { types: model.definitions.size, methods: model.methods.length, errorCodes: model.errorCodes.length };
      const stamp: VersionStamp = { ...plan.stamp, era: model.era, counts, files: fileHashes(files) };
      for (const [name, content] of files) tree.set(prefix + name, content);
      tree.set(prefix + STAMP_FILE, stampText(stamp));
      entry = { version: plan.version, era: model.era, ...counts, ms: Math.round(performance.now() - t1), status: "generated" };
    }
    report.push(entry);
    options.progress?.(progressLine(entry));
  }
  // Everything outside the release folders: index.ts, runtime.ts and the shared runtime/.
  const inVersion = (path: string) => versions.some((v) => path.startsWith(`${v}/`));
  const rootFiles = new Map((await formatFiles(emitted.filter((f) => !inVersion(f.path)))).map((f) => [f.path, f.content]));
  for (const [name, content] of rootFiles) tree.set(name, content);
  tree.set(STAMP_FILE, stampText({ ...rootStamp, files: fileHashes(rootFiles) } satisfies RootStamp));

  const release = acquireLock(paths.generatedDir);
  try {
    writeTree(paths.generatedDir, tree);
  } finally {
    release();
  }
  const files = [...tree.keys()].filter((p) => !p.endsWith(STAMP_FILE)).length;
  const ms = Math.round(performance.now() - started);
  const rendered = report.filter((v) => v.status === "generated").length;
  options.progress?.(
    `generated ${rendered} of ${versions.length} versions (${versions.length - rendered} unchanged; emitting all modules took ${emitMs} ms); wrote ${files} files to ${paths.generatedDir} in ${ms} ms`,
  );
  return { versions: report, root: "generated", written: true, files, emitMs, ms };
}

function reusable(dir: string, input: string): Plan["reuse"] {
  const stamp = readStamp<VersionStamp>(dir);
  if (!stamp || stamp.input !== input || typeof stamp.files !== "object") return undefined;
  const files = readStampedFiles(dir, stamp.files);
  return files && { stamp, files };
}

function reusableRoot(dir: string, input: string): Map<string, string> | undefined {
  const stamp = readStamp<RootStamp>(dir);
  if (!stamp || stamp.input !== input || typeof stamp.files !== "object") return undefined;
  return readStampedFiles(dir, stamp.files);
}

function reusedReport(version: string, stamp: VersionStamp): VersionReport {
  return { version, era: stamp.era, ...stamp.counts, ms: 0, status: "reused" };
}

export function progressLine(v: VersionReport): string {
  const counts = `${v.types} types  ${v.methods} methods  ${v.errorCodes} error codes`;
  return `${v.version}  ${v.era.padEnd(6)}  ${counts}  ${v.status === "generated" ? `${v.ms} ms` : "unchanged"}`;
}

function sortByPath<T extends { readonly path: string }>(files: T[]): T[] {
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
