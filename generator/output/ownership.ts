import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { BindgenError, OutputRefusedError } from "../common/failures.ts";
import { readStamp, STAMP_FILE, type RootStamp, type VersionStamp } from "./stamp.ts";

/**
 * What of an output folder mcp-bindgen wrote, read from the stamps it left: the root stamp, each release folder's
 * stamp it names, and the files each lists. undefined when the folder has no readable root stamp, i.e. it is not an
 * earlier generation. A release stamp that is missing or unreadable makes its folder's files foreign, so they are kept.
 */
export function ownedFiles(dir: string): Set<string> | undefined {
  const root = readStamp<RootStamp>(dir);
  if (!root || !isRecord(root.files) || !Array.isArray(root.versions)) return undefined;
  const owned = new Set([STAMP_FILE, ...Object.keys(root.files)]);
  for (const version of root.versions) {
    if (typeof version !== "string" || version.includes("/") || version.startsWith(".")) continue;
    const stamp = readStamp<VersionStamp>(join(dir, version));
    if (!stamp || !isRecord(stamp.files)) continue;
    owned.add(`${version}/${STAMP_FILE}`);
    for (const name of Object.keys(stamp.files)) owned.add(`${version}/${name}`);
  }
  return owned;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An entry under an output folder that mcp-bindgen did not write: a file, a symlink or an empty folder, with "/" separators. */
export interface ForeignEntry {
  readonly path: string;
  readonly folder: boolean;
}

/**
 * The entries under `dir` no stamp lists (all of them when `owned` is undefined), leaves only: a folder holding
 * nothing owned is one entry, so it moves as a whole. `limit` stops the walk early (a refusal names only a few).
 */
export function foreignEntries(dir: string, owned: ReadonlySet<string> | undefined, limit = Infinity): ForeignEntry[] {
  const out: ForeignEntry[] = [];
  const walk = (at: string, prefix: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    )) {
      if (out.length >= limit) return;
      const path = prefix + entry.name;
      if (!entry.isDirectory()) {
        if (!owned?.has(path)) out.push({ path, folder: false });
      } else if (owned === undefined || ![...owned].some((o) => o.startsWith(`${path}/`)))
        out.push({ path, folder: true });
      else walk(join(at, entry.name), `${path}/`);
    }
  };
  if (existsSync(dir)) walk(dir, "");
  return out;
}

const SHOWN = 5;

/** A few entries by name; `truncated` when the walk stopped early, so the total is unknown. */
function listed(entries: readonly ForeignEntry[] | readonly string[], truncated = false): string {
  const names = entries.slice(0, SHOWN).map((e) => (typeof e === "string" ? e : e.folder ? `${e.path}/` : e.path));
  const more = entries.length - names.length;
  return names.join(", ") + (truncated && more > 0 ? " and more" : more > 0 ? ` and ${more} more` : "");
}

/** Files that mark a folder as someone's package or repository: generate never takes such a folder over. */
const PROJECT_MARKERS = ["package.json", "mcp-bindgen.config.json", ".git"];

/**
 * Refuses an output folder that is not mcp-bindgen's to write (`OutputRefusedError`, exit 2, whatever `--force`
 * says): a file, or a folder that is neither empty nor stamped by an earlier generation, or one where a file this run
 * writes (`paths`, when known) would replace one it did not write. Returns the entries that will be kept.
 */
export function guardOutput(dir: string, paths?: Iterable<string>): ForeignEntry[] {
  if (!existsSync(dir)) return [];
  if (!lstatSync(dir).isDirectory())
    throw new OutputRefusedError(
      dir,
      "",
      "a folder for the generated bindings",
      "it is not a folder; choose another out",
    );
  const owned = ownedFiles(dir);
  if (owned === undefined) {
    const found = foreignEntries(dir, undefined, SHOWN + 1);
    if (found.length === 0) return [];
    const marker = PROJECT_MARKERS.find((name) => existsSync(join(dir, name)));
    const what = marker
      ? `the folder of a package or repository (it holds ${marker})`
      : `files mcp-bindgen did not write: ${listed(found, true)}`;
    throw new OutputRefusedError(
      dir,
      "",
      `an empty folder or one an earlier "mcp-bindgen generate" wrote (holding ${STAMP_FILE})`,
      `it holds ${what}; mcp-bindgen never replaces what it did not write, with or without --force: set "out" in mcp-bindgen.config.json (or --out) to a new folder, or move those files away`,
    );
  }
  const foreign = foreignEntries(dir, owned);
  if (paths !== undefined) {
    const clashes = clashing(
      foreign.flatMap((entry) => (entry.folder ? leaves(join(dir, entry.path), entry.path) : [entry])),
      new Set(paths),
    );
    if (clashes.length > 0) {
      throw new OutputRefusedError(
        join(dir, clashes[0]!.path),
        "",
        "a file mcp-bindgen wrote, or nothing, where this run writes",
        `${listed(clashes)} in ${dir} ${clashes.length === 1 ? "was" : "were"} not written by mcp-bindgen and this run writes there; move ${clashes.length === 1 ? "it" : "them"} elsewhere, nothing was changed`,
      );
    }
  }
  return foreign;
}

/** Every file, symlink and empty folder under the folder `at` (named `path`): what a merge into the new tree moves. */
function leaves(at: string, path: string): ForeignEntry[] {
  const entries = readdirSync(at, { withFileTypes: true });
  if (entries.length === 0) return [{ path, folder: true }];
  return entries.flatMap((e) =>
    e.isDirectory() ? leaves(join(at, e.name), `${path}/${e.name}`) : [{ path: `${path}/${e.name}`, folder: false }],
  );
}

/** The foreign entries a tree of `paths` would overwrite, or that would sit where it needs a folder or a file. */
function clashing(foreign: readonly ForeignEntry[], paths: ReadonlySet<string>): ForeignEntry[] {
  const folders = new Set<string>();
  for (const path of paths) for (let at = dirname(path); at !== "."; at = dirname(at)) folders.add(at);
  return foreign.filter((entry) => {
    if (paths.has(entry.path) || (!entry.folder && folders.has(entry.path))) return true;
    for (let at = dirname(entry.path); at !== "."; at = dirname(at)) if (paths.has(at)) return true;
    return false;
  });
}

/**
 * Moves every foreign entry of `from` (a retired output tree) to the same place in `to` (the tree that replaced it),
 * one rename each, so a user's files outlive the swap. Idempotent: an interrupted carry is finished by calling it
 * again. An entry whose place in `to` is taken stays in `from`, named in the error, and `from` must then be kept.
 */
export function carryOver(from: string, to: string): void {
  const stuck: string[] = [];
  const move = (source: string, target: string, path: string): void => {
    if (!existsSync(target) && !isLink(target)) {
      mkdirSync(dirname(target), { recursive: true });
      renameSync(source, target);
    } else if (isFolder(source) && isFolder(target)) {
      // A folder of the user's where the new tree has one too: merged entry by entry.
      for (const name of readdirSync(source)) move(join(source, name), join(target, name), `${path}/${name}`);
    } else stuck.push(path);
  };
  for (const entry of foreignEntries(from, ownedFiles(from)))
    move(join(from, entry.path), join(to, entry.path), entry.path);
  if (stuck.length > 0) {
    throw new BindgenError(
      join(from, stuck[0]!),
      "",
      `nothing at the same place in ${to}`,
      `${listed(stuck)} in ${from} ${stuck.length === 1 ? "is a file" : "are files"} mcp-bindgen did not write, and the new output has something there; they are kept in ${from}: move them by hand, then run again`,
    );
  }
}

function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
