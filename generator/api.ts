import { relative, sep } from "node:path";
import { check as checkTree, type CheckReport } from "./output/check.ts";
import type { ImportExtension } from "./project/config.ts";
import type { RenderOptions } from "./emit/emitted.ts";
import { diffModels, forSide, type DiffReport, type Side } from "./diff/index.ts";
import { loadDiffSide } from "./diff/load-model.ts";
import { DRAFT_RELEASE } from "./load/lock.ts";
import { loadModels } from "./model/load-models.ts";
import { generate as generateTree, type GenerateReport } from "./output/generate-output.ts";
import { pull as pullSchemas, storeLock, type PullResult } from "./load/pull.ts";
import { summarise } from "./model/summary.ts";
import { missingExtraPackages } from "./project/extra-packages.ts";
import { chosenReleases, resolveProject, type Project } from "./project/project.ts";

/** What every function of the programmatic API takes: where the project is, and this run's overrides of its config. */
export interface ProjectOptions {
  /** Where to look for `mcp-bindgen.config.json`, upwards (default: the working directory). */
  readonly cwd?: string;
  /** Output folder, relative to the project (overrides the config's `out`). */
  readonly out?: string;
  /** Spec releases to work on (overrides the config's `releases`). */
  readonly releases?: readonly string[];
  readonly importExtension?: ImportExtension;
  /** A folder laid out as `<release>/schema.json`, or a URL base, to take the chosen releases from. */
  readonly from?: string;
  /** A local copy of the spec's schemas used before any download (default: `$MCP_SCHEMA_DIR`). */
  readonly schemaDir?: string;
  /** Receives a line for each schema placed in the cache. */
  readonly log?: (line: string) => void;
}

export interface GenerateOptions extends ProjectOptions {
  /** Render every release even if its inputs are unchanged. */
  readonly force?: boolean;
  /** Receives one line per release, then a summary. */
  readonly progress?: (line: string) => void;
  /** Receives what was left out of the output and why (a server's tool a client would drop). */
  readonly warn?: (line: string) => void;
}

export interface PullOptions extends ProjectOptions {
  /** Record releases the locks do not know (or a re-sealed file's hash) in the project's lock. */
  readonly updateLock?: boolean;
  /** Fetch again even when a verified copy is cached. */
  readonly force?: boolean;
  readonly timeoutMs?: number;
  /** Pull the spec's draft as the release "draft" and record it in the project's lock, pinned at `commit` if given. */
  readonly draft?: { readonly commit?: string | undefined };
}

export interface DiffOptions extends ProjectOptions {
  /** Keep the changes that concern one side (default: both). */
  readonly side?: Side | "both";
}

export type ModelSummary = ReturnType<typeof summarise>;
export type { CheckReport, DiffReport, GenerateReport, ImportExtension, PullResult, Side };

/** The project the options name, and its chosen releases. */
export function openProject(options: ProjectOptions, needsOut = false): { project: Project; releases: string[] } {
  const project = resolveProject({
    cwd: options.cwd,
    out: options.out,
    releases: options.releases,
    importExtension: options.importExtension,
    needsOut,
  });
  return { project, releases: chosenReleases(project, options.releases !== undefined && options.releases.length > 0) };
}

function sources(options: ProjectOptions, project: Project) {
  const env = options.schemaDir ?? process.env["MCP_SCHEMA_DIR"];
  return {
    from: options.from,
    env: env && env.trim() !== "" ? env : undefined,
    examples: project.examples,
    ...(options.log ? { log: options.log } : {}),
  };
}

function renderOptions(project: Project): RenderOptions {
  return {
    importExtension: project.importExtension,
    regenerateCommand: project.regenerateCommand,
    ...(project.rootRegenerateCommand !== project.regenerateCommand
      ? { rootRegenerateCommand: project.rootRegenerateCommand }
      : {}),
    ...(project.typeCheckOutput ? { typeCheckOutput: true } : {}),
    ...(project.extras.length > 0 ? { extras: project.extras } : {}),
  };
}

/** Writes the bindings of the chosen releases into the project's output folder, in one atomic step. */
export async function generate(options: GenerateOptions = {}): Promise<GenerateReport> {
  const { project, releases } = openProject(options, true);
  const report = await generateTree(project.paths, {
    releases,
    ...sources(options, project),
    render: renderOptions(project),
    force: options.force === true,
    ...(options.progress ? { progress: options.progress } : {}),
    ...(options.warn ? { warn: options.warn } : {}),
  });
  for (const line of missingExtraPackages(project.root, project.extras)) options.warn?.(line);
  return report;
}

export interface ProjectCheckReport extends CheckReport {
  /** The output folder, relative to the project. */
  readonly out: string;
  /** What the project runs to bring the output up to date. */
  readonly regenerateCommand: string;
}

/** Compares the output folder with what `generate` would write now; writes nothing and downloads nothing. */
export async function check(options: ProjectOptions = {}): Promise<ProjectCheckReport> {
  const { project, releases } = openProject(options, true);
  const out = relative(project.root, project.paths.outDir).split(sep).join("/");
  const report = await checkTree(project.paths, {
    releases,
    ...sources(options, project),
    label: out,
    render: renderOptions(project),
  });
  return { ...report, out, regenerateCommand: project.rootRegenerateCommand };
}

/** Places the chosen releases' schemas in the cache (`node_modules/.cache/mcp-bindgen`), verified against the locks. */
export async function pull(options: PullOptions = {}): Promise<PullResult[]> {
  const asked = options.releases ?? [];
  // `--release draft` before the lock knows a draft is `--draft`: there is nothing to verify it against yet.
  const draft = options.draft ?? (asked.length === 1 && asked[0] === DRAFT_RELEASE ? newDraft(options.cwd) : undefined);
  const project = resolveProject({ cwd: options.cwd, ...(draft ? {} : { releases: options.releases }) });
  const releases = draft
    ? [DRAFT_RELEASE]
    : options.updateLock
      ? [...asked]
      : chosenReleases(project, asked.length > 0);
  return pullSchemas({
    ...project.paths,
    versions: releases,
    ...sources(options, project),
    updateLock: options.updateLock === true,
    force: options.force === true,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(draft ? { draft } : {}),
  });
}

/** `{}` (pull it as a new draft) when the project's locks know no draft yet. */
function newDraft(cwd: string | undefined): { readonly commit?: string } | undefined {
  return storeLock(resolveProject({ cwd }).paths).versions.has(DRAFT_RELEASE) ? undefined : {};
}

/** Each chosen release's model as plain JSON: era, counts, methods with their params and results. */
export async function list(options: ProjectOptions = {}): Promise<ModelSummary[]> {
  const { project, releases } = openProject(options);
  return (await loadModels(project.paths, { releases, ...sources(options, project) })).map(summarise);
}

/** What changed between two releases (or schema files), each change rated for clients and servers. */
export async function diff(oldRelease: string, newRelease: string, options: DiffOptions = {}): Promise<DiffReport> {
  const project = resolveProject({ cwd: options.cwd });
  const lock = storeLock(project.paths);
  const oldModel = await loadDiffSide(
    project.paths,
    lock,
    oldRelease,
    sources(options, project),
    options.cwd ?? process.cwd(),
  );
  const newModel = await loadDiffSide(
    project.paths,
    lock,
    newRelease,
    sources(options, project),
    options.cwd ?? process.cwd(),
  );
  return forSide(diffModels(oldModel, newModel), options.side ?? "both");
}
