// A require() that keeps V8's code cache for the CommonJS modules it loads. ts-morph brings its
// own 9 MB TypeScript; compiling it took a fifth of a cold `generate`, before the first module
// could be emitted. Node 22 has `module.enableCompileCache()`; Node 20 has only `vm.Script`'s
// `cachedData`, which is what this uses. The cache is only ever an optimisation: any failure
// to read or write it leaves the module compiled as Node would compile it.
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Script, constants as vmConstants } from "node:vm";
import * as zlib from "node:zlib";
import { cachedDataVersionTag } from "node:v8";

/** What Node's CommonJS loader gives `Module.prototype._compile`; not in @types/node. */
interface CompilingModule {
  exports: unknown;
  _compile: (this: CompilingModule, content: string, filename: string) => unknown;
}

/** Node ≥ 20.15; without it there is no cheap exact key, and no cache. */
const crc32 = (zlib as { crc32?: (data: string) => number }).crc32;

/** Where the cache lives, or null when there is none: per user, as Node's own compile cache is. */
export function defaultCodeCacheDir(): string | null {
  if (process.env["NODE_DISABLE_COMPILE_CACHE"]) return null;
  const uid = process.getuid?.();
  return join(tmpdir(), `mcp-bindgen-code-cache-${uid ?? "user"}`);
}

/**
 * The folder if it is ours alone: code read from a cache runs as ours, so a folder another user
 * could write to (a shared tmp) is never trusted.
 */
function privateDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // lstat: a symlink planted under the expected name is not the user's folder, wherever it points.
    const stat = lstatSync(dir);
    const uid = process.getuid?.();
    return stat.isDirectory() && (uid === undefined || (stat.uid === uid && (stat.mode & 0o022) === 0));
  } catch {
    return false;
  }
}

/** One file per module text: its path, an exact checksum of the text, and V8's version and flags. */
function cacheFile(dir: string, filename: string, content: string, checksum: (data: string) => number): string {
  const name = `${checksum(filename).toString(16)}-${checksum(content).toString(16)}-${content.length.toString(16)}-${cachedDataVersionTag().toString(16)}`;
  return join(dir, name);
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written whole or not at all, so a concurrent run never reads half a cache. */
function writeCache(file: string, data: Buffer): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, data);
    renameSync(temp, file);
  } catch {
    // A read-only or full tmp: the next run compiles again.
  }
}

/** A compiled module whose cache should be (re)written once it has run. */
interface Pending {
  readonly file: string;
  readonly script: Script;
}

/** What one `requireWithCodeCache` call did, for tests. */
export interface CodeCacheReport {
  /** Modules compiled from the cache. */
  readonly hits: number;
  /** Modules compiled from source, whose cache is written by `saveCodeCache`. */
  readonly misses: number;
}

const pending: Pending[] = [];

/**
 * Compiles one CommonJS module as Node's loader would (the same wrapper, `require`, `module`,
 * `__filename` and `__dirname`), through a `vm.Script` that reads and feeds V8's code cache.
 */
function compileWithCache(dir: string, checksum: (data: string) => number, counts: { hits: number; misses: number }) {
  return function (this: CompilingModule, content: string, filename: string): unknown {
    const file = cacheFile(dir, filename, content, checksum);
    const cachedData = readCache(file);
    const script = new Script(Module.wrap(content), {
      filename,
      ...(cachedData ? { cachedData } : {}),
      // Node 20.x before the constant: a module's own import() then fails, which ts-morph's never calls.
      ...(vmConstants?.USE_MAIN_CONTEXT_DEFAULT_LOADER ? { importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER } : {}),
    });
    if (cachedData && !script.cachedDataRejected) counts.hits++;
    else {
      counts.misses++;
      pending.push({ file, script });
    }
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, createRequire(filename), this, filename, dirname(filename));
  };
}

/**
 * `require(specifier)` from `parent` (a file path or URL), with every CommonJS module that the call
 * compiles read from the code cache in `dir` when one matches its text. Modules already loaded are
 * returned as they are; with no cache folder (or no crc32), it is a plain require.
 */
export function requireWithCodeCache(
  specifier: string,
  parent: string | URL,
  dir: string | null = defaultCodeCacheDir(),
): { readonly exports: unknown; readonly report: CodeCacheReport } {
  const require = createRequire(parent);
  const counts = { hits: 0, misses: 0 };
  if (dir === null || crc32 === undefined || !privateDir(dir)) return { exports: require(specifier), report: counts };
  const prototype = Module.prototype as unknown as CompilingModule;
  const compile = prototype._compile;
  prototype._compile = compileWithCache(dir, crc32, counts);
  try {
    return { exports: require(specifier), report: counts };
  } finally {
    prototype._compile = compile;
  }
}

/**
 * Writes the caches of the modules compiled from source. Called once the run's work is done, so
 * the cache also holds the functions V8 compiled lazily while they ran (most of the saving).
 */
export function saveCodeCache(): void {
  for (const { file, script } of pending.splice(0)) writeCache(file, script.createCachedData());
}
