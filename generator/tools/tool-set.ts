import { BindgenError, joinPointer } from "../common/failures.ts";
import { CONTAINER, DIALECTS, normaliseNode, rejectAliasCycles, type SchemaContext } from "../load/normalise.ts";
import type { NormalisedSchema, SchemaNode } from "../load/schema-node.ts";
import { uriTemplateVariables } from "../runtime/tools/uri-template.ts";
import { FORMATS } from "../runtime/validation/table-format.ts";
import { acceptsToolKeyword } from "./accepted-keywords.ts";
import type { SnapshotPrompt, SnapshotTemplate, SnapshotTool, ToolsSnapshot } from "./snapshot.ts";

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

/** A tool the snapshot lists that cannot be generated: what was found, and where in the file it was read from. */
export interface LeftOutTool {
  readonly name: string;
  /** The tool's own pointer in `file`. */
  readonly pointer: string;
  /** The refusal, its pointer at the offending keyword or value in the same file. */
  readonly error: BindgenError;
  /** As listed, so a diff can still tell whether it changed. */
  readonly listed: SnapshotTool;
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
  /** Tools whose schemas cannot be generated, in the file's order: left out of the module, each told to `warn`. */
  readonly leftOut: readonly LeftOutTool[];
  /** The server's prompts and resource templates, as snapshotted (none when it offers none). */
  readonly prompts: readonly SnapshotPrompt[];
  readonly resourceTemplates: readonly SnapshotTemplate[];
}

/**
 * Reads the snapshot's schemas. A tool that cannot be generated (a keyword the validators lack, a remote `$ref`, a
 * cycle) is left out, its refusal naming the file, the JSON pointer and the tool; the others are read as if it were not there.
 */
export function toolSet(file: string, snapshot: ToolsSnapshot): ToolSet {
  const definitions = new Map<string, SchemaNode>();
  const bases = new Set<string>();
  const tools: ToolModel[] = [];
  const leftOut: LeftOutTool[] = [];
  snapshot.tools.forEach((tool, i) => {
    const pointer = snapshot.pointers?.[i] ?? joinPointer("/tools", i);
    // Taken before the tool is read, so a tool left out never renames the others' types.
    const base = uniqueBase(typeBase(tool.name), bases);
    try {
      tools.push(readTool(file, tool, pointer, base, definitions));
    } catch (err) {
      if (!(err instanceof BindgenError)) throw err;
      const named = err.detail?.startsWith("tool ")
        ? err
        : new BindgenError(
            err.file,
            err.pointer,
            err.expected,
            [`tool "${tool.name}"`, err.detail].filter((d) => d !== undefined).join("; "),
          );
      leftOut.push({ name: tool.name, pointer, error: named, listed: tool });
    }
  });
  leftOut.sort((a, b) => indexOf(a.pointer) - indexOf(b.pointer));
  const sorted = new Map([...definitions].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const schema: NormalisedSchema = {
    file,
    dialect: "2020-12",
    definitionsPointer: "/tools",
    definitions: sorted,
    sha256: snapshot.sha256,
  };
  return {
    file,
    server: snapshot.server,
    release: snapshot.release,
    sha256: snapshot.sha256,
    tools,
    schema,
    leftOut,
    prompts: snapshot.prompts ?? [],
    resourceTemplates: snapshot.resourceTemplates ?? [],
  };
}

/** Where a tool stands in its array: `/tools/9` comes before `/tools/10`. */
function indexOf(pointer: string): number {
  return Number(pointer.slice(pointer.lastIndexOf("/") + 1));
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
  // Checked whole before any is added, so a tool left out here leaves nothing of itself behind.
  for (const [name, node] of into)
    if (all.has(name))
      throw new BindgenError(
        file,
        node.pointer,
        "type names that differ between tools",
        `two schemas would both be named ${name}`,
      );
  for (const [name, node] of into) all.set(name, node);
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
    accepts: acceptsToolKeyword,
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

/**
 * Each variable of a resource template's URI and whether a caller must give it: a variable used only in
 * query and path-parameter expressions (`?`, `&`, `;`) may be left out (RFC 6570 expands it to nothing).
 */
export function uriParameters(uriTemplate: string): Map<string, boolean> {
  const required = new Map<string, boolean>();
  for (const v of uriTemplateVariables(uriTemplate))
    required.set(v.name, (required.get(v.name) ?? false) || !["?", "&", ";"].includes(v.operator));
  return required;
}
