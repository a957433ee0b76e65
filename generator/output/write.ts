import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { isAlive } from "../common/files.ts";
import { carryOver, guardOutput, type ForeignEntry } from "./ownership.ts";

/**
 * Replaces what mcp-bindgen wrote in the directory `target` with a tree of files in one step: the new tree is written
 * beside it, then swapped in by renames. A kill at any point leaves either the old tree or the new one (an interrupted
 * swap is finished by `recoverTree` on the next run), never a mix. Only what the old tree's stamps list is replaced:
 * `target` must be missing, empty or stamped (`guardOutput`), and every other entry in it is moved into the new tree
 * after the swap. Returns those entries.
 */
export function writeTree(target: string, files: ReadonlyMap<string, string>): ForeignEntry[] {
  recoverTree(target);
  const kept = guardOutput(target, files.keys());
  const parent = dirname(target);
  const name = basename(target);
  const staging = join(parent, `.${name}.new-${process.pid}`);
  const retired = join(parent, `.${name}.old`);
  rmSync(staging, { recursive: true, force: true });
  try {
    for (const [relative, content] of files) {
      const path = join(staging, relative);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
    if (existsSync(target)) renameSync(target, retired);
    renameSync(staging, target);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    recoverTree(target);
    throw err;
  }
  // The user's entries went aside with the old tree: they come back before it is removed (after a kill, recoverTree).
  carryOver(retired, target);
  dropRetired(retired, parent, name);
  return kept;
}

/**
 * Removes the previous tree once the user's entries are out of it. It is renamed away first, in one step: a kill in
 * the middle of deleting it in place could take its stamps before the files they list, and the next run would
 * then carry those files into the new tree as if they were the user's.
 */
function dropRetired(retired: string, parent: string, name: string): void {
  if (!existsSync(retired)) return;
  const doomed = join(parent, `.${name}.gone-${process.pid}`);
  rmSync(doomed, { recursive: true, force: true });
  renameSync(retired, doomed);
  rmSync(doomed, { recursive: true, force: true });
}

/**
 * Restores the previous tree if a swap was interrupted between its two renames; if the swap was done, moves what the
 * user kept in the previous tree into the new one (`carryOver`) and only then drops it; drops the staging and
 * retired trees of dead runs.
 * Call it holding the output lock.
 */
export function recoverTree(target: string): void {
  const parent = dirname(target);
  const name = basename(target);
  const retired = join(parent, `.${name}.old`);
  if (!existsSync(target) && existsSync(retired)) renameSync(retired, target);
  else if (existsSync(retired)) {
    carryOver(retired, target);
    dropRetired(retired, parent, name);
  }
  if (!existsSync(parent)) return;
  for (const entry of readdirSync(parent)) {
    const match = new RegExp(`^\\.${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.(?:new|gone)-(\\d+)$`).exec(entry);
    if (match && !isAlive(Number(match[1]))) rmSync(join(parent, entry), { recursive: true, force: true });
  }
}
