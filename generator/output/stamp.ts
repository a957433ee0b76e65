import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { compare } from "../common/code-point-order.ts";
import { sha256 } from "../load/read.ts";
import { CODE_DIR, PACKAGE_ROOT } from "../common/package-root.ts";

/**
 * The stamp that makes `generate` incremental: `<out>/<release>/.bindgen-stamp` (and
 * `<out>/.bindgen-stamp` for the root modules) is JSON holding the hash of everything the
 * output depends on and the hash of each file written. A version whose input hash is unchanged
 * and whose files still match is reused instead of rendered again.
 */
export const STAMP_FILE = ".bindgen-stamp";

export interface VersionStamp {
  /** sha256 over the schema, facts and generator hashes below. */
  readonly input: string;
  readonly schema: string;
  readonly facts: string;
  readonly generator: string;
  readonly era: string;
  readonly counts: { readonly types: number; readonly methods: number; readonly errorCodes: number };
  /** File name inside the version folder → sha256 of its content. */
  readonly files: Readonly<Record<string, string>>;
}

export interface RootStamp {
  /** sha256 over the generator hash and each version's input hash, in output order. */
  readonly input: string;
  readonly versions: readonly string[];
  readonly files: Readonly<Record<string, string>>;
}

/** `source` is the sha256 of the release's schema.ts when one is cached: its deprecations are part of the model. */
export function versionInput(schema: string, facts: string, generator: string, source?: string): string {
  return sha256(
    `schema ${schema}\nfacts ${facts}\ngenerator ${generator}\n${source === undefined ? "" : `schema.ts ${source}\n`}`,
  );
}

export function rootInput(
  generator: string,
  versions: readonly { version: string; input: string }[],
  rootCommand?: string,
): string {
  const lines = [`generator ${generator}`, ...versions.map((v) => `${v.version} ${v.input}`)];
  return sha256((rootCommand === undefined ? lines : [...lines, `root command ${rootCommand}`]).join("\n"));
}

/**
 * Where `npm run build` records, beside the compiled generator, the hash of the sources it compiled
 * (`sourceHash`): the compiled package and the sources it came from then stamp alike, so `npm run
 * generate` (tsx) and the built bin reuse each other's output.
 */
export const SOURCE_HASH_FILE = "source-hash.txt";

/** Every `.ts` file of the generator's sources under `dir`, by path and content. */
export function sourceHash(dir: string): string {
  const files = listFiles(dir).filter((file) => file.endsWith(".ts"));
  return sha256(
    files.map((file) => `${relative(dir, file).split(sep).join("/")}\0${sha256(readFileSync(file))}`).join("\n"),
  );
}

/**
 * The generator's own identity: its sources (read now, so an edited emitter counts without a build
 * step; the compiled package reads the hash its build recorded), the versions of the formatter and
 * AST printer, whose output is part of ours, and the project's render options.
 */
export function generatorHash(options: object): string {
  const built = join(CODE_DIR, SOURCE_HASH_FILE);
  const code = existsSync(built) ? readFileSync(built, "utf8").trim() : sourceHash(CODE_DIR);
  const parts = [
    `code ${code}`,
    `prettier ${packageVersion("prettier")}`,
    `ts-morph ${packageVersion("ts-morph")}`,
    `options ${JSON.stringify(options)}`,
  ];
  return sha256(parts.join("\n"));
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(path));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

/** Reads a dependency's version from its package.json without importing the package (it may be heavy). */
function packageVersion(name: string): string {
  for (let dir = PACKAGE_ROOT; ; dir = dirname(dir)) {
    const file = join(dir, "node_modules", name, "package.json");
    if (existsSync(file)) return String((JSON.parse(readFileSync(file, "utf8")) as { version?: unknown }).version);
    if (dirname(dir) === dir) return "missing";
  }
}

export function readStamp<T extends VersionStamp | RootStamp>(dir: string): T | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, STAMP_FILE), "utf8")) as T;
  } catch {
    return undefined;
  }
}

export function stampText(stamp: VersionStamp | RootStamp): string {
  return JSON.stringify(stamp, null, 2) + "\n";
}

export function fileHashes(files: ReadonlyMap<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, content] of [...files].sort(([a], [b]) => compare(a, b))) out[name] = sha256(content);
  return out;
}

/**
 * The files a stamp lists, read back from `dir`, or undefined if any is missing or was
 * edited since it was written (then the version is rendered again).
 */
export function readStampedFiles(
  dir: string,
  files: Readonly<Record<string, string>>,
): Map<string, string> | undefined {
  const out = new Map<string, string>();
  for (const [name, hash] of Object.entries(files)) {
    let content: string;
    try {
      content = readFileSync(join(dir, name), "utf8");
    } catch {
      return undefined;
    }
    if (sha256(content) !== hash) return undefined;
    out.set(name, content);
  }
  return out;
}
