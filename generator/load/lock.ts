import { existsSync, readFileSync } from "node:fs";
import { BindgenError, joinPointer } from "../common/failures.ts";
import { parseJson } from "./read.ts";

/**
 * A lock file: each release's upstream URL at a pinned commit and the sha256 of its schema, and
 * of any official example files pinned beside it (`examples/<Definition>/<file>.json`).
 */
export interface LockEntry {
  readonly url: string;
  readonly sha256: string;
  /** Path under the release's `examples/` folder → sha256. */
  readonly examples?: Readonly<Record<string, string>>;
  /** The release's own schema.ts, which the spec generates schema.json from: the reference the bindings' types are compared with. */
  readonly typescript?: TypeScriptPin;
}

export interface TypeScriptPin {
  readonly url: string;
  readonly sha256: string;
  /** A registry package's copy with the same declarations, for machines that reach only the npm registry. */
  readonly standIn?: {
    readonly package: string;
    readonly version: string;
    readonly path: string;
    readonly sha256: string;
    readonly note: string;
  };
}

function typescriptPin(file: string, pointer: string, raw: unknown): TypeScriptPin | undefined {
  if (raw === undefined) return undefined;
  const o = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  if (typeof o["url"] !== "string") throw new BindgenError(file, pointer + "/url", "a URL string");
  if (typeof o["sha256"] !== "string" || !SHA256.test(o["sha256"]))
    throw new BindgenError(file, pointer + "/sha256", "a 64-digit lowercase hex sha256");
  const pin = { url: o["url"], sha256: o["sha256"] };
  const standIn = o["standIn"] as Record<string, unknown> | undefined;
  if (standIn === undefined) return pin;
  for (const key of ["package", "version", "path", "note"]) {
    if (typeof standIn[key] !== "string") throw new BindgenError(file, `${pointer}/standIn/${key}`, "a string");
  }
  if (typeof standIn["sha256"] !== "string" || !SHA256.test(standIn["sha256"]))
    throw new BindgenError(file, pointer + "/standIn/sha256", "a 64-digit lowercase hex sha256");
  return { ...pin, standIn: standIn as unknown as NonNullable<TypeScriptPin["standIn"]> };
}

export interface Lock {
  /** The files read, in order; a later file's entry replaces an earlier one's. */
  readonly files: readonly string[];
  /** Sorted newest first (versions are ISO dates, so string order is date order). */
  readonly versions: ReadonlyMap<string, LockEntry>;
}

export const VERSION_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** The spec's unreleased draft (`schema/draft/` upstream), pinned at a commit like any release; newer than every dated one. */
export const DRAFT_RELEASE = "draft";
/** What the lock, the config and facts accept as a release name. */
export const RELEASE_NAME = /^(?:\d{4}-\d{2}-\d{2}|draft)$/;

/** Release order: dates by date, the draft after all of them. */
export function compareReleases(a: string, b: string): number {
  const rank = (v: string) => (v === DRAFT_RELEASE ? "~" : v);
  return rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0;
}
const SHA256 = /^[0-9a-f]{64}$/;
const EXAMPLE_PATH = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+\.json$/;

/** Reads one lock file; a missing file is an empty lock when `optional`. */
export function readLockFile(file: string, optional = false): Map<string, LockEntry> {
  if (optional && !existsSync(file)) return new Map();
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    throw new BindgenError(file, "", "a lock file", "file not found");
  }
  const doc = parseJson(file, bytes);
  const versionsRaw =
    typeof doc === "object" && doc !== null ? (doc as Record<string, unknown>)["versions"] : undefined;
  if (typeof versionsRaw !== "object" || versionsRaw === null || Array.isArray(versionsRaw)) {
    throw new BindgenError(file, "/versions", "an object of version → { url, sha256 }");
  }
  const versions = new Map<string, LockEntry>();
  for (const version of Object.keys(versionsRaw).sort().reverse()) {
    const pointer = joinPointer("/versions", version);
    if (!RELEASE_NAME.test(version))
      throw new BindgenError(file, pointer, `a release named YYYY-MM-DD or "${DRAFT_RELEASE}"`);
    const entry = (versionsRaw as Record<string, unknown>)[version] as Record<string, unknown> | null;
    const url = entry?.["url"];
    const sha = entry?.["sha256"];
    const examples = entry?.["examples"];
    if (typeof url !== "string") throw new BindgenError(file, pointer + "/url", "a URL string");
    if (typeof sha !== "string" || !SHA256.test(sha))
      throw new BindgenError(file, pointer + "/sha256", "a 64-digit lowercase hex sha256");
    const typescript = typescriptPin(file, pointer + "/typescript", entry?.["typescript"]);
    const base = typescript === undefined ? { url, sha256: sha } : { url, sha256: sha, typescript };
    if (examples === undefined) {
      versions.set(version, base);
      continue;
    }
    if (typeof examples !== "object" || examples === null || Array.isArray(examples))
      throw new BindgenError(file, pointer + "/examples", "an object of <Definition>/<file>.json → sha256");
    for (const [path, hash] of Object.entries(examples)) {
      const at = joinPointer(pointer + "/examples", path);
      if (!EXAMPLE_PATH.test(path) || path.split("/").includes(".."))
        throw new BindgenError(file, at, "a path <Definition>/<file>.json");
      if (typeof hash !== "string" || !SHA256.test(hash))
        throw new BindgenError(file, at, "a 64-digit lowercase hex sha256");
    }
    versions.set(version, { ...base, examples: examples as Record<string, string> });
  }
  return versions;
}

/** The package's lock, then the project's own (which may add releases or re-pin known ones). */
export function readLock(files: readonly string[], optional: ReadonlySet<string> = new Set()): Lock {
  const merged = new Map<string, LockEntry>();
  for (const file of files)
    for (const [version, entry] of readLockFile(file, optional.has(file))) merged.set(version, entry);
  const sorted = new Map([...merged].sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0)));
  return { files, versions: sorted };
}

export function lockToJson(versions: ReadonlyMap<string, LockEntry>): string {
  const sorted = [...versions.keys()].sort();
  const obj = {
    versions: Object.fromEntries(
      sorted.map((v) => {
        const entry = versions.get(v)!;
        return [
          v,
          entry.examples
            ? {
                ...entry,
                examples: Object.fromEntries(Object.entries(entry.examples).sort(([a], [b]) => (a < b ? -1 : 1))),
              }
            : entry,
        ];
      }),
    ),
  };
  return JSON.stringify(obj, null, 2) + "\n";
}

/** Where an example pinned in the lock is published: beside the schema, under `examples/`. */
export function exampleUrl(entry: LockEntry, path: string): string {
  return entry.url.replace(/schema\.json$/, `examples/${path}`);
}
