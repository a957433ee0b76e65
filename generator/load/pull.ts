import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { BindgenError, UsageError } from "../common/failures.ts";
import {
  DRAFT_RELEASE,
  exampleUrl,
  lockToJson,
  readLock,
  readLockFile,
  RELEASE_NAME,
  type Lock,
  type LockEntry,
  type TypeScriptPin,
} from "./lock.ts";
import { MAX_SCHEMA_BYTES } from "./load-schema.ts";
import { sha256 } from "./read.ts";
import { acquireLock, atomicWriteFile } from "../common/files.ts";

/** Where a project's schemas are pinned and placed. */
export interface SchemaStore {
  /** Verified copies: `<cacheDir>/<version>/schema.json` and `<cacheDir>/<version>/examples/…`. */
  readonly cacheDir: string;
  /** The project's own lock: read last, and the one `--update-lock` writes. May not exist yet. */
  readonly lockFile: string;
  /** The lock shipped with the package, read first; absent when the project's lock is the package's. */
  readonly packageLock?: string | undefined;
}

export function lockFiles(store: SchemaStore): string[] {
  return store.packageLock && store.packageLock !== store.lockFile
    ? [store.packageLock, store.lockFile]
    : [store.lockFile];
}

/** The merged lock of a store: the package's releases plus the project's own. */
export function storeLock(store: SchemaStore): Lock {
  return readLock(
    lockFiles(store),
    new Set(store.packageLock && store.packageLock !== store.lockFile ? [store.lockFile] : []),
  );
}

export interface PullOptions extends SchemaStore {
  /** Versions to pull; all versions in the lock when empty. */
  readonly versions: readonly string[];
  /** `--from DIR|URL`; falls back to `MCP_SCHEMA_DIR`, then the lock's upstream URL. */
  readonly from?: string | undefined;
  readonly env?: string | undefined;
  /** Record new versions or changed hashes in the lock instead of rejecting them. */
  readonly updateLock?: boolean;
  /** Fetch again even if a verified copy is already in place. */
  readonly force?: boolean;
  /** Also place the example files the lock pins. */
  readonly examples?: boolean;
  readonly timeoutMs?: number;
  readonly log?: (line: string) => void;
  /**
   * Pull the spec's draft (`schema/draft/` upstream) as the release "draft", recording it in the project's lock. With
   * `commit`, the lock pins the upstream URLs at that commit (the bytes may still come from `from`, a checkout of it).
   */
  readonly draft?: { readonly commit?: string | undefined } | undefined;
  /** Where the spec repository's files at a commit are read from; `SPEC_RAW_BASE` unless a mirror is named (tests). */
  readonly specRawBase?: string;
}

/** The spec repository's files at a commit: where a draft pinned with `--commit` is recorded as coming from. */
export const SPEC_RAW_BASE = "https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol";

export interface PullResult {
  readonly version: string;
  readonly status: "present" | "pulled";
  readonly source: string;
  readonly sha256: string;
}

export function schemaPath(cacheDir: string, version: string): string {
  return join(cacheDir, version, "schema.json");
}

export function examplesPath(cacheDir: string, version: string): string {
  return join(cacheDir, version, "examples");
}

/** Whether the copy at `file` exists and has the pinned hash. */
function verified(file: string, hash: string): boolean {
  return existsSync(file) && sha256(readFileSync(file)) === hash;
}

/**
 * Versions whose schema (or, with `examples`, a pinned example file) is not in the cache. A copy
 * that is there but no longer matches the lock is not fetched again behind the user's back: its
 * use fails, naming it (see verifySha256).
 */
export function unplaced(store: SchemaStore, lock: Lock, versions: readonly string[], examples: boolean): string[] {
  return versions.filter(
    (v) =>
      !existsSync(schemaPath(store.cacheDir, v)) ||
      (examples &&
        Object.keys(lock.versions.get(v)?.examples ?? {}).some(
          (path) => !existsSync(join(examplesPath(store.cacheDir, v), path)),
        )),
  );
}

/**
 * Places `<cache>/<version>/schema.json` (and the examples the lock pins) for each version, each
 * copy checked against the lock's sha256 before it replaces anything. A failure leaves the
 * previous file in place. With `updateLock`, the project's lock gains the new entries; it is
 * re-read under an exclusive lock just before the write, so concurrent runs lose no update.
 */
export async function pull(options: PullOptions): Promise<PullResult[]> {
  if (options.draft) return [await pullDraft(options, options.draft.commit)];
  const lock = storeLock(options);
  const known = () => [...lock.versions.keys()].join(", ");
  const versions = options.versions.length > 0 ? [...options.versions] : [...lock.versions.keys()];
  for (const v of versions) {
    if (!RELEASE_NAME.test(v))
      throw new UsageError(
        `"${v}" is not a release (expected YYYY-MM-DD, or "${DRAFT_RELEASE}" with pull --draft; known: ${known()})`,
      );
    if (!lock.versions.has(v) && !options.updateLock) {
      const how =
        v === DRAFT_RELEASE ? "add it with pull --draft --commit <sha> [--from DIR]" : "add it with --update-lock";
      throw new UsageError(`unknown release "${v}" (known: ${known()}); ${how}`);
    }
  }
  const updated = new Map<string, LockEntry>();
  const results: PullResult[] = [];
  const timeoutMs = options.timeoutMs ?? 30_000;
  for (const version of versions) {
    const entry = lock.versions.get(version);
    const base = sourceBase(version, entry, options);
    const target = schemaPath(options.cacheDir, version);
    let result: PullResult;
    let recorded = entry;
    // A copy the user names (--from, MCP_SCHEMA_DIR, the lock's folder) is read and verified on every use, even when
    // the cache holds a verified copy: a wrong file there is an error, never silently passed over.
    const named = base.explicit ? sourceFor(version, base.base, entry, versions.length, options.lockFile) : undefined;
    if (entry && !options.force && named === undefined && verified(target, entry.sha256)) {
      result = { version, status: "present", source: target, sha256: entry.sha256 };
    } else if (
      entry &&
      !options.force &&
      !options.updateLock &&
      named !== undefined &&
      !isUrl(named) &&
      verified(target, entry.sha256) &&
      sameBytes(named, target, entry.sha256, lock.files)
    ) {
      result = { version, status: "present", source: named, sha256: entry.sha256 };
    } else {
      const source = named ?? sourceFor(version, base.base, entry, versions.length, options.lockFile);
      if (entry?.typescript) await pullTypeScript(options, version, base.base, entry.typescript, source);
      const bytes = await fetchBytes(source, timeoutMs);
      const hash = sha256(bytes);
      if (entry && hash !== entry.sha256 && !options.updateLock) {
        throw new BindgenError(
          source,
          "",
          `sha256 ${entry.sha256} (from ${lock.files.join(" + ")})`,
          `got ${hash}; nothing was written. If the release was re-sealed, record it with "mcp-bindgen pull --release ${version} --from <DIR|URL> --update-lock"`,
        );
      }
      atomicWriteFile(target, bytes);
      options.log?.(
        `${version}: ${entry && hash === entry.sha256 ? "verified" : "recorded"} ${hash.slice(0, 12)} from ${source}`,
      );
      result = { version, status: "pulled", source, sha256: hash };
      if (!entry || hash !== entry.sha256) {
        const examples = !isUrl(source) ? examplesIn(join(source, "..", "examples")) : entry?.examples;
        // A release first recorded from a local folder keeps that folder, relative to the lock, as its source:
        // a teammate with the same checkout pulls it from there, and no upstream URL is made up for it.
        const url = isUrl(source)
          ? source
          : (entry?.url ?? relative(dirname(options.lockFile), source).split(sep).join("/"));
        const typescript = entry?.typescript ?? (await typescriptBeside(options, version, source, url));
        recorded = {
          ...entry,
          url,
          sha256: hash,
          ...(examples ? { examples } : {}),
          ...(typescript ? { typescript } : {}),
        };
        updated.set(version, recorded);
      }
    }
    if (options.examples) await placeExamples(options, version, recorded!, base.base, timeoutMs);
    results.push(result);
  }
  if (options.updateLock && updated.size > 0) recordInLock(options.lockFile, updated);
  return results;
}

/**
 * `pull --draft`: the spec's draft folder as the release "draft", from `--from`/`MCP_SCHEMA_DIR` (laid out as
 * upstream, `draft/schema.json`) or, with a commit, the spec repository at that commit. Always recorded in the
 * project's lock: a draft moves, and each pull pins what it read.
 */
async function pullDraft(options: PullOptions, commit: string | undefined): Promise<PullResult> {
  if (commit !== undefined && !/^[0-9a-f]{7,40}$/.test(commit))
    throw new UsageError(`--commit: expected a commit of the spec repository (7 to 40 hex digits), got "${commit}"`);
  const base = options.from ?? options.env;
  if ((base === undefined || base === "") && commit === undefined) {
    throw new UsageError(
      "pull --draft needs --commit <sha> (the spec repository's commit to pin) or --from DIR (a folder holding draft/schema.json)",
    );
  }
  const at = (root: string) => `${root}/${commit}/schema/${DRAFT_RELEASE}/schema.json`;
  const pinned = commit === undefined ? undefined : at(SPEC_RAW_BASE);
  const upstream = base === undefined || base === "";
  const source = upstream
    ? at(options.specRawBase ?? SPEC_RAW_BASE)
    : sourceFor(DRAFT_RELEASE, base, undefined, 1, options.lockFile);
  const bytes = await fetchBytes(source, options.timeoutMs ?? 30_000);
  const hash = sha256(bytes);
  const url = pinned ?? (isUrl(source) ? source : relative(dirname(options.lockFile), source).split(sep).join("/"));
  // The spec repository lays schema.ts beside schema.json, so a commit of it is asked for both.
  const typescript = await typescriptBeside(options, DRAFT_RELEASE, source, url, upstream);
  atomicWriteFile(schemaPath(options.cacheDir, DRAFT_RELEASE), bytes);
  recordInLock(
    options.lockFile,
    new Map([[DRAFT_RELEASE, { url, sha256: hash, ...(typescript ? { typescript } : {}) }]]),
  );
  options.log?.(
    `${DRAFT_RELEASE}: recorded ${hash.slice(0, 12)} from ${source}${commit ? ` (pinned at ${commit})` : ""}${typescript ? ", with its schema.ts" : ""}`,
  );
  return { version: DRAFT_RELEASE, status: "pulled", source, sha256: hash };
}

/**
 * A new lock entry's schema.ts: the file beside the schema it was given, placed in the cache and pinned under the
 * same kind of URL as the schema. A folder is looked in, and a URL only when it is the spec repository at a commit
 * (another URL base need not lay files out as the spec does); none there is logged, with why, since only deprecations
 * and the fidelity test read it.
 */
async function typescriptBeside(
  options: PullOptions,
  version: string,
  source: string,
  url: string,
  specLayout = false,
): Promise<TypeScriptPin | undefined> {
  const file = source.replace(/schema\.json$/, "schema.ts");
  const none = (why: string) => {
    options.log?.(`${version}: no schema.ts ${why}; deprecations come from schema/facts.json alone`);
    return undefined;
  };
  if (file === source || (isUrl(source) && !specLayout)) return none(`beside ${source}`);
  let bytes: Buffer;
  if (isUrl(file)) {
    try {
      bytes = await fetchBytes(file, options.timeoutMs ?? 30_000);
    } catch (e) {
      // The fetch error's own words, without its hint about schemas: a missing schema.ts only loses deprecations.
      return none(`at ${file} (${e instanceof BindgenError ? (e.detail ?? e.expected).split("; ")[0] : String(e)})`);
    }
  } else if (existsSync(file)) bytes = readFileSync(file);
  else return none(`beside ${source}`);
  atomicWriteFile(join(options.cacheDir, version, "schema.ts"), bytes);
  return { url: url.replace(/schema\.json$/, "schema.ts"), sha256: sha256(bytes) };
}

/**
 * Where a release's schema comes from, in order: `--from`; the folder the lock records it from (a release pulled from
 * a local folder is read there whether or not MCP_SCHEMA_DIR is set); MCP_SCHEMA_DIR when it holds the release (a
 * URL base only for what the cache lacks); then the lock's URL. `explicit`: named by the user or the lock's folder,
 * so it is read on every use.
 */
function sourceBase(
  version: string,
  entry: LockEntry | undefined,
  options: PullOptions,
): { base: string | undefined; explicit: boolean } {
  if (options.from !== undefined && options.from !== "") return { base: options.from, explicit: true };
  if (entry && !isUrl(entry.url) && existsSync(fromLock(entry.url, options.lockFile)))
    return { base: undefined, explicit: true };
  const env = options.env !== undefined && options.env !== "" ? options.env : undefined;
  if (env !== undefined && !isUrl(env) && existsSync(schemaPath(resolve(env), version)))
    return { base: env, explicit: true };
  return { base: entry && !isUrl(entry.url) ? undefined : env, explicit: false };
}

/** Whether the named local copy is the cached one, byte for byte; a copy that does not match the lock is the error a download would be. */
function sameBytes(named: string, cached: string, pinned: string, lockFiles: readonly string[]): boolean {
  const bytes = readSource(named);
  const hash = sha256(bytes);
  if (hash !== pinned)
    throw new BindgenError(
      named,
      "",
      `sha256 ${pinned} (from ${lockFiles.join(" + ")})`,
      `got ${hash}; nothing was written`,
    );
  return bytes.equals(readFileSync(cached));
}

/** Adds entries to a lock file under an exclusive lock, re-reading it first so a concurrent writer's entries stay. */
function recordInLock(lockFile: string, entries: ReadonlyMap<string, LockEntry>): void {
  const release = acquireLock(lockFile);
  try {
    const current = readLockFile(lockFile, true);
    for (const [version, entry] of entries) current.set(version, entry);
    const text = lockToJson(current);
    if (!existsSync(lockFile) || text !== readFileSync(lockFile, "utf8")) atomicWriteFile(lockFile, text);
  } finally {
    release();
  }
}

/** The official examples pinned for a release, each fetched from the same kind of source as its schema and verified. */
async function placeExamples(
  options: PullOptions,
  version: string,
  entry: LockEntry,
  base: string | undefined,
  timeoutMs: number,
): Promise<void> {
  const dir = examplesPath(options.cacheDir, version);
  const missing = Object.entries(entry.examples ?? {}).filter(
    ([path, hash]) => options.force || !verified(join(dir, path), hash),
  );
  const exampleBase =
    base !== undefined && base !== "" && !base.includes("{version}") && !base.endsWith(".json") ? base : undefined;
  // A few requests at a time: fast on a real network, gentle on the server.
  for (let i = 0; i < missing.length; i += 8) {
    await Promise.all(
      missing.slice(i, i + 8).map(async ([path, hash]) => {
        const source =
          exampleBase === undefined
            ? fromLock(exampleUrl(entry, path), options.lockFile)
            : isUrl(exampleBase)
              ? `${exampleBase.replace(/\/$/, "")}/${version}/examples/${path}`
              : join(resolve(exampleBase), version, "examples", path);
        const bytes = await fetchBytes(source, timeoutMs);
        if (sha256(bytes) !== hash)
          throw new BindgenError(
            source,
            "",
            `sha256 ${hash} (pinned in the lock)`,
            `got ${sha256(bytes)}; nothing was written`,
          );
        atomicWriteFile(join(dir, path), bytes);
      }),
    );
  }
  if (missing.length > 0) options.log?.(`${version}: placed ${missing.length} pinned example files`);
}

/** `<Definition>/<file>.json` → sha256 for an examples folder beside a schema, or undefined when there is none. */
function examplesIn(dir: string): Record<string, string> | undefined {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return undefined;
  const out: Record<string, string> = {};
  for (const definition of readdirSync(dir).sort()) {
    if (!statSync(join(dir, definition)).isDirectory()) continue;
    for (const file of readdirSync(join(dir, definition)).sort())
      if (file.endsWith(".json")) out[`${definition}/${file}`] = sha256(readFileSync(join(dir, definition, file)));
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * `<cache>/<version>/schema.ts` beside the schema it was pulled with, checked against the lock. The
 * bindings do not need it (only the fidelity test reads it), so a folder without one or a failed
 * download is logged and skipped; a copy with the wrong sha256 is an error like a wrong schema.
 */
async function pullTypeScript(
  options: PullOptions,
  version: string,
  base: string | undefined,
  pin: TypeScriptPin,
  schemaSource: string,
): Promise<void> {
  const target = join(options.cacheDir, version, "schema.ts");
  if (!options.force && existsSync(target) && sha256(readFileSync(target)) === pin.sha256) return;
  const source = base === undefined || base === "" ? pin.url : schemaSource.replace(/schema\.json$/, "schema.ts");
  if (source === schemaSource || (!isUrl(source) && !existsSync(source))) return;
  let bytes: Buffer;
  try {
    bytes = await fetchBytes(source, options.timeoutMs ?? 30_000);
  } catch (err) {
    options.log?.(
      `${version}: schema.ts not pulled (${(err as Error).message}); the bindings do not need it, only its @deprecated notes are left out of diff reports`,
    );
    return;
  }
  const hash = sha256(bytes);
  if (hash !== pin.sha256)
    throw new BindgenError(
      source,
      "",
      `sha256 ${pin.sha256} (schema.ts of ${version} in the lock)`,
      `got ${hash}; nothing was written`,
    );
  atomicWriteFile(target, bytes);
}

function isUrl(s: string): boolean {
  return /^https?:\/\//i.test(s);
}

/** A directory or URL base laid out as `<version>/schema.json`, or (for one version) the file itself. */
function sourceFor(
  version: string,
  base: string | undefined,
  entry: LockEntry | undefined,
  count: number,
  lockFile: string,
): string {
  if (base === undefined || base === "") {
    if (!entry) throw new UsageError(`no source for new version ${version}: pass --from DIR|URL`);
    return fromLock(entry.url, lockFile);
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

/** A lock's source: a URL, or a path relative to the project lock (a release recorded from a local folder). */
function fromLock(url: string, lockFile: string): string {
  return isUrl(url) ? url : resolve(dirname(lockFile), url);
}

/** What a failed download adds, so a user without network (or with a release recorded from a folder) knows the way round. */
const OFFLINE_HINT =
  "without network, or for a release recorded from a local folder, set MCP_SCHEMA_DIR to a folder laid out as <release>/schema.json, or pass --from DIR|URL";

function readSource(source: string): Buffer {
  try {
    return readFileSync(source);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new BindgenError(
      source,
      "",
      "a readable schema file",
      code === "ENOENT" ? "file not found" : String(code ?? err),
    );
  }
}

async function fetchBytes(source: string, timeoutMs: number): Promise<Buffer> {
  if (!isUrl(source)) return readSource(source);
  let response: Response;
  try {
    response = await fetch(source, { signal: AbortSignal.timeout(timeoutMs), redirect: "follow" });
  } catch (err) {
    const e = err as Error;
    const why =
      e.name === "TimeoutError"
        ? `no answer within ${timeoutMs / 1000}s`
        : `${e.message}${e.cause ? `: ${(e.cause as Error).message ?? e.cause}` : ""}`;
    throw new BindgenError(source, "", "a reachable URL", `${why}; ${OFFLINE_HINT}`);
  }
  if (!response.ok)
    throw new BindgenError(
      source,
      "",
      "HTTP 200",
      `got HTTP ${response.status} ${response.statusText}; ${OFFLINE_HINT}`,
    );
  const tooBig = () =>
    new BindgenError(
      source,
      "",
      `a schema of at most ${MAX_SCHEMA_BYTES / 1024 / 1024} MiB`,
      "the server sent more; nothing was written",
    );
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
