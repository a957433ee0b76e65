import { BindgenError, joinPointer } from "../common/failures.ts";
import { parseJson, readRaw, sha256 } from "../load/read.ts";

/** A tool as `tools/list` gives it: `name` and `inputSchema` checked, everything else kept as the server sent it. */
export type SnapshotTool = {
  readonly name: string;
  readonly inputSchema: { readonly [key: string]: unknown };
  readonly [key: string]: unknown;
};

/** A prompt as `prompts/list` gives it: `name` and each argument's `name` checked, the rest kept as sent. */
export type SnapshotPrompt = {
  readonly name: string;
  readonly arguments?: readonly {
    readonly name: string;
    readonly required?: boolean;
    readonly [key: string]: unknown;
  }[];
  readonly [key: string]: unknown;
};

/** A resource template as `resources/templates/list` gives it: `name` and `uriTemplate` checked, the rest kept. */
export type SnapshotTemplate = {
  readonly name: string;
  readonly uriTemplate: string;
  readonly [key: string]: unknown;
};

/** What a server offers besides tools, listed where its capabilities say it has them. */
export interface ListedSurface {
  readonly prompts?: readonly unknown[];
  readonly resourceTemplates?: readonly unknown[];
}

/**
 * `mcp-tools/<name>.json`: what one server's `tools/list` said, committed like the lock. Tools are
 * sorted by name and every object's keys too, so the same server gives the same bytes; `sha256` is
 * of the tools' canonical JSON, so an edit by hand is noticed. A server's author writes the same
 * format by hand for the server side, and may leave `sha256` out.
 */
export interface ToolsSnapshot {
  readonly server: string;
  /** The protocol release the server spoke when the snapshot was taken. */
  readonly release: string;
  readonly sha256: string;
  readonly tools: readonly SnapshotTool[];
  /**
   * Where each tool (in `tools`' order) stands in the file or listing it was read from, when that is not
   * `/tools/<index>`: a saved result lists tools unsorted, so its messages must point into it, not into the sorted copy.
   */
  readonly pointers?: readonly string[];
  /** The server's prompts, sorted by name; absent when it offers none (the file is then as it always was). */
  readonly prompts?: readonly SnapshotPrompt[];
  /** The server's resource templates, sorted by name; absent when it offers none. */
  readonly resourceTemplates?: readonly SnapshotTemplate[];
}

/** Folder of the snapshots, beside the config. */
export const SNAPSHOT_FOLDER = "mcp-tools";

/** Server names become file and module names: plain ASCII, no path. */
const SERVER_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Deeper JSON than this in a tool is refused, before anything walks it recursively. */
export const MAX_JSON_DEPTH = 256;

export function checkServerName(name: string, where: (expected: string, detail: string) => Error): string {
  if (!SERVER_NAME.test(name))
    throw where("a server name of lower-case letters, digits, - and _ (at most 64)", `got ${JSON.stringify(name)}`);
  return name;
}

/**
 * The snapshot of `tools` as listed (the array at `at` in `file`): every key sorted, tools by name, each tool's
 * pointer into `file` kept; throws a `BindgenError` naming `file`, the tool and the pointer.
 */
export function snapshotOf(
  file: string,
  server: string,
  release: string,
  tools: readonly unknown[],
  at = "/tools",
  surface: ListedSurface = {},
): ToolsSnapshot {
  const checked = tools.map((tool, i) => checkTool(file, tool, joinPointer(at, i)));
  const seen = new Map<string, number>();
  checked.forEach((tool, i) => {
    const first = seen.get(tool.name);
    if (first !== undefined)
      throw new BindgenError(
        file,
        joinPointer(at, i, "name"),
        "each tool name once",
        `"${tool.name}" is also ${joinPointer(at, first)}`,
      );
    seen.set(tool.name, i);
  });
  const order = checked.map((_, i) => i).sort((a, b) => compareNames(checked[a]!.name, checked[b]!.name));
  const sorted = order.map((i) => checked[i]!);
  const pointers = order.map((i) => joinPointer(at, i));
  const moved = pointers.some((p, i) => p !== joinPointer("/tools", i));
  const prompts = surface.prompts && named(file, "/prompts", surface.prompts, checkPrompt);
  const resourceTemplates =
    surface.resourceTemplates && named(file, "/resourceTemplates", surface.resourceTemplates, checkTemplate);
  const offered = { ...(prompts ? { prompts } : {}), ...(resourceTemplates ? { resourceTemplates } : {}) };
  return {
    server,
    release,
    sha256: surfaceHash(sorted, offered),
    tools: sorted,
    ...(moved ? { pointers } : {}),
    ...offered,
  };
}

/** Each entry checked, its name once, sorted by name. */
function named<T extends { readonly name: string }>(
  file: string,
  at: string,
  list: readonly unknown[],
  check: (file: string, value: unknown, pointer: string) => T,
): T[] {
  const checked = list.map((value, i) => check(file, value, joinPointer(at, i)));
  const seen = new Map<string, number>();
  checked.forEach((entry, i) => {
    const first = seen.get(entry.name);
    if (first !== undefined)
      throw new BindgenError(
        file,
        joinPointer(at, i, "name"),
        "each name once",
        `"${entry.name}" is also ${joinPointer(at, first)}`,
      );
    seen.set(entry.name, i);
  });
  return checked.sort((a, b) => compareNames(a.name, b.name));
}

function checkPrompt(file: string, value: unknown, pointer: string): SnapshotPrompt {
  const prompt = checkNamed(file, value, pointer, "prompt");
  const args = prompt["arguments"];
  if (args !== undefined) {
    if (!Array.isArray(args)) throw new BindgenError(file, joinPointer(pointer, "arguments"), "an array of arguments");
    args.forEach((arg, i) => checkNamed(file, arg, joinPointer(pointer, "arguments", i), "argument"));
  }
  return prompt;
}

function checkTemplate(file: string, value: unknown, pointer: string): SnapshotTemplate {
  const template = checkNamed(file, value, pointer, "resource template");
  if (typeof template["uriTemplate"] !== "string")
    throw new BindgenError(file, joinPointer(pointer, "uriTemplate"), "the template's URI template, a string");
  return template as SnapshotTemplate;
}

function checkNamed(
  file: string,
  value: unknown,
  pointer: string,
  what: string,
): Record<string, unknown> & { name: string } {
  if (!isRecord(value)) throw new BindgenError(file, pointer, `a ${what} object`);
  const name = value["name"];
  if (typeof name !== "string" || name === "")
    throw new BindgenError(file, joinPointer(pointer, "name"), `the ${what}'s name, a non-empty string`);
  return canonicalJson(file, value, pointer, name, 0) as Record<string, unknown> & { name: string };
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The snapshot as its file holds it: tools at `/tools/<index>`, sorted. */
export function asWritten(snapshot: ToolsSnapshot): ToolsSnapshot {
  const { pointers: _, ...written } = snapshot;
  return written;
}

/** The file's bytes: two-space JSON with a final newline, keys in a fixed order. */
export function snapshotText(snapshot: ToolsSnapshot): string {
  const { server, release, sha256: hash, tools, prompts, resourceTemplates } = snapshot;
  const offered = { ...(prompts ? { prompts } : {}), ...(resourceTemplates ? { resourceTemplates } : {}) };
  return JSON.stringify({ server, release, sha256: hash, tools, ...offered }, null, 2) + "\n";
}

/** Of the tools alone for a server offering nothing else, so its hash (and file) is what it always was. */
function surfaceHash(
  tools: readonly SnapshotTool[],
  offered: { readonly prompts?: readonly SnapshotPrompt[]; readonly resourceTemplates?: readonly SnapshotTemplate[] },
): string {
  return sha256(JSON.stringify(Object.keys(offered).length === 0 ? tools : { ...offered, tools }));
}

/** Reads and checks a snapshot (or a server author's tools file); every problem names the file and the pointer. */
export function readSnapshot(file: string): ToolsSnapshot {
  const doc = parseJson(file, readRaw(file, "a readable tools snapshot").bytes);
  if (!isRecord(doc)) throw new BindgenError(file, "", "an object with server, release and tools");
  for (const key of Object.keys(doc)) {
    if (!["server", "release", "sha256", "tools", "prompts", "resourceTemplates", "$schema"].includes(key))
      throw new BindgenError(
        file,
        joinPointer("", key),
        "only the keys server, release, sha256, tools, prompts, resourceTemplates",
        `unknown key "${key}"`,
      );
  }
  const server = doc["server"];
  if (typeof server !== "string")
    throw new BindgenError(file, "/server", "the server's name", `got ${JSON.stringify(server ?? null)}`);
  checkServerName(server, (expected, detail) => new BindgenError(file, "/server", expected, detail));
  const release = doc["release"];
  if (typeof release !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(release))
    throw new BindgenError(
      file,
      "/release",
      "the protocol release spoken (YYYY-MM-DD)",
      `got ${JSON.stringify(release ?? null)}`,
    );
  const tools = doc["tools"];
  if (!Array.isArray(tools)) throw new BindgenError(file, "/tools", "an array of tools, as tools/list lists them");
  const surface: { -readonly [K in keyof ListedSurface]: ListedSurface[K] } = {};
  for (const key of ["prompts", "resourceTemplates"] as const) {
    const list = doc[key];
    if (list === undefined) continue;
    if (!Array.isArray(list))
      throw new BindgenError(file, `/${key}`, `an array of ${key === "prompts" ? "prompts" : "resource templates"}`);
    surface[key] = list;
  }
  const snapshot = snapshotOf(file, server, release, tools, "/tools", surface);
  const recorded = doc["sha256"];
  if (recorded !== undefined && recorded !== snapshot.sha256) {
    throw new BindgenError(
      file,
      "/sha256",
      "the sha256 of the tools' (and prompts' and templates') canonical JSON",
      `the tools were edited after the snapshot was taken: run "mcp-bindgen tools update ${server}", or delete sha256 in a tools file you write yourself`,
    );
  }
  return snapshot;
}

function checkTool(file: string, tool: unknown, pointer: string): SnapshotTool {
  if (!isRecord(tool)) throw new BindgenError(file, pointer, "a tool object");
  const name = tool["name"];
  if (typeof name !== "string" || name === "")
    throw new BindgenError(file, joinPointer(pointer, "name"), "the tool's name, a non-empty string");
  const canonical = canonicalJson(file, tool, pointer, name, 0) as SnapshotTool;
  if (!isRecord(canonical.inputSchema))
    throw new BindgenError(
      file,
      joinPointer(pointer, "inputSchema"),
      "the tool's input schema, an object",
      `tool "${name}"`,
    );
  return canonical;
}

/**
 * A copy with every object's keys sorted, nesting bounded so no later walk can overflow the stack.
 * `Object.fromEntries` defines keys as own data properties, so a `__proto__` key stays a key.
 */
function canonicalJson(file: string, value: unknown, pointer: string, tool: string, depth: number): unknown {
  if (depth > MAX_JSON_DEPTH)
    throw new BindgenError(file, pointer, `JSON nested at most ${MAX_JSON_DEPTH} levels deep`, `tool "${tool}"`);
  if (Array.isArray(value))
    return value.map((v, i) => canonicalJson(file, v, joinPointer(pointer, i), tool, depth + 1));
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonicalJson(file, value[k], joinPointer(pointer, k), tool, depth + 1)]),
    );
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
