import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { BindgenError, joinPointer } from "../common/failures.ts";
import { parseJson } from "../load/read.ts";
import { checkServerName } from "../tools/snapshot.ts";
import { EXTRA_NAMES, isExtraName, type ExtraName } from "../common/extras.ts";

/** The file `init` writes and every command looks for, from the working directory upwards. */
export const CONFIG_FILE = "mcp-bindgen.config.json";

export const IMPORT_EXTENSIONS = [".js", ".ts"] as const;
export type ImportExtension = (typeof IMPORT_EXTENSIONS)[number];

/** `mcp-bindgen.config.json`, as written by `init` and described by the package's `config.schema.json`. */
export interface Config {
  /** Folder for the generated bindings, relative to the config file. */
  readonly out: string;
  /** Spec releases to generate; every release the locks know when absent. */
  readonly releases?: readonly string[] | undefined;
  /** How generated modules import each other: `./x.js` (nodenext, bundler) or `./x.ts` (type stripping, Deno, Bun). */
  readonly importExtension: ImportExtension;
  /** Also place the official example files the lock pins for the chosen releases in the cache (for test suites). */
  readonly examples: boolean;
  /** Let the project's tsc check the generated bodies too (they carry `@ts-nocheck` otherwise). */
  readonly typeCheckOutput: boolean;
  /** Optional runtime parts (common/extras.ts) to generate too; each imports one package the project installs. */
  readonly extras: readonly ExtraName[];
  /** Servers whose tools are snapshotted in `mcp-tools/<name>.json` and typed in `<out>/servers/<name>.ts`, by name: where `tools update` lists them again. */
  readonly servers: { readonly [name: string]: ServerSource };
}

/** Where a server's tools come from. Headers (credentials) are never recorded: `tools update` takes them again. */
export type ServerSource = { readonly url: string } | { readonly command: string } | { readonly from: string };

const KEYS = [
  "$schema",
  "out",
  "releases",
  "importExtension",
  "examples",
  "typeCheckOutput",
  "extras",
  "servers",
] as const;

/** The nearest config file from `dir` upwards, or undefined. */
export function findConfig(dir: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const file = join(at, CONFIG_FILE);
    if (existsSync(file)) return file;
    if (dirname(at) === at) return undefined;
  }
}

/** Reads and checks a config file; every problem names the file and the key. */
export function readConfig(file: string): Config {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    throw new BindgenError(file, "", "a readable config file", "file not found");
  }
  const doc = parseJson(file, bytes);
  if (typeof doc !== "object" || doc === null || Array.isArray(doc))
    throw new BindgenError(file, "", `an object with the keys ${KEYS.join(", ")}`);
  const raw = doc as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!(KEYS as readonly string[]).includes(key))
      throw new BindgenError(file, joinPointer("", key), `only the keys ${KEYS.join(", ")}`, `unknown key "${key}"`);
  }
  if (raw["$schema"] !== undefined && typeof raw["$schema"] !== "string")
    throw new BindgenError(file, "/$schema", "a string (the config's JSON Schema)");
  const out = raw["out"];
  if (typeof out !== "string" || out.trim() === "")
    throw new BindgenError(
      file,
      "/out",
      "a folder for the generated bindings, relative to this file",
      `got ${JSON.stringify(out ?? null)}`,
    );
  checkOut(file, dirname(file), out);
  const releases = raw["releases"];
  if (releases !== undefined) {
    if (!Array.isArray(releases) || releases.length === 0)
      throw new BindgenError(file, "/releases", 'a non-empty array of spec releases (YYYY-MM-DD or "draft")');
    releases.forEach((r, i) => {
      if (typeof r !== "string")
        throw new BindgenError(
          file,
          `/releases/${i}`,
          'a spec release (YYYY-MM-DD or "draft")',
          `got ${JSON.stringify(r)}`,
        );
      if (releases.indexOf(r) !== i)
        throw new BindgenError(file, `/releases/${i}`, "each release once", `"${r}" is listed twice`);
    });
  }
  const ext = raw["importExtension"] ?? ".js";
  if (!(IMPORT_EXTENSIONS as readonly unknown[]).includes(ext))
    throw new BindgenError(
      file,
      "/importExtension",
      `one of ${IMPORT_EXTENSIONS.map((e) => `"${e}"`).join(", ")}`,
      `got ${JSON.stringify(ext)}`,
    );
  const examples = raw["examples"] ?? false;
  if (typeof examples !== "boolean")
    throw new BindgenError(file, "/examples", "true or false", `got ${JSON.stringify(examples)}`);
  const typeCheckOutput = raw["typeCheckOutput"] ?? false;
  if (typeof typeCheckOutput !== "boolean")
    throw new BindgenError(file, "/typeCheckOutput", "true or false", `got ${JSON.stringify(typeCheckOutput)}`);
  return {
    out,
    releases: releases as string[] | undefined,
    importExtension: ext as ImportExtension,
    examples,
    typeCheckOutput,
    extras: readExtras(file, raw["extras"]),
    servers: readServers(file, raw["servers"]),
  };
}

function readExtras(file: string, raw: unknown): readonly ExtraName[] {
  if (raw === undefined) return [];
  const expected = `an array of optional runtime parts, each one of ${EXTRA_NAMES.map((n) => `"${n}"`).join(", ")}`;
  if (!Array.isArray(raw)) throw new BindgenError(file, "/extras", expected, `got ${JSON.stringify(raw)}`);
  raw.forEach((name: unknown, i) => {
    if (!isExtraName(name)) throw new BindgenError(file, `/extras/${i}`, expected, `got ${JSON.stringify(name)}`);
    if (raw.indexOf(name) !== i)
      throw new BindgenError(file, `/extras/${i}`, "each part once", `"${name}" is listed twice`);
  });
  return [...(raw as ExtraName[])].sort();
}

function readServers(file: string, raw: unknown): Config["servers"] {
  if (raw === undefined) return {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new BindgenError(file, "/servers", "an object of servers by name");
  const servers: Record<string, ServerSource> = {};
  for (const [name, source] of Object.entries(raw as Record<string, unknown>)) {
    const at = joinPointer("/servers", name);
    checkServerName(name, (expected, detail) => new BindgenError(file, at, expected, detail));
    const keys = typeof source === "object" && source !== null && !Array.isArray(source) ? Object.keys(source) : [];
    const key = keys[0];
    const value = key === undefined ? undefined : (source as Record<string, unknown>)[key];
    if (keys.length !== 1 || !["url", "command", "from"].includes(key!) || typeof value !== "string" || value === "") {
      throw new BindgenError(
        file,
        at,
        'one of {"url": "<url>"}, {"command": "<cmd> <args…>"} or {"from": "<file.json>"}',
      );
    }
    Object.defineProperty(servers, name, { value: { [key!]: value }, enumerable: true });
  }
  return servers;
}

/**
 * The output folder must be inside the project (not the project itself), outside node_modules (the next `npm ci`
 * would delete it there) and outside .git; a folder elsewhere belongs to someone else. What a folder holds is
 * checked when generate writes (ownership.ts guardOutput). `source` names where
 * the value came from (the config file, or "--out").
 */
export function checkOut(source: string, root: string, out: string): string {
  const dir = resolve(root, out);
  const rel = relative(root, dir);
  const pointer = source.endsWith(CONFIG_FILE) ? "/out" : "";
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel))
    throw new BindgenError(source, pointer, `a folder inside the project ${root}`, `got "${out}"`);
  if (rel.split(sep).includes("node_modules"))
    throw new BindgenError(
      source,
      pointer,
      "a folder outside node_modules (npm ci deletes what is written there)",
      `got "${out}"`,
    );
  // Case-insensitive: on macOS and Windows ".GIT" is the repository too.
  if (rel.split(sep).some((part) => part.toLowerCase() === ".git"))
    throw new BindgenError(source, pointer, "a folder outside .git (the repository's own data)", `got "${out}"`);
  return dir;
}
