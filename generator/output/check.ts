import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { RenderOptions } from "../emit/emitted.ts";
import { loadModels, type LoadOptions } from "../model/load-models.ts";
import { readToolSets, render, type OutputPaths } from "./generate-output.ts";
import { unifiedDiff } from "./line-diff.ts";
import { guardOutput, ownedFiles } from "./ownership.ts";

export interface CheckReport {
  readonly upToDate: boolean;
  /** Paths relative to the output folder, sorted. */
  readonly stale: readonly string[];
  readonly missing: readonly string[];
  /** Files the output's stamps list that this run would not write (generate removes them). */
  readonly extra: readonly string[];
  /** Files in the output folder mcp-bindgen did not write: generate keeps them, so they are not a difference. */
  readonly kept: readonly string[];
  /** Unified diffs (disk → expected) of the first few stale files, capped. */
  readonly diff: readonly string[];
  readonly files: number;
}

const DIFFED_FILES = 3;
const LINES_PER_FILE = 40;

export interface CheckOptions extends LoadOptions {
  readonly render?: RenderOptions;
  /** How the diff names the output folder (default: its base name). */
  readonly label?: string;
}

/**
 * `generate --check`: renders every chosen release in memory and compares it with the output
 * folder on disk. Never writes there, and never downloads: the schemas must be cached or come
 * from `--from`/`MCP_SCHEMA_DIR`. Hidden bookkeeping files (`.bindgen-stamp`) are not compared:
 * they record how the tree was made, not what users import.
 */
export async function check(paths: OutputPaths, options: CheckOptions): Promise<CheckReport> {
  // A folder generate would refuse cannot be checked either (OutputRefusedError).
  guardOutput(paths.outDir);
  const expected = await render(
    await loadModels(paths, { ...options, offline: true }),
    options.render,
    undefined,
    readToolSets(paths),
  );
  const label = options.label ?? basename(paths.outDir);
  const onDisk = new Set(listVisible(paths.outDir));
  const stale: string[] = [];
  const missing: string[] = [];
  const diff: string[] = [];
  for (const file of expected) {
    if (!onDisk.delete(file.path)) {
      missing.push(file.path);
      continue;
    }
    const actual = readFileSync(join(paths.outDir, file.path), "utf8");
    if (actual === file.content) continue;
    stale.push(file.path);
    if (stale.length <= DIFFED_FILES) {
      diff.push(
        ...unifiedDiff(
          actual,
          file.content,
          `${label}/${file.path} (on disk)`,
          `${label}/${file.path} (expected)`,
          LINES_PER_FILE,
        ),
      );
    }
  }
  const owned = ownedFiles(paths.outDir) ?? new Set();
  const left = [...onDisk].sort();
  const extra = left.filter((path) => owned.has(path));
  const kept = left.filter((path) => !owned.has(path));
  return {
    upToDate: stale.length + missing.length + extra.length === 0,
    stale,
    missing,
    extra,
    kept,
    diff,
    files: expected.length,
  };
}

/** Files under dir, relative and with "/" separators, skipping dot-files and dot-folders. */
function listVisible(dir: string, prefix = ""): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const rel = prefix + entry.name;
    if (entry.isDirectory()) out.push(...listVisible(join(dir, entry.name), rel + "/"));
    else out.push(rel);
  }
  return out;
}
