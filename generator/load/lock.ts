import { readFileSync } from "node:fs";
import { BindgenError, joinPointer } from "../errors.ts";
import { parseJson } from "./read.ts";

/** `schema/lock.json`: each release's upstream URL at a pinned commit and the sha256 of its schema. */
export interface LockEntry {
  readonly url: string;
  readonly sha256: string;
}

export interface Lock {
  readonly file: string;
  /** Sorted newest first (versions are ISO dates, so string order is date order). */
  readonly versions: ReadonlyMap<string, LockEntry>;
}

export const VERSION_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export function readLock(file: string): Lock {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    throw new BindgenError(file, "", "a lock file (schema/lock.json)", "file not found");
  }
  const doc = parseJson(file, bytes);
  const versionsRaw = typeof doc === "object" && doc !== null ? (doc as Record<string, unknown>)["versions"] : undefined;
  if (typeof versionsRaw !== "object" || versionsRaw === null || Array.isArray(versionsRaw)) {
    throw new BindgenError(file, "/versions", "an object of version → { url, sha256 }");
  }
  const versions = new Map<string, LockEntry>();
  for (const version of Object.keys(versionsRaw).sort().reverse()) {
    const pointer = joinPointer("/versions", version);
    if (!VERSION_PATTERN.test(version)) throw new BindgenError(file, pointer, "a version named YYYY-MM-DD");
    const entry = (versionsRaw as Record<string, unknown>)[version] as Record<string, unknown> | null;
    const url = entry?.["url"];
    const sha = entry?.["sha256"];
    if (typeof url !== "string") throw new BindgenError(file, pointer + "/url", "a URL string");
    if (typeof sha !== "string" || !/^[0-9a-f]{64}$/.test(sha)) throw new BindgenError(file, pointer + "/sha256", "a 64-digit lowercase hex sha256");
    versions.set(version, { url, sha256: sha });
  }
  return { file, versions };
}

export function lockToJson(versions: ReadonlyMap<string, LockEntry>): string {
  const sorted = [...versions.keys()].sort();
  const obj = { versions: Object.fromEntries(sorted.map((v) => [v, versions.get(v)!])) };
  return JSON.stringify(obj, null, 2) + "\n";
}
