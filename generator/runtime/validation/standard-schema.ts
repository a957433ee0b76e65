// The generated validators as Standard Schema v1 objects (standardschema.dev), the interface other
// libraries accept (the official SDK's registerTool, tRPC, Hono, TanStack). The interface is written
// out here rather than imported, as its authors allow, so the output depends on no package. Nothing
// here runs until a user asks for a schema: a bundle that never does carries none of it.
import { escapeToken, setOwn, type JsonObject } from "../core/json.js";
import type { ValidationIssue } from "../core/jsonrpc.js";
import {
  INTEGER_BIT,
  NUMBER_BIT,
  TYPE_NAMES,
  type WireEntry,
  type WireNode,
} from "./table-format.js";
import { validateDefinition, wireEntry, type Tables } from "./validator.js";

/** One step of an issue's path: a key, or (as some libraries write it) a key in an object. */
export type StandardPathSegment = PropertyKey | { readonly key: PropertyKey };

/** A problem `validate` found: what is wrong, and where in the value. */
export interface StandardIssue {
  readonly message: string;
  /** Keys from the value's root to the offending value; absent for the root itself. */
  readonly path?: readonly StandardPathSegment[] | undefined;
}

/** The value, accepted: unchanged, typed as the schema's output. */
export interface StandardSuccess<O> {
  readonly value: O;
  readonly issues?: undefined;
}

export interface StandardFailure {
  readonly issues: readonly StandardIssue[];
}

export type StandardResult<O> = StandardSuccess<O> | StandardFailure;

/** Type-level only: no value carries it at run time. */
export interface StandardTypes<I, O> {
  readonly input: I;
  readonly output: O;
}

/** Which JSON Schema dialect a consumer asks for; only `"draft-2020-12"` is given here. */
export type JsonSchemaTarget = "draft-2020-12" | "draft-07" | "openapi-3.0" | (string & {});

export interface JsonSchemaOptions {
  readonly target: JsonSchemaTarget;
  readonly libraryOptions?: { readonly [key: string]: unknown } | undefined;
}

/** The JSON Schema of what a schema accepts (`input`) and gives back (`output`); the same here. */
export interface StandardJsonSchemaConverter {
  readonly input: (options: JsonSchemaOptions) => JsonObject;
  readonly output: (options: JsonSchemaOptions) => JsonObject;
}

/**
 * The `~standard` member of a generated validator: Standard Schema v1's validation and JSON Schema
 * interfaces together (what the official SDK v2 calls `StandardSchemaWithJSON`). `validate` never
 * returns a promise.
 */
export interface StandardProps<I, O> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (
    value: unknown,
    options?: { readonly libraryOptions?: { readonly [key: string]: unknown } | undefined },
  ) => StandardResult<O>;
  readonly types?: StandardTypes<I, O> | undefined;
  readonly jsonSchema: StandardJsonSchemaConverter;
}

/** A generated validator as a Standard Schema v1 object that also gives its JSON Schema. */
export interface StandardSchema<T> {
  readonly "~standard": StandardProps<T, T>;
}

/** Where a module's validators come from: its decoded table, and the table's text parts for the JSON Schema. */
export interface StandardSchemaSource {
  readonly tables: () => Tables;
  /** A release's `TABLE` then `NAMED`; a server's one `TABLE`. */
  readonly texts: () => readonly string[];
  /**
   * The JSON Schema a definition was published as, a fresh copy (a tool's `inputSchema` or `outputSchema`), or undefined.
   * Given where it is draft 2020-12 (no other `$schema`): it keeps the descriptions the table drops, which a model
   * reading the tool needs.
   */
  readonly published?: (definition: string) => JsonObject | undefined;
}

export const STANDARD_VENDOR = "mcp-bindgen";

const DIALECT = "https://json-schema.org/draft/2020-12/schema";
/** `$schema` values of draft 2020-12, the dialect a schema without `$schema` is read in too. */
const DIALECT_URI = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/** A table's entries across its parts, with each definition's name by entry. */
interface WireDefinitions {
  readonly entries: readonly WireEntry[];
  readonly names: ReadonlyMap<number, string>;
}

function readWire(texts: readonly string[]): WireDefinitions {
  const entries: WireEntry[] = [];
  const names = new Map<number, string>();
  for (const text of texts) {
    const [, namesLine = "", , ...lines] = text.split("\n");
    const offset = entries.length;
    if (namesLine !== "") namesLine.split(",").forEach((name, j) => names.set(offset + j, name));
    for (const line of lines) entries.push(wireEntry(line));
  }
  return { entries, names };
}

/**
 * Makes one module's validators Standard Schema objects, by definition name, each made once. The
 * JSON Schema is the published one where the source has it in draft 2020-12, else rebuilt from the
 * validator table itself (the schema the validator checks, without annotations such as
 * `description`, which the table does not carry); a fresh object on each call, so a consumer that
 * edits it changes no one else's.
 */
export function standardSchemas(
  source: StandardSchemaSource,
): (definition: string) => StandardSchema<unknown> {
  const made = new Map<string, StandardSchema<unknown>>();
  let wire: WireDefinitions | undefined;
  return (definition) => {
    let schema = made.get(definition);
    if (schema === undefined) {
      const toJson = (options: JsonSchemaOptions): JsonObject => {
        checkTarget(options);
        const published = source.published?.(definition);
        const dialect = published?.["$schema"];
        if (
          published !== undefined &&
          (dialect === undefined || (typeof dialect === "string" && DIALECT_URI.test(dialect)))
        )
          return published;
        wire ??= readWire(source.texts());
        return jsonSchemaOf(wire, source.tables().index.get(definition) ?? -1, definition);
      };
      schema = Object.freeze({
        "~standard": Object.freeze({
          version: 1 as const,
          vendor: STANDARD_VENDOR,
          validate: (value: unknown): StandardResult<unknown> => {
            const checked = validateDefinition(source.tables(), definition, value);
            return checked.ok
              ? { value }
              : { issues: checked.errors.map((e) => issueOf(e, value)) };
          },
          jsonSchema: Object.freeze({ input: toJson, output: toJson }),
        }),
      });
      made.set(definition, schema);
    }
    return schema;
  };
}

/** The spec asks for a throw on a target the library does not give. */
function checkTarget(options: JsonSchemaOptions | undefined): void {
  const target: unknown = options?.target;
  if (target !== "draft-2020-12")
    throw new TypeError(
      `${STANDARD_VENDOR} gives JSON Schema for the target "draft-2020-12" only, not ${JSON.stringify(target) ?? "undefined"}`,
    );
}

/** The issue's pointer as path keys: an array's index as a number, read off the value it points into. */
function issueOf(issue: ValidationIssue, value: unknown): StandardIssue {
  const message = `expected ${issue.expected}, got ${issue.got}`;
  if (issue.pointer === "") return { message };
  const path: PropertyKey[] = [];
  let at: unknown = value;
  for (const token of issue.pointer.slice(1).split("/")) {
    const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
    const index = Array.isArray(at) && /^(?:0|[1-9]\d*)$/.test(key) ? Number(key) : null;
    path.push(index ?? key);
    at =
      typeof at === "object" && at !== null && Object.prototype.hasOwnProperty.call(at, key)
        ? (at as { [key: string]: unknown })[key]
        : undefined;
  }
  return { message, path };
}

/**
 * A definition's JSON Schema (2020-12) from its table entry: the root is the definition itself,
 * every other definition it reaches is in `$defs` and referred to, anonymous nodes are inline.
 */
function jsonSchemaOf(wire: WireDefinitions, entry: number, definition: string): JsonObject {
  const resolve = (j: number): number => {
    const w = wire.entries[j];
    return typeof w === "number" ? w : j;
  };
  const root = resolve(entry);
  const defs: JsonObject = {};
  const pending: [string, number][] = [];
  const refer = (j: number): unknown => {
    const target = resolve(j);
    if (target === root) return { $ref: "#" };
    const name = wire.names.get(target);
    if (name === undefined) return nodeSchema(wire.entries[target] as WireNode, refer);
    if (!Object.prototype.hasOwnProperty.call(defs, name)) {
      setOwn(defs, name, true);
      pending.push([name, target]);
    }
    return { $ref: "#/$defs/" + escapeToken(name) };
  };
  const body = wire.entries[root];
  if (body === undefined || typeof body === "number")
    throw new RangeError(`no definition ${JSON.stringify(definition)} in the table`);
  const top = nodeSchema(body, refer);
  for (let next = pending.pop(); next !== undefined; next = pending.pop())
    setOwn(defs, next[0], nodeSchema(wire.entries[next[1]] as WireNode, refer));
  const schema: JsonObject = { $schema: DIALECT };
  // A root that accepts nothing (or anything) has no keywords to spread.
  if (top === false) schema["not"] = {};
  else if (top !== true) Object.assign(schema, top);
  if (Object.keys(defs).length > 0) schema["$defs"] = defs;
  return schema;
}

/** One node's keywords; `refer` gives the schema of a referenced entry. */
function nodeSchema(w: WireNode, refer: (j: number) => unknown): JsonObject | boolean {
  // A type mask of 0 accepts no value (`additionalProperties: false` is such a node).
  if (w.t === 0) return false;
  const s: JsonObject = {};
  if (w.t !== undefined) {
    const types = TYPE_NAMES.filter(
      (_, bit) => w.t! & (1 << bit) && !(1 << bit === INTEGER_BIT && w.t! & NUMBER_BIT),
    );
    s["type"] = types.length === 1 ? types[0] : types;
  }
  if (Object.prototype.hasOwnProperty.call(w, "c")) s["const"] = w.c;
  if (w.e !== undefined) s["enum"] = w.e;
  if (w.p !== undefined) {
    const properties: JsonObject = {};
    const required: string[] = [];
    for (let k = 0; k < w.p.length; k += 2) {
      const name = w.p[k] as string;
      const ref = w.p[k + 1] as number;
      setOwn(properties, name, refer(ref < 0 ? ~ref : ref));
      if (ref < 0) required.push(name);
    }
    s["properties"] = properties;
    if (required.length > 0) s["required"] = required;
  }
  if (w.a !== undefined) s["additionalProperties"] = refer(w.a);
  if (w.i !== undefined) s["items"] = refer(w.i);
  if (w.u !== undefined) s["anyOf"] = w.u.map(refer);
  if (w.o !== undefined) s["oneOf"] = w.o.map(refer);
  if (w.l !== undefined) s["allOf"] = w.l.map(refer);
  if (w.f !== undefined) s["format"] = w.f;
  if (w.n !== undefined) s["minimum"] = w.n;
  if (w.x !== undefined) s["maximum"] = w.x;
  if (w.X !== undefined) s["maxItems"] = w.X;
  const k = w.k;
  if (k !== undefined) {
    if (k.en !== undefined) s["exclusiveMinimum"] = k.en;
    if (k.ex !== undefined) s["exclusiveMaximum"] = k.ex;
    if (k.m !== undefined) s["multipleOf"] = k.m;
    if (k.np !== undefined) s["minProperties"] = k.np;
    if (k.xp !== undefined) s["maxProperties"] = k.xp;
    if (k.q === 1) s["uniqueItems"] = true;
    if (k.ni !== undefined) s["minItems"] = k.ni;
    if (k.nl !== undefined) s["minLength"] = k.nl;
    if (k.xl !== undefined) s["maxLength"] = k.xl;
    if (k.r !== undefined) s["pattern"] = k.r;
    if (k.no !== undefined) s["not"] = refer(k.no);
    if (k.if !== undefined) s["if"] = refer(k.if);
    if (k.th !== undefined) s["then"] = refer(k.th);
    if (k.el !== undefined) s["else"] = refer(k.el);
  }
  return Object.keys(s).length === 0 ? true : s;
}
