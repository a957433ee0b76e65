import { BindgenError, joinPointer } from "../common/failures.ts";
import { CONTAINER, DIALECTS, normaliseNode, rejectAliasCycles, type SchemaContext } from "../load/normalise.ts";
import type { NormalisedSchema, SchemaNode } from "../load/schema-node.ts";
import { FORMATS } from "../runtime/validation/table-format.ts";
import type { SnapshotTool, ToolsSnapshot } from "./snapshot.ts";

/** One tool as the emitters see it: its type names and what it declares. */
export interface ToolModel {
  readonly name: string;
  /** Where the tool stands in the snapshot file, for messages. */
  readonly pointer: string;
  readonly description: string | undefined;
  /** The definition of its arguments (`<Base>Arguments`) in the set's schema. */
  readonly arguments: string;
  /** The definition of its `structuredContent` (`<Base>Result`), or null without an `outputSchema`. */
  readonly structured: string | null;
  readonly annotations: { readonly [key: string]: unknown } | null;
  /** As listed, for `tools/list` answers and the `Mcp-Param-*` annotations. */
  readonly listed: SnapshotTool;
  /** Every definition its schemas made (arguments, result, their `$defs`): references stay inside a tool, so these are its own. */
  readonly definitions: readonly string[];
}

/** A server's tools, their schemas normalised into one set of named definitions with the same rules as a release's. */
export interface ToolSet {
  readonly file: string;
  readonly server: string;
  readonly release: string;
  readonly sha256: string;
  readonly tools: readonly ToolModel[];
  /** Every tool's arguments, structured result and `$defs`, by type name. */
  readonly schema: NormalisedSchema;
}

/** Reads the snapshot's schemas; a problem is a `BindgenError` naming the file, the JSON pointer and the tool. */
export function toolSet(file: string, snapshot: ToolsSnapshot): ToolSet {
  const definitions = new Map<string, SchemaNode>();
  const bases = new Set<string>();
  const tools = snapshot.tools.map((tool, i) => {
    const pointer = joinPointer("/tools", i);
    try {
      return readTool(file, tool, pointer, uniqueBase(typeBase(tool.name), bases), definitions);
    } catch (err) {
      if (!(err instanceof BindgenError) || err.detail?.startsWith("tool ")) throw err;
      throw new BindgenError(
        err.file,
        err.pointer,
        err.expected,
        [`tool "${tool.name}"`, err.detail].filter((d) => d !== undefined).join("; "),
      );
    }
  });
  const sorted = new Map([...definitions].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const schema: NormalisedSchema = {
    file,
    dialect: "2020-12",
    definitionsPointer: "/tools",
    definitions: sorted,
    sha256: snapshot.sha256,
  };
  return { file, server: snapshot.server, release: snapshot.release, sha256: snapshot.sha256, tools, schema };
}

function readTool(
  file: string,
  tool: SnapshotTool,
  pointer: string,
  base: string,
  all: Map<string, SchemaNode>,
): ToolModel {
  const into = new Map<string, SchemaNode>();
  const args = `${base}Arguments`;
  readSchema(file, tool.inputSchema, joinPointer(pointer, "inputSchema"), args, base, into);
  const output = tool["outputSchema"];
  let structured: string | null = null;
  if (output !== undefined) {
    structured = `${base}Result`;
    readSchema(file, output, joinPointer(pointer, "outputSchema"), structured, base, into);
  }
  // References stay inside a tool, so a cycle of them does too: refused here, where the tool is known.
  rejectAliasCycles(file, into);
  for (const [name, node] of into) add(all, file, node.pointer, name, node);
  const description = tool["description"];
  const annotations = tool["annotations"];
  if (annotations !== undefined && !isRecord(annotations))
    throw new BindgenError(file, joinPointer(pointer, "annotations"), "an object of hints");
  return {
    name: tool.name,
    pointer,
    description: typeof description === "string" ? description : undefined,
    arguments: args,
    structured,
    annotations: annotations ?? null,
    listed: tool,
    definitions: [...into.keys()],
  };
}

/** The set without the tools named, and without their definitions: the rest keep their names and pointers. */
export function withoutTools(set: ToolSet, dropped: ReadonlySet<string>): ToolSet {
  if (dropped.size === 0) return set;
  const gone = new Set(set.tools.filter((t) => dropped.has(t.name)).flatMap((t) => t.definitions));
  const definitions = new Map([...set.schema.definitions].filter(([name]) => !gone.has(name)));
  return {
    ...set,
    tools: set.tools.filter((t) => !dropped.has(t.name)),
    schema: { ...set.schema, definitions },
  };
}

/** One `inputSchema` or `outputSchema`: the root becomes definition `name`, its `$defs` (or `definitions`) `<base>_<def>`. */
function readSchema(
  file: string,
  raw: unknown,
  pointer: string,
  name: string,
  base: string,
  into: Map<string, SchemaNode>,
): void {
  if (!isRecord(raw)) throw new BindgenError(file, pointer, "a JSON Schema object");
  const declared = raw["$schema"];
  let container = "$defs";
  if (declared !== undefined) {
    const dialect = typeof declared === "string" ? DIALECTS.get(declared.replace(/#$/, "")) : undefined;
    const found = dialect === undefined ? undefined : CONTAINER[dialect];
    if (found === undefined)
      throw new BindgenError(
        file,
        joinPointer(pointer, "$schema"),
        "a draft-07 or 2020-12 JSON Schema URI",
        `got ${JSON.stringify(declared)}`,
      );
    container = found;
  }
  const rawDefs = raw[container] ?? {};
  if (!isRecord(rawDefs)) throw new BindgenError(file, joinPointer(pointer, container), "an object of schemas");
  const defNames = Object.keys(rawDefs).sort();
  const refNames = new Map<string, string>();
  const taken = new Set<string>();
  for (const def of defNames) refNames.set(def, uniqueBase(`${base}_${identifierPart(def)}`, taken));
  const ctx: SchemaContext = {
    file,
    refPrefix: `#/${container}/`,
    known: new Set(defNames),
    refNames,
    rootRef: name,
    formatsAsAnnotations: FORMATS,
  };
  const root = Object.fromEntries(Object.entries(raw).filter(([k]) => k !== "$schema" && k !== container));
  add(into, file, pointer, name, normaliseNode(ctx, root, pointer));
  for (const def of defNames)
    add(
      into,
      file,
      joinPointer(pointer, container, def),
      refNames.get(def)!,
      normaliseNode(ctx, rawDefs[def], joinPointer(pointer, container, def)),
    );
}

function add(into: Map<string, SchemaNode>, file: string, pointer: string, name: string, node: SchemaNode): void {
  if (into.has(name))
    throw new BindgenError(
      file,
      pointer,
      "type names that differ between tools",
      `two schemas would both be named ${name}`,
    );
  into.set(name, node);
}

/** `get-weather` → `GetWeather`: the prefix of a tool's type names. */
export function typeBase(toolName: string): string {
  const words = toolName.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
  const joined = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  return joined === "" || /^[0-9]/.test(joined) ? `Tool${joined}` : joined;
}

function identifierPart(name: string): string {
  const part = name.replace(/[^A-Za-z0-9_]/g, "_");
  return part === "" ? "_" : part;
}

/** Names are taken in the snapshot's order (by tool name), so the same snapshot always gives the same names. */
function uniqueBase(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  taken.add(name);
  return name;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
