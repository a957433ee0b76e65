import { readFileSync } from "node:fs";
import { BindgenError, joinPointer } from "../errors.ts";
import { parseJson } from "./read.ts";

/** `schema/lock.json`: each release's upstream URL at a pinned commit and the sha256 of its schema. */
export interface LockEntry {
  readonly url: string;
  readonly sha256: string;
  /** The release's own schema.ts, which the spec generates schema.json from: the reference the bindings' types are compared with. */
  readonly typescript?: TypeScriptPin;
}

export interface TypeScriptPin {
  readonly url: string;
  readonly sha256: string;
  /** A registry package's copy with the same declarations, for machines that reach only the npm registry. */
  readonly standIn?: { readonly package: string; readonly version: string; readonly path: string; readonly sha256: string; readonly note: string };
}

const SHA256 = /^[0-9a-f]{64}$/;

function typescriptPin(file: string, pointer: string, raw: unknown): TypeScriptPin | undefined {
  if (raw === undefined) return undefined;
  const o = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  if (typeof o["url"] !== "string") throw new BindgenError(file, pointer + "/url", "a URL string");
  if (typeof o["sha256"] !== "string" || !SHA256.test(o["sha256"])) throw new BindgenError(file, pointer + "/sha256", "a 64-digit lowercase hex sha256");
  const pin = { url: o["url"], sha256: o["sha256"] };
  const standIn = o["standIn"] as Record<string, unknown> | undefined;
  if (standIn === undefined) return pin;
  for (const key of ["package", "version", "path", "note"]) {
    if (typeof standIn[key] !== "string") throw new BindgenError(file, `${pointer}/standIn/${key}`, "a string");
  }
  if (typeof standIn["sha256"] !== "string" || !SHA256.test(standIn["sha256"])) throw new BindgenError(file, pointer + "/standIn/sha256", "a 64-digit lowercase hex sha256");
  return { ...pin, standIn: standIn as unknown as NonNullable<TypeScriptPin["standIn"]> };
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
    const typescript = typescriptPin(file, pointer + "/typescript", entry?.["typescript"]);
    versions.set(version, typescript === undefined ? { url, sha256: sha } : { url, sha256: sha, typescript });
  }
  return { file, versions };
}

export function lockToJson(versions: ReadonlyMap<string, LockEntry>): string {
  const sorted = [...versions.keys()].sort();
  const obj = { versions: Object.fromEntries(sorted.map((v) => [v, versions.get(v)!])) };
  return JSON.stringify(obj, null, 2) + "\n";
}
