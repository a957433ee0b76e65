// A JSON Schema given at run time (a tool's `inputSchema`/`outputSchema` declared as a literal, or listed by a remote
// server's `tools/list`) compiled into the interpreter's nodes, so it validates with the same semantics, issue
// messages and pointers as the generated validators, and without eval. The schema is built into table entries
// (table-format.ts) and linked by validator.ts; the keywords the table has no field for are checked here, wrapped
// around the node's rare-keywords check. A schema from a remote server is untrusted input: its size, nesting and
// applicator chains are bounded, and a `$ref` cycle that would recurse without reaching into the value is refused.
import { escapeToken, isObject, own, setOwn } from "../core/json.js";
import { rareKeywords } from "./rare-keywords.js";
import {
  FORMATS,
  OBJECT_BIT as OBJ,
  ARRAY_BIT as ARR,
  TYPE_BITS,
  type WireEntry,
  type WireNode,
  type WireRare,
} from "./table-format.js";
import {
  check,
  describeNode,
  fail,
  linkNodes,
  passes,
  validateDefinition,
  VALIDATION_LIMITS,
  type Run,
  type SchemaNode,
  type Tables,
  type ValidationIssue,
  type ValidationResult,
} from "./validator.js";

/** A schema this module cannot check, or that is not a JSON Schema: `pointer` is where in it, `keyword` the keyword. */
export class SchemaError extends Error {
  /** RFC 6901 pointer into the schema given, to the offending value ("" for the schema itself). */
  readonly pointer: string;
  /** The keyword whose value it is ("" for the schema itself). */
  readonly keyword: string;
  constructor(where: string, pointer: string, keyword: string, expected: string) {
    super(`${where}#${pointer}: ${expected}`);
    this.name = "SchemaError";
    this.pointer = pointer;
    this.keyword = keyword;
  }
}

export interface CompiledSchema {
  /** The value's issues against the schema, innermost first as the generated validators report them; never throws on a JSON value. */
  validate(value: unknown): ValidationResult;
}

/** Real tool schemas have tens of nodes and nest about ten levels; anything near these is hostile or broken. */
const MAX_NODES = 10_000;
const MAX_NESTING = 128;
/** Applicators (`allOf`, `anyOf`, `$ref` beside keywords, ...) stacked on one value: each is a call that reaches no deeper into it. */
const MAX_CHAIN = 32;
/** Schemas one value may be checked against through applicators, counted with repeats: bounds what a `$ref` DAG can fan out to. */
const MAX_FAN_OUT = 10_000;

/**
 * Dialects read, without scheme or trailing `#`; absent `$schema` is 2020-12, as MCP says. Older drafts differ in ways
 * this reader would check wrongly (draft-04's boolean `exclusiveMinimum`).
 */
const DIALECTS = new Set([
  "//json-schema.org/draft-06/schema",
  "//json-schema.org/draft-07/schema",
  "//json-schema.org/draft/2019-09/schema",
  "//json-schema.org/draft/2020-12/schema",
]);

/** Keywords that would constrain a value and that this reader cannot check: refused, never read as annotations. */
const UNSUPPORTED = new Set([
  "unevaluatedProperties",
  "unevaluatedItems",
  "$dynamicRef",
  "$recursiveRef",
]);

/** Every keyword that is not a pure annotation: a `$ref` beside none of these is an alias of its target. */
const CONSTRAINING = new Set([
  "type",
  "const",
  "enum",
  "properties",
  "required",
  "additionalProperties",
  "patternProperties",
  "propertyNames",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "minProperties",
  "maxProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "contains",
  "minItems",
  "maxItems",
  "uniqueItems",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "if",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  // UNSUPPORTED's, spelt out: a spread is no pure expression to a bundler, so it kept both sets in every bundle
  // that reaches this module, whether or not it compiles a schema.
  "unevaluatedProperties",
  "unevaluatedItems",
  "$dynamicRef",
  "$recursiveRef",
]);

type Raw = { readonly [key: string]: unknown };
type MutableWire = { -readonly [K in keyof WireNode]: WireNode[K] };
type MutableRare = { -readonly [K in keyof WireRare]: WireRare[K] };

/** What the table has no field for: schemas as entry indices (`N` number) while building, as nodes once linked. */
interface Extra<N> {
  /** `required` names without a `properties` schema. */
  readonly present: readonly string[];
  readonly patterns: (readonly [RegExp, N])[];
  /** `properties` names: `additional` (here only beside `patternProperties`) skips them. */
  readonly declared: readonly string[];
  additional: N | null;
  /** `propertyNames`. */
  names: N | null;
  readonly dependentRequired: (readonly [string, readonly string[]])[];
  readonly dependentSchemas: (readonly [string, N])[];
  /** `prefixItems` (or an `items` array), and the schema of the items after them. */
  prefix: readonly N[];
  rest: N | null;
  contains: N | null;
  minContains: number;
  maxContains: number;
}

/**
 * Compiles `schema` (draft-06, draft-07, 2019-09 or 2020-12; a JSON Schema object or boolean) into a validator.
 * Annotations and unknown keywords are ignored, as are formats other than table-format.ts's `FORMATS` (2020-12 makes
 * `format` an annotation); a keyword that would constrain and is not implemented, a `$ref` that is not local, or a
 * malformed keyword throws `SchemaError`. `where` names the schema in messages ("tool \"x\" inputSchema").
 */
export function compileJsonSchema(
  schema: unknown,
  options?: { readonly where?: string },
): CompiledSchema {
  const compiler = new Compiler(schema, options?.where ?? "schema");
  const nodes = compiler.compile();
  const root = nodes[0]!;
  const tables: Tables = {
    version: "",
    index: new Map([[root.name, 0]]),
    nodes,
    methods: new Map(),
    result: root,
    error: root,
    equal: rareKeywords.equal,
  };
  return {
    validate: (value) => {
      try {
        return validateDefinition(tables, root.name, value);
      } catch (err) {
        // A schema's applicators stacked deep inside a value deeply nested: a stack overflow is an answer, not a crash.
        if (!(err instanceof RangeError)) throw err;
        return {
          ok: false,
          errors: [
            { pointer: "", expected: "a value the schema can check", got: "nesting too deep" },
          ],
        };
      }
    },
  };
}

class Compiler {
  private readonly wires: WireEntry[] = [];
  private readonly names: string[] = [];
  private readonly extras = new Map<number, Extra<number>>();
  /** Entry index by the pointer of the schema it was built from: a `$ref` and the walk share one node. */
  private readonly built = new Map<string, number>();
  /** Pointers of `$ref`-only schemas being resolved: meeting one again is a cycle that describes no value. */
  private readonly resolving = new Set<string>();
  /** Entries whose keywords are still being read: a `$ref` back to one may not take its empty wire for "any value". */
  private readonly filling = new Set<number>();

  constructor(
    private readonly root: unknown,
    private readonly where: string,
  ) {}

  compile(): SchemaNode[] {
    const root = this.root;
    if (isObject(root) && own(root, "$schema")) {
      const declared = root["$schema"];
      if (
        typeof declared !== "string" ||
        !DIALECTS.has(declared.replace(/^https?:/, "").replace(/#$/, ""))
      )
        throw this.error(
          "/$schema",
          "$schema",
          "a draft-06, draft-07, 2019-09 or 2020-12 $schema URI",
        );
    }
    // Entry 0: the root's own, or the first one built for what the root's `$ref` names.
    this.node(root, "", "", 0, false);
    // Definitions nothing refers to are read too, so a broken one is refused whatever refers to what.
    if (isObject(root))
      for (const container of ["$defs", "definitions"])
        if (own(root, container)) {
          const defs = root[container];
          if (!isObject(defs)) throw this.error("/" + container, container, "an object of schemas");
          for (const name of Object.keys(defs))
            this.node(defs[name], `/${container}/${escapeToken(name)}`, container, 1, false);
        }
    this.checkChains();
    this.discriminators();
    const nodes = linkNodes(this.wires, this.names, undefined, rareKeywords);
    for (const [j, e] of this.extras) attach(nodes[j]!, e, (i) => nodes[i]!);
    return nodes;
  }

  private error(pointer: string, keyword: string, expected: string): SchemaError {
    return new SchemaError(this.where, pointer, keyword, expected);
  }

  /** The entry index of the schema `raw` at `pointer`, under `keyword`; `embedded` once inside a nested `$id` resource. */
  private node(
    raw: unknown,
    pointer: string,
    keyword: string,
    depth: number,
    embedded: boolean,
  ): number {
    const done = this.built.get(pointer);
    if (done !== undefined) return done;
    if (depth > MAX_NESTING)
      throw this.error(pointer, keyword, `schemas nested at most ${MAX_NESTING} levels deep`);
    if (this.wires.length >= MAX_NODES)
      throw this.error(pointer, keyword, `at most ${MAX_NODES} schemas`);
    if (raw === true) return this.entry(pointer, {});
    if (raw === false) {
      const j = this.entry(pointer, { t: 0 });
      // What an issue expects where `false` closes an array; elsewhere the interpreter's "nothing" reads right.
      if (keyword === "items" || keyword === "additionalItems")
        this.names[j] = "no item at this index";
      return j;
    }
    if (!isObject(raw)) throw this.error(pointer, keyword, "a schema (an object or a boolean)");
    const inner = embedded || (pointer !== "" && own(raw, "$id"));
    for (const key of Object.keys(raw))
      if (UNSUPPORTED.has(key))
        throw this.error(
          `${pointer}/${escapeToken(key)}`,
          key,
          `a keyword this validator implements (not ${key})`,
        );
    const ref = own(raw, "$ref") ? this.refTarget(raw["$ref"], pointer, inner) : null;
    if (ref !== null && !Object.keys(raw).some((k) => CONSTRAINING.has(k))) {
      // Only annotations beside it: the schema is its target.
      if (this.resolving.has(pointer))
        throw this.error(
          `${pointer}/$ref`,
          "$ref",
          "a $ref that reaches a schema (this one is a cycle of $refs)",
        );
      this.resolving.add(pointer);
      const target = this.node(ref.schema, ref.pointer, "$ref", depth + 1, ref.embedded);
      this.resolving.delete(pointer);
      this.built.set(pointer, target);
      return target;
    }
    const w: MutableWire = {};
    const j = this.entry(pointer, w);
    this.filling.add(j);
    const at = (key: string): string => `${pointer}/${escapeToken(key)}`;
    const sub = (value: unknown, p: string, key: string): number =>
      this.node(value, p, key, depth + 1, inner);
    const schemas = (key: string): number[] => {
      const list = raw[key];
      if (!Array.isArray(list) || list.length === 0)
        throw this.error(at(key), key, "a non-empty array of schemas");
      return list.map((m, i) => sub(m, `${at(key)}/${i}`, key));
    };
    const count = (key: string): number | undefined => {
      if (!own(raw, key)) return undefined;
      const v = raw[key];
      if (typeof v !== "number" || !Number.isInteger(v) || v < 0)
        throw this.error(at(key), key, "a non-negative integer");
      return v;
    };
    const bound = (key: string): number | undefined => {
      if (!own(raw, key)) return undefined;
      const v = raw[key];
      if (typeof v !== "number" || !Number.isFinite(v) || (key === "multipleOf" && v <= 0))
        throw this.error(at(key), key, key === "multipleOf" ? "a number above 0" : "a number");
      return v;
    };
    const regex = (source: unknown, p: string, key: string): RegExp => {
      if (typeof source !== "string") throw this.error(p, key, "a regular expression string");
      try {
        return new RegExp(source, "u");
      } catch {
        throw this.error(p, key, "a valid regular expression (with the u flag)");
      }
    };
    const record = (key: string): Raw => {
      const v = raw[key];
      if (!isObject(v)) throw this.error(at(key), key, "an object");
      return v;
    };
    const names = (v: unknown, p: string, key: string): string[] => {
      if (!Array.isArray(v) || !v.every((s) => typeof s === "string"))
        throw this.error(p, key, "an array of property names");
      return [...new Set(v)];
    };

    if (own(raw, "type")) {
      const type = raw["type"];
      const list = Array.isArray(type) ? type : [type];
      if (list.length === 0 || !list.every((t) => typeof t === "string" && own(TYPE_BITS, t)))
        throw this.error(at("type"), "type", "a JSON type name or a non-empty array of them");
      w.t = list.reduce((mask: number, t) => mask | TYPE_BITS[t as keyof typeof TYPE_BITS], 0);
    }
    if (own(raw, "const")) w.c = this.json(raw["const"], at("const"), "const", 0);
    if (own(raw, "enum")) {
      const values = raw["enum"];
      if (!Array.isArray(values)) throw this.error(at("enum"), "enum", "an array of values");
      w.e = values.map((v, i) => this.json(v, `${at("enum")}/${i}`, "enum", 0));
    }

    const required = own(raw, "required") ? names(raw["required"], at("required"), "required") : [];
    const declared = own(raw, "properties") ? Object.keys(record("properties")) : [];
    const children = new Map<string, number>();
    for (const name of declared)
      children.set(
        name,
        sub(
          (raw["properties"] as Raw)[name],
          `${at("properties")}/${escapeToken(name)}`,
          "properties",
        ),
      );
    // A required name with no schema of its own must be present, and is still not a declared property (which
    // `additionalProperties` would skip): the extra check tests it, not the table.
    const present = required.filter((name) => !children.has(name));
    // In name order, as the generator writes them: issues come in the generated validators' order.
    const p = [...children.keys()]
      .sort()
      .flatMap((name) => [
        name,
        required.includes(name) ? ~children.get(name)! : children.get(name)!,
      ]);
    if (p.length > 0) w.p = p;

    const extra: Extra<number> = {
      patterns: [],
      declared,
      additional: null,
      names: null,
      present,
      dependentRequired: [],
      dependentSchemas: [],
      prefix: [],
      rest: null,
      contains: null,
      minContains: 1,
      maxContains: Infinity,
    };
    let hasExtra = present.length > 0;
    if (own(raw, "patternProperties")) {
      const patterns = record("patternProperties");
      for (const source of Object.keys(patterns)) {
        const p2 = `${at("patternProperties")}/${escapeToken(source)}`;
        extra.patterns.push([
          regex(source, p2, "patternProperties"),
          sub(patterns[source], p2, "patternProperties"),
        ]);
        hasExtra = true;
      }
    }
    if (own(raw, "additionalProperties")) {
      const additional = raw["additionalProperties"];
      const a =
        additional === true
          ? null
          : sub(additional, at("additionalProperties"), "additionalProperties");
      // Beside patternProperties it skips the keys a pattern matches too, which only the extra check knows.
      if (a !== null && extra.patterns.length > 0) extra.additional = a;
      else if (a !== null && !this.isAny(a)) w.a = a;
    }
    if (own(raw, "propertyNames")) {
      extra.names = sub(raw["propertyNames"], at("propertyNames"), "propertyNames");
      hasExtra = true;
    }
    const dependencies = (key: string): void => {
      const deps = record(key);
      for (const name of Object.keys(deps)) {
        const p2 = `${at(key)}/${escapeToken(name)}`;
        const dep = deps[name];
        if (key !== "dependentSchemas" && Array.isArray(dep))
          extra.dependentRequired.push([name, names(dep, p2, key)]);
        else if (key !== "dependentRequired")
          extra.dependentSchemas.push([name, sub(dep, p2, key)]);
        else throw this.error(p2, key, "an array of property names");
      }
      hasExtra = true;
    };
    for (const key of ["dependentRequired", "dependentSchemas", "dependencies"])
      if (own(raw, key)) dependencies(key);
    const np = count("minProperties");
    const xp = count("maxProperties");

    // Array form of `items` (draft-07 and before) is 2020-12's `prefixItems`, with `additionalItems` for the rest.
    const items = own(raw, "items") ? raw["items"] : undefined;
    if (own(raw, "prefixItems") || Array.isArray(items)) {
      const tuple = own(raw, "prefixItems") ? "prefixItems" : "items";
      extra.prefix = schemas(tuple);
      const rest = tuple === "items" ? "additionalItems" : "items";
      if (own(raw, rest) && raw[rest] !== true) extra.rest = sub(raw[rest], at(rest), rest);
      hasExtra = true;
    } else if (items !== undefined && items !== true) {
      const i = sub(items, at("items"), "items");
      if (!this.isAny(i)) w.i = i;
    }
    if (own(raw, "contains")) {
      extra.contains = sub(raw["contains"], at("contains"), "contains");
      extra.minContains = count("minContains") ?? 1;
      extra.maxContains = count("maxContains") ?? Infinity;
      hasExtra = true;
    }

    const allOf = own(raw, "allOf") ? schemas("allOf") : [];
    if (ref !== null)
      allOf.unshift(this.node(ref.schema, ref.pointer, "$ref", depth + 1, ref.embedded));
    if (allOf.length > 0) w.l = allOf;
    if (own(raw, "anyOf")) w.u = schemas("anyOf");
    if (own(raw, "oneOf")) w.o = schemas("oneOf");

    if (own(raw, "format")) {
      const format = raw["format"];
      if (typeof format !== "string") throw this.error(at("format"), "format", "a format name");
      if (FORMATS.includes(format)) w.f = format;
    }
    const minimum = bound("minimum");
    if (minimum !== undefined) w.n = minimum;
    const maximum = bound("maximum");
    if (maximum !== undefined) w.x = maximum;
    const maxItems = count("maxItems");
    if (maxItems !== undefined) w.X = maxItems;

    const k: MutableRare = {};
    const set = <K extends keyof WireRare>(key: K, value: WireRare[K] | undefined): void => {
      if (value !== undefined) k[key] = value;
    };
    set("en", bound("exclusiveMinimum"));
    set("ex", bound("exclusiveMaximum"));
    set("m", bound("multipleOf"));
    set("np", np);
    set("xp", xp);
    if (own(raw, "uniqueItems")) {
      const unique = raw["uniqueItems"];
      if (typeof unique !== "boolean")
        throw this.error(at("uniqueItems"), "uniqueItems", "a boolean");
      if (unique) k.q = 1;
    }
    set("ni", count("minItems"));
    set("nl", count("minLength"));
    set("xl", count("maxLength"));
    if (own(raw, "pattern")) {
      regex(raw["pattern"], at("pattern"), "pattern");
      k.r = raw["pattern"] as string;
    }
    if (own(raw, "not")) k.no = sub(raw["not"], at("not"), "not");
    // `then` and `else` mean nothing without `if`.
    if (own(raw, "if")) {
      k.if = sub(raw["if"], at("if"), "if");
      if (own(raw, "then")) k.th = sub(raw["then"], at("then"), "then");
      if (own(raw, "else")) k.el = sub(raw["else"], at("else"), "else");
    }
    if (hasExtra) this.extras.set(j, extra);
    // A node with extra checks needs a rare check to hang them on, and must be neither "any" nor a type-only leaf.
    if (Object.keys(k).length > 0 || hasExtra) w.k = k;
    this.filling.delete(j);
    return j;
  }

  /** Entry `i` admits every value: it has no keyword, and is not one whose keywords are still being read. */
  private isAny(i: number): boolean {
    const w = this.wires[i]!;
    return !this.filling.has(i) && typeof w !== "number" && Object.keys(w).length === 0;
  }

  private entry(pointer: string, w: WireNode): number {
    const j = this.wires.push(w) - 1;
    this.built.set(pointer, j);
    // Definitions keep their name, as the generated validators' issues name theirs.
    const def = /^\/(?:\$defs|definitions)\/([^/]+)$/.exec(pointer);
    this.names[j] = def ? def[1]!.replace(/~1/g, "/").replace(/~0/g, "~") : "";
    return j;
  }

  /** The schema a `$ref` names: a JSON pointer into this document ("#", "#/$defs/X", "#/properties/a", ...). */
  private refTarget(
    ref: unknown,
    pointer: string,
    embedded: boolean,
  ): { schema: unknown; pointer: string; embedded: boolean } {
    const at = `${pointer}/$ref`;
    if (typeof ref !== "string" || (ref !== "#" && !ref.startsWith("#/")))
      throw this.error(
        at,
        "$ref",
        "a local reference (#/...): remote references and anchors are not read",
      );
    if (embedded)
      throw this.error(
        at,
        "$ref",
        "a $ref outside a nested $id (it would resolve against that resource)",
      );
    let tokens: string[];
    try {
      tokens = ref === "#" ? [] : decodeURIComponent(ref.slice(2)).split("/");
    } catch {
      throw this.error(at, "$ref", "a reference with valid percent-encoding");
    }
    let target: unknown = this.root;
    let path = "";
    for (const token of tokens) {
      const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
      const found =
        (isObject(target) || Array.isArray(target)) && own(target, key)
          ? (target as Raw)[key]
          : undefined;
      if (found === undefined)
        throw this.error(at, "$ref", "a reference to a schema in this document");
      target = found;
      path += "/" + escapeToken(key);
      if (isObject(target) && own(target, "$id") && path !== "")
        throw this.error(at, "$ref", "a reference outside a nested $id resource");
    }
    return { schema: target, pointer: path, embedded: false };
  }

  /** A `const` or `enum` value, copied (the compiled schema does not change with the literal) and checked to be JSON. */
  private json(value: unknown, pointer: string, keyword: string, depth: number): unknown {
    if (depth > MAX_NESTING)
      throw this.error(pointer, keyword, `a value nested at most ${MAX_NESTING} levels`);
    if (value === null || typeof value === "string" || typeof value === "boolean") return value;
    if (typeof value === "number" && Number.isFinite(value)) return value;
    if (Array.isArray(value))
      return value.map((v, i) => this.json(v, `${pointer}/${i}`, keyword, depth + 1));
    if (isObject(value)) {
      const copy: { [key: string]: unknown } = {};
      for (const key of Object.keys(value))
        setOwn(
          copy,
          key,
          this.json(value[key], `${pointer}/${escapeToken(key)}`, keyword, depth + 1),
        );
      return copy;
    }
    throw this.error(pointer, keyword, "a JSON value");
  }

  /**
   * The interpreter checks applicators (`allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`) on the
   * same value without going deeper into it: a cycle of them never ends, a long chain overflows the stack, and a DAG of
   * them can fan out exponentially. Each is refused here.
   */
  private checkChains(): void {
    const seen = new Map<number, { readonly height: number; readonly fanOut: number }>();
    const open = new Set<number>();
    const tooDeep = (j: number): SchemaError =>
      this.error(this.pointerOf(j), "", `applicators stacked at most ${MAX_CHAIN} deep`);
    // `depth` bounds the walk itself, so a long chain is refused before it could overflow the stack here.
    const visit = (
      j: number,
      depth: number,
    ): { readonly height: number; readonly fanOut: number } => {
      const known = seen.get(j);
      if (known !== undefined) {
        if (depth + known.height > MAX_CHAIN) throw tooDeep(j);
        return known;
      }
      if (depth > MAX_CHAIN) throw tooDeep(j);
      if (open.has(j))
        throw this.error(
          this.pointerOf(j),
          "$ref",
          "recursion only through properties or items (a cycle of applicators)",
        );
      open.add(j);
      let height = 0;
      let fanOut = 1;
      for (const next of this.applied(j)) {
        const below = visit(next, depth + 1);
        height = Math.max(height, below.height + 1);
        fanOut += below.fanOut;
      }
      open.delete(j);
      if (fanOut > MAX_FAN_OUT)
        throw this.error(
          this.pointerOf(j),
          "",
          `applicators reaching at most ${MAX_FAN_OUT} schemas per value`,
        );
      const found = { height, fanOut };
      seen.set(j, found);
      return found;
    };
    this.wires.forEach((_, j) => visit(j, 0));
  }

  /** The entries checked against the same value as entry `j`. */
  private applied(j: number): number[] {
    const w = this.wires[j]!;
    if (typeof w === "number") return [w];
    const k = w.k ?? {};
    // A declared predicate: TypeScript before 5.5 infers none, and typeCheckOutput compiles this on 5.0.
    const rare = [k.no, k.if, k.th, k.el].filter((i): i is number => i !== undefined);
    const deps = this.extras.get(j)?.dependentSchemas.map(([, i]) => i) ?? [];
    return [...(w.u ?? []), ...(w.o ?? []), ...(w.l ?? []), ...rare, ...deps];
  }

  private pointerOf(j: number): string {
    for (const [p, i] of this.built) if (i === j) return p;
    return "";
  }

  /**
   * An `anyOf`/`oneOf` whose members are all objects requiring a distinct string `const` at one property: the
   * interpreter then checks the member it names, and reports that member's issues (as emit/validate-table.ts does).
   */
  private discriminators(): void {
    for (const w of this.wires) {
      if (typeof w === "number" || (w.u !== undefined) === (w.o !== undefined)) continue;
      const members = (w.u ?? w.o)!.map((i) => this.wires[i]!);
      const plain = members.every(
        (m): m is WireNode => typeof m !== "number" && m.t === OBJ && !m.u && !m.o && !m.l && !!m.p,
      );
      if (!plain) continue;
      const constOf = (m: WireNode, key: string): string | undefined => {
        const at = m.p!.indexOf(key);
        const ref = at < 0 || at % 2 === 1 ? 0 : (m.p![at + 1] as number);
        const child = ref < 0 ? this.wires[~ref] : undefined;
        return typeof child === "object" && typeof child.c === "string" ? child.c : undefined;
      };
      const first = members[0] as WireNode;
      for (let k = 0; k < first.p!.length; k += 2) {
        const key = first.p![k] as string;
        const values = members.map((m) => constOf(m, key));
        if (values.every((v) => v !== undefined) && new Set(values).size === values.length) {
          (w as MutableWire).d = key;
          break;
        }
      }
    }
  }
}

/** Hangs the keywords the table has no field for on `n`'s rare check, after what that check already does. */
function attach(n: SchemaNode, e: Extra<number>, at: (i: number) => SchemaNode): void {
  const extra: Extra<SchemaNode> = {
    patterns: e.patterns.map(([r, i]) => [r, at(i)] as const),
    declared: e.declared,
    additional: e.additional === null ? null : at(e.additional),
    names: e.names === null ? null : at(e.names),
    present: e.present,
    dependentRequired: e.dependentRequired,
    dependentSchemas: e.dependentSchemas.map(([k, i]) => [k, at(i)] as const),
    prefix: e.prefix.map(at),
    rest: e.rest === null ? null : at(e.rest),
    contains: e.contains === null ? null : at(e.contains),
    minContains: e.minContains,
    maxContains: e.maxContains,
  };
  const before = n.rare;
  n.rare = (run, x, b, d) => {
    const ok = before === null || before(run, x, b, d);
    if (!ok && run.quiet > 0) return false;
    return checkExtra(run, extra, x, b, d) && ok;
  };
}

function push(run: Run, issue: ValidationIssue): false {
  if (run.issues.length < VALIDATION_LIMITS.maxErrors) run.issues.push(issue);
  return false;
}

/** Issues from `from` on were found inside `key`: put it in front of their pointers (validator.ts's `prefix`). */
function prefix(run: Run, from: number, key: string): void {
  const seg = "/" + escapeToken(key);
  const issues = run.issues;
  for (let j = from; j < issues.length; j++) {
    const issue = issues[j]!;
    issues[j] = { pointer: seg + issue.pointer, expected: issue.expected, got: issue.got };
  }
}

/** `x[key]` against `n`, its issues under `key`. */
function inside(run: Run, n: SchemaNode, x: unknown, key: string, d: number): boolean {
  const from = run.issues.length;
  if (check(run, n, x, d + 1)) return true;
  if (run.quiet === 0) prefix(run, from, key);
  return false;
}

function checkExtra(run: Run, e: Extra<SchemaNode>, x: unknown, b: number, d: number): boolean {
  let ok = true;
  if (b === OBJ) {
    const o = x as Raw;
    // The keys are visited only for the keywords that look at each of them.
    const perKey = e.names !== null || e.patterns.length > 0 || e.additional !== null;
    if (perKey)
      for (const key in o) {
        if (!own(o, key)) continue;
        if (e.names !== null) {
          const from = run.issues.length;
          if (!check(run, e.names, key, d + 1)) {
            if (run.quiet > 0) return false;
            ok = false;
            const seg = "/" + escapeToken(key);
            for (let j = from; j < run.issues.length; j++) {
              const issue = run.issues[j]!;
              run.issues[j] = {
                pointer: seg,
                expected: `a property name: ${issue.expected}`,
                got: issue.got,
              };
            }
          }
        }
        let matched = false;
        for (const [pattern, n] of e.patterns) {
          if (!pattern.test(key)) continue;
          matched = true;
          if (!inside(run, n, o[key], key, d)) {
            if (run.quiet > 0) return false;
            ok = false;
          }
        }
        if (e.additional !== null && !matched && !e.declared.includes(key)) {
          if (!inside(run, e.additional, o[key], key, d)) {
            if (run.quiet > 0) return false;
            ok = false;
          }
        }
      }
    for (const name of e.present)
      if (!own(o, name)) {
        if (run.quiet > 0) return false;
        ok = push(run, { pointer: "/" + escapeToken(name), expected: "any value", got: "missing" });
      }
    for (const [key, deps] of e.dependentRequired) {
      if (!own(o, key)) continue;
      for (const dep of deps)
        if (!own(o, dep)) {
          if (run.quiet > 0) return false;
          ok = push(run, {
            pointer: "/" + escapeToken(dep),
            expected: `a value (required when ${JSON.stringify(key)} is present)`,
            got: "missing",
          });
        }
    }
    for (const [key, n] of e.dependentSchemas)
      if (own(o, key) && !check(run, n, x, d)) {
        if (run.quiet > 0) return false;
        ok = false;
      }
  } else if (b === ARR) {
    const a = x as readonly unknown[];
    for (let j = 0; j < a.length; j++) {
      const n = j < e.prefix.length ? e.prefix[j]! : e.rest;
      if (n === null) break;
      if (!inside(run, n, a[j], String(j), d)) {
        if (run.quiet > 0 || run.issues.length >= VALIDATION_LIMITS.maxErrors) return false;
        ok = false;
      }
    }
    if (e.contains !== null) {
      let found = 0;
      for (const item of a) if (passes(run, e.contains, item, d + 1)) found++;
      const what = describeNode(e.contains);
      if (found < e.minContains)
        ok = fail(run, `at least ${e.minContains} items of ${what}`, x, `${found} such items`);
      else if (found > e.maxContains)
        ok = fail(run, `at most ${e.maxContains} items of ${what}`, x, `${found} such items`);
    }
  }
  return ok;
}
