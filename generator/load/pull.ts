import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { BindgenError, UsageError } from "../errors.ts";
import { lockToJson, readLock, VERSION_PATTERN, type Lock, type LockEntry, type TypeScriptPin } from "./lock.ts";
import { MAX_SCHEMA_BYTES } from "./load-schema.ts";
import { sha256 } from "./read.ts";
import { atomicWriteFile } from "../write.ts";

export interface PullOptions {
  /** The project's `schema/` folder (holds lock.json and the pulled copies). */
  readonly schemaDir: string;
  /** Versions to pull; all versions in the lock when empty. */
  readonly versions: readonly string[];
  /** `--from DIR|URL`; falls back to `MCP_SCHEMA_DIR`, then the lock's upstream URL. */
  readonly from?: string | undefined;
  readonly env?: string | undefined;
  /** Record new versions or changed hashes in the lock instead of rejecting them. */
  readonly updateLock?: boolean;
  /** Fetch again even if a verified copy is already in place. */
  readonly force?: boolean;
  readonly timeoutMs?: number;
  readonly log?: (line: string) => void;
}

export interface PullResult {
  readonly version: string;
  readonly status: "present" | "pulled";
  readonly source: string;
  readonly sha256: string;
}

export function schemaPath(schemaDir: string, version: string): string {
  return join(schemaDir, version, "schema.json");
}

/**
 * Places `schema/<version>/schema.json` for each version, each copy checked against the lock's
 * sha256 before it replaces anything. A failure leaves the previous file in place.
 */
export async function pull(options: PullOptions): Promise<PullResult[]> {
  const lockFile = join(options.schemaDir, "lock.json");
  const lock = readLock(lockFile);
  const versions = options.versions.length > 0 ? [...options.versions] : [...lock.versions.keys()];
  for (const v of versions) {
    if (!VERSION_PATTERN.test(v)) throw new UsageError(`"${v}" is not a version (expected YYYY-MM-DD; known: ${[...lock.versions.keys()].join(", ")})`);
    if (!lock.versions.has(v) && !options.updateLock) {
      throw new UsageError(`unknown version "${v}" (known: ${[...lock.versions.keys()].join(", ")}); add it with --update-lock`);
    }
  }
  const base = options.from ?? options.env;
  const updated = new Map<string, LockEntry>(lock.versions);
  const results: PullResult[] = [];
  for (const version of versions) {
    const entry = lock.versions.get(version);
    const target = schemaPath(options.schemaDir, version);
    if (entry && !options.force && existsSync(target) && sha256(readFileSync(target)) === entry.sha256) {
      results.push({ version, status: "present", source: target, sha256: entry.sha256 });
      continue;
    }
    const source = sourceFor(version, base, entry, versions.length);
    if (entry?.typescript) await pullTypeScript(options, version, base, entry.typescript, source);
    const bytes = await fetchBytes(source, options.timeoutMs ?? 30_000);
    const hash = sha256(bytes);
    if (entry && hash !== entry.sha256 && !options.updateLock) {
      throw new BindgenError(source, "", `sha256 ${entry.sha256} (from ${lockFile})`, `got ${hash}; nothing was written. If the release was re-sealed, pass --update-lock`);
    }
    atomicWriteFile(target, bytes);
    updated.set(version, { ...entry, url: isUrl(source) ? source : (entry?.url ?? upstreamUrlFor(version, lock)), sha256: hash });
    options.log?.(`${version}: ${entry && hash === entry.sha256 ? "verified" : "recorded"} ${hash.slice(0, 12)} from ${source}`);
    results.push({ version, status: "pulled", source, sha256: hash });
  }
  if (options.updateLock) {
    const text = lockToJson(updated);
    if (text !== readFileSync(lockFile, "utf8")) atomicWriteFile(lockFile, text);
  }
  return results;
}

/**
 * `schema/<version>/schema.ts` beside the schema it was pulled with, checked against the lock. The
 * bindings do not need it (only the fidelity test reads it), so a folder without one or a failed
 * download is logged and skipped; a copy with the wrong sha256 is an error like a wrong schema.
 */
async function pullTypeScript(options: PullOptions, version: string, base: string | undefined, pin: TypeScriptPin, schemaSource: string): Promise<void> {
  const target = join(options.schemaDir, version, "schema.ts");
  if (!options.force && existsSync(target) && sha256(readFileSync(target)) === pin.sha256) return;
  const source = base === undefined || base === "" ? pin.url : schemaSource.replace(/schema\.json$/, "schema.ts");
  if (source === schemaSource || (!isUrl(source) && !existsSync(source))) return;
  let bytes: Buffer;
  try {
    bytes = await fetchBytes(source, options.timeoutMs ?? 30_000);
  } catch (err) {
    options.log?.(`${version}: schema.ts not pulled (${(err as Error).message}); only the fidelity test needs it`);
    return;
  }
  const hash = sha256(bytes);
  if (hash !== pin.sha256) throw new BindgenError(source, "", `sha256 ${pin.sha256} (schema.ts of ${version} in the lock)`, `got ${hash}; nothing was written`);
  atomicWriteFile(target, bytes);
}

function isUrl(s: string): boolean {
  return /^https?:\/\//i.test(s);
}

/** A directory or URL base laid out as `<version>/schema.json`, or (for one version) the file itself. */
function sourceFor(version: string, base: string | undefined, entry: LockEntry | undefined, count: number): string {
  if (base === undefined || base === "") {
    if (!entry) throw new UsageError(`no source for new version ${version}: pass --from DIR|URL`);
    return entry.url;
  }
  if (isUrl(base)) {
    if (base.includes("{version}")) return base.replaceAll("{version}", version);
    if (base.endsWith(".json")) {
      if (count > 1) throw new UsageError(`--from ${base} names one file; pull one --version with it`);
      return base;
    }
    return `${base.replace(/\/$/, "")}/${version}/schema.json`;
  }
  const dir = resolve(base);
  if (existsSync(dir) && statSync(dir).isFile()) {
    if (count > 1) throw new UsageError(`--from ${base} names one file; pull one --version with it`);
    return dir;
  }
  return join(dir, version, "schema.json");
}

/** For a version added from a local folder: the upstream URL follows the pattern of the newest locked one. */
function upstreamUrlFor(version: string, lock: Lock): string {
  const [newest, entry] = [...lock.versions.entries()][0] ?? [];
  return newest && entry ? entry.url.replace(newest, version) : "";
}

async function fetchBytes(source: string, timeoutMs: number): Promise<Buffer> {
  if (!isUrl(source)) {
    try {
      return readFileSync(source);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new BindgenError(source, "", "a readable schema file", code === "ENOENT" ? "file not found" : String(code ?? err));
    }
  }
  let response: Response;
  try {
    response = await fetch(source, { signal: AbortSignal.timeout(timeoutMs), redirect: "follow" });
  } catch (err) {
    const e = err as Error;
    const why = e.name === "TimeoutError" ? `no answer within ${timeoutMs / 1000}s` : `${e.message}${e.cause ? `: ${(e.cause as Error).message ?? e.cause}` : ""}`;
    throw new BindgenError(source, "", "a reachable URL", why);
  }
  if (!response.ok) throw new BindgenError(source, "", "HTTP 200", `got HTTP ${response.status} ${response.statusText}`);
  const tooBig = () => new BindgenError(source, "", `a schema of at most ${MAX_SCHEMA_BYTES / 1024 / 1024} MiB`, "the server sent more; nothing was written");
  if (Number(response.headers.get("content-length") ?? 0) > MAX_SCHEMA_BYTES) {
    await response.body?.cancel();
    throw tooBig();
  }
  // Read chunk by chunk so a hostile or broken server cannot make us buffer without bound.
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > MAX_SCHEMA_BYTES) break;
      chunks.push(chunk);
    }
  } catch (err) {
    throw new BindgenError(source, "", "a complete response body", (err as Error).message);
  }
  if (size > MAX_SCHEMA_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    throw tooBig();
  }
  return Buffer.concat(chunks);
}
