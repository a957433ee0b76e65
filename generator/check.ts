import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RenderOptions } from "./emit/emitted.ts";
import { render } from "./generate.ts";
import { unifiedDiff } from "./line-diff.ts";
import { loadModels, type LoadOptions, type ProjectPaths } from "./project.ts";

export interface CheckReport {
  readonly upToDate: boolean;
  /** Paths relative to generated/, sorted. */
  readonly stale: readonly string[];
  readonly missing: readonly string[];
  readonly extra: readonly string[];
  /** Unified diffs (disk → expected) of the first few stale files, capped. */
  readonly diff: readonly string[];
  readonly files: number;
}

const DIFFED_FILES = 3;
const LINES_PER_FILE = 40;

/**
 * `generate --check`: renders every requested version in memory and compares it with
 * generated/ on disk. Never writes generated/. Hidden bookkeeping files (`.bindgen-hash`) are
 * not compared: they record how the tree was made, not what users import.
 */
export async function check(paths: ProjectPaths, options: LoadOptions & RenderOptions = {}): Promise<CheckReport> {
  const expected = await render(await loadModels(paths, options), options);
  const onDisk = new Set(listVisible(paths.generatedDir));
  const stale: string[] = [];
  const missing: string[] = [];
  const diff: string[] = [];
  for (const file of expected) {
    if (!onDisk.delete(file.path)) {
      missing.push(file.path);
      continue;
    }
    const actual = readFileSync(join(paths.generatedDir, file.path), "utf8");
    if (actual === file.content) continue;
    stale.push(file.path);
    if (stale.length <= DIFFED_FILES) {
      diff.push(...unifiedDiff(actual, file.content, `generated/${file.path} (on disk)`, `generated/${file.path} (expected)`, LINES_PER_FILE));
    }
  }
  const extra = [...onDisk].sort();
  return { upToDate: stale.length + missing.length + extra.length === 0, stale, missing, extra, diff, files: expected.length };
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
