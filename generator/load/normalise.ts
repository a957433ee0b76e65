import { BindgenError, joinPointer } from "../common/failures.ts";
import type { Dialect, JsonType, JsonValue, NormalisedSchema, SchemaNode, SchemaProperty } from "./schema-node.ts";

/** `$schema` URIs (without a trailing `#`) of the dialects the pipeline reads. */
export const DIALECTS: ReadonlyMap<string, Dialect> = new Map([
  ["http://json-schema.org/draft-07/schema", "draft-07"],
  ["https://json-schema.org/draft-07/schema", "draft-07"],
  ["http://json-schema.org/draft/2020-12/schema", "2020-12"],
  ["https://json-schema.org/draft/2020-12/schema", "2020-12"],
]);

/** Where each dialect keeps its definitions. */
export const CONTAINER: Readonly<Record<Dialect, string>> = { "draft-07": "definitions", "2020-12": "$defs" };

const JSON_TYPES: ReadonlySet<string> = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);

/** Keywords that carry no meaning for bindings and are dropped without complaint. */
const IGNORED = new Set(["title", "$comment", "examples", "$id", "readOnly", "writeOnly"]);
const HANDLED = new Set([
  "description",
  "$ref",
  "type",
  "const",
  "enum",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "oneOf",
  "allOf",
  "format",
  "minimum",
  "maximum",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "pattern",
  "default",
  "deprecated",
  ...["exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minProperties", "maxProperties", "uniqueItems"],
  ...["not", "if", "then", "else"],
]);

/** Real MCP schemas nest about ten levels; anything near this is hostile or broken input. */
export const MAX_DEPTH = 64;

const RESERVED_NAMES = new Set([
  "any",
  "unknown",
  "never",
  "object",
  "string",
  "number",
  "boolean",
  "symbol",
  "bigint",
  "undefined",
  "void",
  "null",
  "constructor",
  "prototype",
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "import",
  "in",
  "instanceof",
  "new",
  "return",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "var",
  "while",
  "with",
  "type",
  "interface",
  "let",
  "package",
  "private",
  "protected",
  "public",
  "static",
  "yield",
  "await",
  "implements",
]);

type Raw = { readonly [key: string]: unknown };

function isObject(value: unknown): value is Raw {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function own(obj: Raw, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

/** Reduces a parsed schema document to a `NormalisedSchema`, or throws a `BindgenError`. */
export function normalise(file: string, document: unknown, sha256: string): NormalisedSchema {
  if (!isObject(document)) throw new BindgenError(file, "", "a JSON object at the top level");
  const declared = own(document, "$schema");
  const dialect = typeof declared === "string" ? DIALECTS.get(declared.replace(/#$/, "")) : undefined;
  if (!dialect) {
    throw new BindgenError(
      file,
      "/$schema",
      "a draft-07 or 2020-12 JSON Schema URI",
      `got ${JSON.stringify(declared ?? null)}`,
    );
  }
  const container = CONTAINER[dialect];
  const definitionsPointer = "/" + container;
  const rawDefs = own(document, container);
  if (!isObject(rawDefs)) {
    throw new BindgenError(
      file,
      definitionsPointer,
      `an object of definitions (the ${dialect} dialect keeps them in "${container}")`,
    );
  }
  const names = Object.keys(rawDefs).sort();
  for (const name of names) {
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name) || RESERVED_NAMES.has(name)) {
      throw new BindgenError(
        file,
        joinPointer(definitionsPointer, name),
        "a definition name that is a TypeScript identifier and not a reserved word",
      );
    }
  }
  const known = new Set(names);
  const ctx: SchemaContext = { file, refPrefix: `#/${container}/`, known };
  const definitions = new Map<string, SchemaNode>();
  for (const name of names) {
    definitions.set(name, node(ctx, rawDefs[name], joinPointer(definitionsPointer, name), 0));
  }
  rejectAliasCycles(file, definitions);
  return { file, dialect, definitionsPointer, definitions, sha256 };
}

/** What a node's references and keywords may be, for one document. */
export interface SchemaContext {
  readonly file: string;
  /** `#/$defs/` or `#/definitions/`: the only references a document may hold, besides `rootRef`'s "#". */
  readonly refPrefix: string;
  readonly known: ReadonlySet<string>;
  /** The name a node's `ref` gets for each definition name, where it differs (a tool's `$defs` get the tool's prefix). */
  readonly refNames?: ReadonlyMap<string, string>;
  /** What `{"$ref": "#"}` (the whole document, recursive tool schemas use it) names; refused when absent. */
  readonly rootRef?: string;
  /**
   * Formats the validators cannot check are kept as annotations (dropped) rather than refused: JSON Schema 2020-12 makes
   * `format` an annotation unless a vocabulary asserts it, and tool schemas name many (`email`, `date-time`).
   */
  readonly formatsAsAnnotations?: readonly string[];
  /** Keywords outside the pipeline's set a reader accepts and drops, because they cannot constrain a value it checks. */
  readonly accepts?: (keyword: string, value: unknown) => boolean;
}

/** One schema node of a document read by another reader (a server's tool schemas), with the same rules as a release's. */
export function normaliseNode(ctx: SchemaContext, raw: unknown, pointer: string): SchemaNode {
  return node(ctx, raw, pointer, 0);
}

/** `x-*` annotations (2026-07-28 describes `x-mcp-header`): kept for the diff, meaningless to validators. */
function isExtension(key: string): boolean {
  return key.startsWith("x-");
}

function node(ctx: SchemaContext, raw: unknown, pointer: string, depth: number): SchemaNode {
  if (depth > MAX_DEPTH) throw new BindgenError(ctx.file, pointer, `schemas nested at most ${MAX_DEPTH} levels deep`);
  if (raw === true || (isObject(raw) && Object.keys(raw).length === 0)) return { pointer };
  if (!isObject(raw)) throw new BindgenError(ctx.file, pointer, "a schema object", `got ${describe(raw)}`);
  for (const key of Object.keys(raw)) {
    if (!HANDLED.has(key) && !IGNORED.has(key) && !isExtension(key) && ctx.accepts?.(key, raw[key]) !== true) {
      throw new BindgenError(
        ctx.file,
        joinPointer(pointer, key),
        "a JSON Schema keyword that MCP schemas use",
        `"${key}" is not supported`,
      );
    }
  }
  const out: { -readonly [K in keyof SchemaNode]: SchemaNode[K] } = { pointer };
  const description = own(raw, "description");
  if (description !== undefined) out.description = str(ctx, description, joinPointer(pointer, "description"));
  const extensions = Object.keys(raw).filter(isExtension).sort();
  if (extensions.length > 0) out.extensions = Object.fromEntries(extensions.map((k) => [k, raw[k] as JsonValue]));

  const ref = own(raw, "$ref");
  if (ref !== undefined) {
    out.ref = refName(ctx, ref, joinPointer(pointer, "$ref"));
    const siblings = Object.keys(raw).filter(
      (k) =>
        k !== "$ref" && k !== "description" && !IGNORED.has(k) && !isExtension(k) && ctx.accepts?.(k, raw[k]) !== true,
    );
    if (siblings.length > 0) {
      throw new BindgenError(ctx.file, joinPointer(pointer, siblings[0]!), "only a description beside $ref");
    }
    return out;
  }

  const type = own(raw, "type");
  if (type !== undefined) out.type = types(ctx, type, joinPointer(pointer, "type"));
  if (Object.prototype.hasOwnProperty.call(raw, "const"))
    out.const = jsonValue(ctx, raw["const"], joinPointer(pointer, "const"), 0);
  const en = own(raw, "enum");
  if (en !== undefined) {
    if (!Array.isArray(en) || en.length === 0)
      throw new BindgenError(ctx.file, joinPointer(pointer, "enum"), "a non-empty array");
    out.enum = en.map((v, i) => jsonValue(ctx, v, joinPointer(pointer, "enum", i), 0));
  }
  const props = own(raw, "properties");
  const required = own(raw, "required");
  let requiredSet = new Set<string>();
  if (required !== undefined) {
    if (!Array.isArray(required) || !required.every((r) => typeof r === "string")) {
      throw new BindgenError(ctx.file, joinPointer(pointer, "required"), "an array of property names");
    }
    requiredSet = new Set(required);
  }
  if (props !== undefined) {
    if (!isObject(props))
      throw new BindgenError(ctx.file, joinPointer(pointer, "properties"), "an object of property schemas");
    const list: SchemaProperty[] = [];
    for (const name of Object.keys(props).sort()) {
      list.push({
        name,
        required: requiredSet.has(name),
        schema: node(ctx, props[name], joinPointer(pointer, "properties", name), depth + 1),
      });
    }
    out.properties = list;
  }
  const declaredProps = new Set(out.properties?.map((p) => p.name) ?? []);
  for (const name of [...requiredSet].sort()) {
    if (!declaredProps.has(name)) {
      // A required key with no schema is allowed by JSON Schema; bindings give it type unknown.
      out.properties = [
        ...(out.properties ?? []),
        { name, required: true, schema: { pointer: joinPointer(pointer, "required") } },
      ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
  }
  const additional = own(raw, "additionalProperties");
  if (additional !== undefined) {
    out.additionalProperties =
      typeof additional === "boolean"
        ? additional
        : node(ctx, additional, joinPointer(pointer, "additionalProperties"), depth + 1);
  }
  const items = own(raw, "items");
  if (items !== undefined) out.items = node(ctx, items, joinPointer(pointer, "items"), depth + 1);
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const members = own(raw, key);
    if (members === undefined) continue;
    if (!Array.isArray(members) || members.length === 0) {
      throw new BindgenError(ctx.file, joinPointer(pointer, key), "a non-empty array of schemas");
    }
    out[key] = members.map((m, i) => node(ctx, m, joinPointer(pointer, key, i), depth + 1));
  }
  const format = own(raw, "format");
  if (format !== undefined) {
    const name = str(ctx, format, joinPointer(pointer, "format"));
    if (ctx.formatsAsAnnotations === undefined || ctx.formatsAsAnnotations.includes(name)) out.format = name;
  }
  const bounds = [
    ...["minimum", "maximum", "minItems", "maxItems", "minLength", "maxLength"],
    ...["exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minProperties", "maxProperties"],
  ] as const;
  for (const key of bounds) {
    const value = own(raw, key);
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || (key === "multipleOf" && value <= 0))
      throw new BindgenError(
        ctx.file,
        joinPointer(pointer, key),
        key === "multipleOf" ? "a number above 0" : "a number",
      );
    out[key] = value;
  }
  const unique = own(raw, "uniqueItems");
  if (unique !== undefined) {
    if (typeof unique !== "boolean") throw new BindgenError(ctx.file, joinPointer(pointer, "uniqueItems"), "a boolean");
    if (unique) out.uniqueItems = true;
  }
  for (const key of ["not", "if", "then", "else"] as const) {
    const sub = own(raw, key);
    if (sub !== undefined) out[key] = node(ctx, sub, joinPointer(pointer, key), depth + 1);
  }
  const pattern = own(raw, "pattern");
  if (pattern !== undefined) out.pattern = str(ctx, pattern, joinPointer(pointer, "pattern"));
  if (Object.prototype.hasOwnProperty.call(raw, "default"))
    out.default = jsonValue(ctx, raw["default"], joinPointer(pointer, "default"), 0);
  const deprecated = own(raw, "deprecated");
  if (deprecated !== undefined) {
    if (typeof deprecated !== "boolean")
      throw new BindgenError(ctx.file, joinPointer(pointer, "deprecated"), "a boolean");
    out.deprecated = deprecated;
  }
  return out;
}

/**
 * A literal value (`const`, `enum` member, `default`) as a canonical copy: object keys sorted,
 * so key order in the input never reaches the output, and nesting bounded, so emitters and
 * validators that walk it cannot overflow the stack. `Object.fromEntries` defines keys as own
 * data properties, so a key named `__proto__` stays a key.
 */
function jsonValue(ctx: SchemaContext, value: unknown, pointer: string, depth: number): JsonValue {
  if (depth > MAX_DEPTH) throw new BindgenError(ctx.file, pointer, `a value nested at most ${MAX_DEPTH} levels deep`);
  if (Array.isArray(value)) return value.map((v, i) => jsonValue(ctx, v, joinPointer(pointer, i), depth + 1));
  if (isObject(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, jsonValue(ctx, value[k], joinPointer(pointer, k), depth + 1)]),
    );
  }
  return value as JsonValue;
}

function str(ctx: SchemaContext, value: unknown, pointer: string): string {
  if (typeof value !== "string") throw new BindgenError(ctx.file, pointer, "a string", `got ${describe(value)}`);
  return value;
}

function types(ctx: SchemaContext, value: unknown, pointer: string): JsonType[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || !list.every((t) => typeof t === "string" && JSON_TYPES.has(t))) {
    throw new BindgenError(ctx.file, pointer, "a JSON type name or an array of them", `got ${JSON.stringify(value)}`);
  }
  return [...new Set(list as JsonType[])].sort();
}

function refName(ctx: SchemaContext, value: unknown, pointer: string): string {
  if (typeof value !== "string") throw new BindgenError(ctx.file, pointer, "a string reference");
  if (value === "#" && ctx.rootRef !== undefined) return ctx.rootRef;
  if (!value.startsWith(ctx.refPrefix)) {
    throw new BindgenError(ctx.file, pointer, `a local reference "${ctx.refPrefix}<Name>"`, `got "${value}"`);
  }
  let name: string;
  try {
    name = decodeURIComponent(value.slice(ctx.refPrefix.length)).replace(/~1/g, "/").replace(/~0/g, "~");
  } catch {
    throw new BindgenError(ctx.file, pointer, "a reference with valid percent-encoding", `got "${value}"`);
  }
  if (!ctx.known.has(name))
    throw new BindgenError(ctx.file, pointer, "a reference to an existing definition", `"${value}" does not resolve`);
  return ctx.refNames?.get(name) ?? name;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return typeof value === "string"
    ? `the string ${JSON.stringify(value.slice(0, 40))}`
    : `${typeof value} ${JSON.stringify(value)}`;
}

/**
 * Recursion is fine when it passes through structure (a property, an item, an index signature):
 * `JSONValue` does. A cycle made only of `$ref`s and union/intersection members describes no
 * value at all and would make emitters and validators loop, so it is an error.
 */
export function rejectAliasCycles(file: string, definitions: ReadonlyMap<string, SchemaNode>): void {
  const edges = new Map<string, string[]>();
  for (const [name, def] of definitions) edges.set(name, transparentRefs(def));
  const state = new Map<string, "open" | "done">();
  const visit = (name: string, path: string[]): void => {
    const s = state.get(name);
    if (s === "done") return;
    if (s === "open") {
      const cycle = [...path.slice(path.indexOf(name)), name];
      throw new BindgenError(
        file,
        definitions.get(name)!.pointer,
        "recursion only through properties, items or additionalProperties",
        `$ref cycle ${cycle.join(" -> ")}`,
      );
    }
    state.set(name, "open");
    for (const next of edges.get(name) ?? []) visit(next, [...path, name]);
    state.set(name, "done");
  };
  for (const name of definitions.keys()) visit(name, []);
}

function transparentRefs(n: SchemaNode): string[] {
  const out: string[] = [];
  if (n.ref) out.push(n.ref);
  const applied = [n.not, n.if, n.then, n.else].filter((m) => m !== undefined);
  for (const m of [...(n.anyOf ?? []), ...(n.oneOf ?? []), ...(n.allOf ?? []), ...applied])
    out.push(...transparentRefs(m));
  return out;
}
