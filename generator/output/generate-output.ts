import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { EmittedFile, RenderOptions } from "../emit/emitted.ts";
import { formatFiles } from "./format.ts";
import { verifySha256 } from "../load/load-schema.ts";
import { modelsOf, type LoadOptions, type ModelSources } from "../model/load-models.ts";
import { storeLock } from "../load/pull.ts";
import { sha256 } from "../load/read.ts";
import { placeSchemas } from "../load/schemas.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import { guardOutput } from "./ownership.ts";
import {
  fileHashes,
  generatorHash,
  readStamp,
  readStampedFiles,
  rootInput,
  STAMP_FILE,
  stampText,
  versionInput,
  type RootStamp,
  type VersionStamp,
} from "./stamp.ts";
import { readSnapshot } from "../tools/snapshot.ts";
import { toolSet, type ToolSet } from "../tools/tool-set.ts";
import { usableToolSets } from "../tools/usable-tools.ts";
import { acquireLock } from "../common/files.ts";
import { recoverTree, writeTree } from "./write.ts";

/** Where a project's output goes, besides where its models come from. */
export interface OutputPaths extends ModelSources {
  readonly outDir: string;
  /** The tools snapshots `generate` types (`mcp-tools/<name>.json` of the config's servers); none when absent. */
  readonly toolSnapshots?: readonly string[];
}

export interface VersionReport {
  readonly version: string;
  readonly era: string;
  readonly types: number;
  readonly methods: number;
  readonly errorCodes: number;
  readonly status: "generated" | "reused";
}

export interface GenerateReport {
  readonly versions: readonly VersionReport[];
  readonly root: "generated" | "reused";
  /** Whether the output folder was replaced; false when everything was already up to date. */
  readonly written: boolean;
  /** Entries of the output folder mcp-bindgen did not write, left in place by this write ("/" separators, a folder ending in "/"). */
  readonly kept: readonly string[];
  readonly files: number;
  /** Building the models, emitting and formatting: time (0 when nothing was rendered). */
  readonly renderMs: number;
  readonly ms: number;
}

export interface GenerateOptions extends LoadOptions {
  readonly render?: RenderOptions;
  /** Render every release even if its recorded input hash is unchanged. */
  readonly force?: boolean;
  /** Receives one line per release as it is done, then a summary line. */
  readonly progress?: (line: string) => void;
  /** Receives what was left out of the output and why (a tool a client would drop). */
  readonly warn?: (line: string) => void;
}

/**
 * Everything but the write: models → emitters → prettier, in memory, so `--check` can compare.
 * `renders` picks the files to format (generate skips the releases it reuses). The emitters and
 * prettier are imported here, on demand, so a run with nothing to render loads neither.
 */
export async function render(
  models: readonly ProtocolModel[],
  options: RenderOptions = {},
  renders: (path: string) => boolean = () => true,
  servers: readonly ToolSet[] = [],
  warn: (line: string) => void = () => undefined,
): Promise<EmittedFile[]> {
  const { emitFiles } = await import("../emit/index.ts");
  const usable = usableToolSets(servers, models, warn);
  return sortByPath(await formatFiles([...emitFiles(models, options, usable)].filter((file) => renders(file.path))));
}

interface Plan {
  readonly version: string;
  readonly stamp: Omit<VersionStamp, "era" | "counts" | "files">;
  /** The previous run's record and files, when they can be reused as they are. */
  readonly reuse: { readonly stamp: VersionStamp; readonly files: Map<string, string> } | undefined;
}

/**
 * Writes the output folder for the chosen releases. Each release's input hash (schema, facts,
 * generator source and render options) is compared with the one recorded in
 * `<out>/<release>/.bindgen-stamp`; unchanged releases are copied from the current tree, the
 * others rendered, and the whole tree is swapped in at once. With nothing to do, nothing is
 * written and neither the emitters nor prettier are loaded.
 */
export async function generate(paths: OutputPaths, options: GenerateOptions): Promise<GenerateReport> {
  const started = performance.now();
  // Before any work: a folder that is not ours is refused at once (writeTree checks again, holding the lock).
  guardOutput(paths.outDir);
  const lock = storeLock(paths);
  const placed = await placeSchemas(paths, options.releases, options, lock);
  const versions = [...placed.keys()];
  // The root modules' command is in the root stamp alone: a run narrowed to some releases re-renders no release folder.
  const { rootRegenerateCommand, ...releaseRender } = options.render ?? {};
  const generator = generatorHash(releaseRender);
  const facts = sha256(readFileSync(paths.factsFile));
  const plans: Plan[] = [...placed].map(([version, { file, sha256: locked }]) => {
    const schema = sha256(readFileSync(file));
    verifySha256(file, schema, locked);
    const source = join(paths.cacheDir, version, "schema.ts");
    const sourceHash =
      lock.versions.get(version)?.typescript && existsSync(source) ? sha256(readFileSync(source)) : undefined;
    const stamp = { input: versionInput(schema, facts, generator, sourceHash), schema, facts, generator };
    return {
      version,
      stamp,
      reuse: options.force === true ? undefined : reusable(join(paths.outDir, version), stamp.input),
    };
  });
  const servers = readToolSets(paths);
  const rootStamp = {
    input: rootInput(
      generator,
      // A server's module is a root file: its snapshot is part of the root's input.
      [
        ...plans.map((p) => ({ version: p.version, input: p.stamp.input })),
        ...servers.map((s) => ({ version: `servers/${s.server}`, input: s.sha256 })),
      ],
      rootRegenerateCommand,
    ),
    versions,
  };
  const root =
    options.force === true || plans.some((p) => !p.reuse) ? undefined : reusableRoot(paths.outDir, rootStamp.input);

  if (root && plans.every((p) => p.reuse)) {
    // Nothing to write, but what a killed run left beside the output (its lock, the retired tree) goes.
    const release = acquireLock(paths.outDir);
    try {
      recoverTree(paths.outDir);
    } finally {
      release();
    }
    const report = plans.map((p) => reusedReport(p.version, p.reuse!.stamp));
    for (const v of report) options.progress?.(progressLine(v));
    const ms = Math.round(performance.now() - started);
    options.progress?.(`${paths.outDir} is up to date: ${versions.length} releases unchanged (${ms} ms)`);
    const files = plans.reduce((n, p) => n + p.reuse!.files.size, root.size);
    return { versions: report, root: "reused", written: false, kept: [], files, renderMs: 0, ms };
  }

  // One emission pass over every model (the root modules need them all); the releases reused
  // from the current tree are not formatted again.
  const reused = new Set(plans.filter((p) => p.reuse).map((p) => p.version));
  const t0 = performance.now();
  const models = await modelsOf(paths, placed, lock);
  const rendered = await render(models, options.render, (path) => !reused.has(topFolder(path)), servers, options.warn);
  const renderMs = Math.round(performance.now() - t0);
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
      const prefix = `${plan.version}/`;
      const files = new Map(
        rendered.filter((f) => f.path.startsWith(prefix)).map((f) => [f.path.slice(prefix.length), f.content]),
      );
      const counts = {
        types: model.definitions.size,
        methods: model.methods.length,
        errorCodes: model.errorCodes.length,
      };
      const stamp: VersionStamp = { ...plan.stamp, era: model.era, counts, files: fileHashes(files) };
      for (const [name, content] of files) tree.set(prefix + name, content);
      tree.set(prefix + STAMP_FILE, stampText(stamp));
      entry = { version: plan.version, era: model.era, ...counts, status: "generated" };
    }
    report.push(entry);
    options.progress?.(progressLine(entry));
  }
  const releases = new Set(versions);
  const rootFiles = new Map(rendered.filter((f) => !releases.has(topFolder(f.path))).map((f) => [f.path, f.content]));
  for (const [name, content] of rootFiles) tree.set(name, content);
  tree.set(STAMP_FILE, stampText({ ...rootStamp, files: fileHashes(rootFiles) } satisfies RootStamp));

  const release = acquireLock(paths.outDir);
  let kept: string[];
  try {
    kept = writeTree(paths.outDir, tree).map((e) => (e.folder ? `${e.path}/` : e.path));
  } finally {
    release();
  }
  if (kept.length > 0)
    options.progress?.(
      `kept ${kept.length} ${kept.length === 1 ? "entry" : "entries"} in ${paths.outDir} that mcp-bindgen did not write: ${kept.slice(0, 5).join(", ")}${kept.length > 5 ? ` and ${kept.length - 5} more` : ""}`,
    );
  const files = [...tree.keys()].filter((p) => !p.endsWith(STAMP_FILE)).length;
  const ms = Math.round(performance.now() - started);
  const count = report.filter((v) => v.status === "generated").length;
  options.progress?.(
    `generated ${count} of ${versions.length} releases (${versions.length - count} unchanged; rendering took ${renderMs} ms); wrote ${files} files to ${paths.outDir} in ${ms} ms`,
  );
  return { versions: report, root: "generated", written: true, kept, files, renderMs, ms };
}

/** The project's tools snapshots, read and their schemas normalised: a bad one stops the run before anything is rendered. */
export function readToolSets(paths: OutputPaths): ToolSet[] {
  return (paths.toolSnapshots ?? []).map((file) => toolSet(file, readSnapshot(file)));
}

function topFolder(path: string): string {
  return path.split("/")[0]!;
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
  return { version, era: stamp.era, ...stamp.counts, status: "reused" };
}

export function progressLine(v: VersionReport): string {
  const counts = `${v.types} types  ${v.methods} methods  ${v.errorCodes} error codes`;
  return `${v.version}  ${v.era.padEnd(6)}  ${counts}  ${v.status === "generated" ? "rendered" : "unchanged"}`;
}

function sortByPath<T extends { readonly path: string }>(files: T[]): T[] {
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
