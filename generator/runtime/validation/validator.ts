// The validator interpreter: walks a release's table (table-format.ts) decoded into a graph of
// `SchemaNode`s. Why an interpreter over a compact table rather than one function per schema
// node: the table is a fraction of the size of unrolled code (the bundle budget is a few KB
// gzip), and the decoded graph links `$ref`s directly, so recursion (`JSONValue`) is plain calls.
import { describeValue, escapeToken, own } from "../core/json.js";
import { checkEnvelope, type ValidationIssue, type WireMessage } from "../core/jsonrpc.js";
import {
  ANY_TYPE,
  ARRAY_BIT as ARR,
  BOOLEAN_BIT as BOOL,
  INPUT_KIND,
  INTEGER_BIT as INT,
  NOTIFICATION_KIND,
  NULL_BIT as NULL,
  NUMBER_BIT as NUM,
  OBJECT_BIT as OBJ,
  REQUEST_KIND,
  STRING_BIT as STR,
  TYPE_NAMES,
  type WireEntry,
  type WireMethod,
  type WireNode,
} from "./table-format.js";

export type { ValidationIssue } from "../core/jsonrpc.js";

export type ValidationResult =
  { readonly ok: true } | { readonly ok: false; readonly errors: readonly ValidationIssue[] };

/** -32600: not a valid JSON-RPC message; -32601: unknown method; -32602: bad params. */
export type MessageValidationResult =
  | { readonly ok: true; readonly kind: "request" | "notification" | "result" | "error" }
  | {
      readonly ok: false;
      readonly code: -32600 | -32601 | -32602;
      readonly errors: readonly ValidationIssue[];
    };

const MAX_ERRORS = 20;
const MAX_DEPTH = 256;

/** At most this many issues are reported; nesting deeper than `maxDepth` is an issue, never a stack overflow. */
export const VALIDATION_LIMITS: Readonly<{ maxErrors: 20; maxDepth: 256 }> =
  /* @__PURE__ */ Object.freeze({
    maxErrors: MAX_ERRORS,
    maxDepth: MAX_DEPTH,
  });

/** One decoded schema node; `null`/empty fields constrain nothing. */
export interface SchemaNode {
  /** Definition name, for messages; "" for an anonymous node. */
  name: string;
  /** True when nothing is constrained: accepted without looking. */
  any: boolean;
  /** True when only the JSON type is constrained: parents check it inline, without a call. */
  leaf: boolean;
  /** Bit mask of `TYPE_BITS`. */
  types: number;
  /** `undefined` when there is no const: JSON has no undefined value. */
  constant: unknown;
  enumValues: readonly unknown[] | null;
  /** Property names, with each one's node and whether it is required at the same index. */
  keys: string[] | null;
  children: SchemaNode[];
  required: boolean[];
  additional: SchemaNode | null;
  items: SchemaNode | null;
  anyOf: SchemaNode[] | null;
  /** `oneOf`, which no release schema uses: rare-keywords.ts's check, run last as the keyword was; null for every node of a release. */
  oneOf: ((run: Run, x: unknown, d: number) => boolean) | null;
  allOf: SchemaNode[] | null;
  /** The `anyOf` members, else the `oneOf` ones: what a description names and a discriminator tells apart. */
  members: SchemaNode[] | null;
  discriminator: string;
  /** Discriminator value → the only member that can match it. */
  byDiscriminator: Map<unknown, SchemaNode> | null;
  /** Format name, "" for none. */
  format: string;
  /** The format's check; null for none, or for a format the interpreter does not know (an annotation, then). */
  formatCheck: RegExp | null;
  minimum: number;
  maximum: number;
  maxItems: number;
  /**
   * What rare-keywords.ts checks before the type's own keywords, given the value and its `TYPE_BITS` bit: `minLength`,
   * `maxLength` and `pattern` before `format`, `minItems` before `maxItems` and `items`. Null for every node of a release.
   */
  before: ((run: Run, x: unknown, b: number) => boolean) | null;
  /** The keywords only tool schemas use (`WireRare`), checked by rare-keywords.ts; null for every node of a release. */
  rare: RareCheck | null;
}

/**
 * A node's check of the keywords only tool schemas use, given the value, its `TYPE_BITS` bit and depth. They live in
 * rare-keywords.ts, which a release's validators never import, so the protocol's bundles carry none of their code.
 */
export type RareCheck = (run: Run, x: unknown, b: number, d: number) => boolean;
/** What only tool tables need, from rare-keywords.ts; `decodeTable` takes it for them. */
export interface RareKeywords {
  /** Gives a node with `oneOf` (`o`) or `WireRare` keywords (`k`) their checks; `at` resolves entry indices. */
  readonly link: (n: SchemaNode, w: WireNode, at: (j: number) => SchemaNode) => void;
  /** JSON equality, for `const` and `enum` values that are objects or arrays. */
  readonly equal: (a: unknown, b: unknown) => boolean;
}

interface MethodEntry {
  readonly kind: number;
  readonly params: SchemaNode | null;
  readonly required: boolean;
  readonly results: readonly SchemaNode[];
}

/** A release's decoded table: what every entry point of a `validate.ts` passes in. */
export interface Tables {
  readonly version: string;
  readonly index: ReadonlyMap<string, number>;
  readonly nodes: readonly SchemaNode[];
  readonly methods: ReadonlyMap<string, MethodEntry>;
  readonly result: SchemaNode;
  readonly error: SchemaNode;
  /**
   * JSON equality for `const` and `enum` values that are objects or arrays: rare-keywords.ts's for a table decoded with
   * it. Null for a release's table, whose values are strings, numbers, booleans or null: identity decides for those.
   */
  readonly equal: ((a: unknown, b: unknown) => boolean) | null;
}

/**
 * One check in progress, made by the entry point that starts it: nothing outlives a call, so a check that throws (a
 * getter in the value) or starts inside another (a getter that validates) leaves nothing behind for the next.
 */
export interface Run {
  /** Issues found, innermost pointer segment first until `prefix` completes them. */
  readonly issues: ValidationIssue[];
  /** > 0 while union members or `not`/`if` subschemas are tried: failures then cost no strings. */
  quiet: number;
  /** The table's `equal`. */
  readonly equal: ((a: unknown, b: unknown) => boolean) | null;
}

type Rec = Record<string, unknown>;

/**
 * ajv-formats' checks, so these validators agree with Ajv on the official schema. `uri` is its
 * "fast" mode (scheme, then no whitespace): the "full" RFC 3986 regex costs ~0.5 KB gzip and
 * rejects the non-ASCII paths real servers send.
 */
const URI_RE = /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/)?[^\s]*$/i;
const URI_TEMPLATE_RE =
  /^(?:(?:[^\x00-\x20"'<>%\\^`{|}]|%[0-9a-f]{2})|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*\})*$/i;
/** ajv-formats' byte regex is multiline; kept as is, so a value with a valid base64 line passes in both. */
const BYTE_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/m;

/** By format name: table-format.ts's `FORMATS`, the ones the emitter lets into a table. */
const FORMAT_CHECKS: Readonly<Record<string, RegExp>> = {
  uri: URI_RE,
  "uri-template": URI_TEMPLATE_RE,
  byte: BYTE_RE,
};

/** Thrown past every frame when input nests deeper than the limit; caught at the entry points. Made once: throwing it costs no stack capture. */
const TOO_DEEP = /* @__PURE__ */ new RangeError("maxDepth");

function bit(x: unknown): number {
  switch (typeof x) {
    case "string":
      return STR;
    case "number":
      return Number.isInteger(x) ? NUM | INT : NUM;
    case "boolean":
      return BOOL;
    case "object":
      return x === null ? NULL : Array.isArray(x) ? ARR : OBJ;
    default:
      return 0;
  }
}

export function describeNode(n: SchemaNode): string {
  if (n.name !== "") return n.name;
  if (n.constant !== undefined) return JSON.stringify(n.constant);
  if (n.enumValues !== null) return n.enumValues.map((v) => JSON.stringify(v)).join(" | ");
  const members = n.members;
  if (members !== null)
    return members.map((m) => (m.name !== "" ? m.name : typeNames(m.types))).join(" | ");
  return typeNames(n.types);
}

function typeNames(t: number): string {
  if (t === ANY_TYPE) return "any value";
  if (t === 0) return "nothing (no further keys allowed)";
  // "integer" is implied by "number": name only the wider one.
  return TYPE_NAMES.filter((_, j) => t & (1 << j) && !(1 << j === INT && t & NUM)).join(" | ");
}

function report(run: Run, pointer: string, expected: string, got: string): false {
  if (run.issues.length < MAX_ERRORS) run.issues.push({ pointer, expected, got });
  return false;
}

/** Issues from `from` on were found inside `key`: put it in front of their pointers. */
function prefix(run: Run, from: number, key: string): void {
  const seg = "/" + escapeToken(key);
  const issues = run.issues;
  for (let j = from; j < issues.length; j++) {
    const issue = issues[j]!;
    issues[j] = { pointer: seg + issue.pointer, expected: issue.expected, got: issue.got };
  }
}

export function check(run: Run, n: SchemaNode, x: unknown, d: number): boolean {
  if (n.any) return true;
  if (d > MAX_DEPTH) throw TOO_DEEP;
  const b = bit(x);
  if (
    (n.types & b) === 0 ||
    (n.constant !== undefined && !same(run, n.constant, x)) ||
    (n.enumValues !== null && !inEnum(run, n.enumValues, x))
  ) {
    return run.quiet > 0 ? false : report(run, "", describeNode(n), describeValue(x));
  }
  let ok = true;
  if (n.before !== null && !n.before(run, x, b)) {
    ok = false;
  } else if (b === OBJ) {
    if (n.keys !== null || n.additional !== null) ok = checkObject(run, n, x as Rec, d);
  } else if (b === ARR) {
    ok = checkArray(run, n, x as unknown[], d);
  } else if (b === STR) {
    if (n.formatCheck !== null && !n.formatCheck.test(x as string))
      ok = fail(run, `a string in format ${n.format}`, x);
  } else if (b & NUM) {
    if ((x as number) < n.minimum) ok = fail(run, `a number >= ${n.minimum}`, x);
    else if ((x as number) > n.maximum) ok = fail(run, `a number <= ${n.maximum}`, x);
  }
  if (n.rare !== null && !n.rare(run, x, b, d)) ok = false;
  if (!ok && run.quiet > 0) return false;
  if (n.allOf !== null)
    for (const m of n.allOf)
      if (!check(run, m, x, d)) {
        if (run.quiet > 0) return false;
        ok = false;
      }
  if (n.anyOf !== null && !checkUnion(run, n, n.anyOf, x, d)) ok = false;
  if (n.oneOf !== null && !n.oneOf(run, x, d)) ok = false;
  return ok;
}

/** Whether `x` passes `n`, reporting nothing (`not` and `if` subschemas, for rare-keywords.ts). */
export function passes(run: Run, n: SchemaNode, x: unknown, d: number): boolean {
  run.quiet++;
  const ok = check(run, n, x, d);
  run.quiet--;
  return ok;
}

/** Reports `x` (or `got`) as not `expected` at the value in hand, unless a union member is being tried; false either way. */
export function fail(run: Run, expected: string, x: unknown, got?: string): false {
  return run.quiet > 0 ? false : report(run, "", expected, got ?? describeValue(x));
}

/** A `const` or `enum` value equals `x`: by identity, or as JSON where the table compares structured values. */
function same(run: Run, v: unknown, x: unknown): boolean {
  return v === x || (run.equal !== null && run.equal(v, x));
}

function inEnum(run: Run, e: readonly unknown[], x: unknown): boolean {
  for (const v of e) if (same(run, v, x)) return true;
  return false;
}

function checkObject(run: Run, n: SchemaNode, x: Rec, d: number): boolean {
  let ok = true;
  const keys = n.keys;
  if (keys !== null) {
    for (let j = 0; j < keys.length; j++) {
      const k = keys[j]!;
      if (own(x, k)) {
        const child = n.children[j]!;
        const v = x[k];
        if (child.leaf) {
          if ((child.types & bit(v)) === 0) {
            if (run.quiet > 0) return false;
            ok = report(run, "/" + escapeToken(k), describeNode(child), describeValue(v));
          }
          continue;
        }
        const from = run.issues.length;
        if (!check(run, child, v, d + 1)) {
          if (run.quiet > 0) return false;
          ok = false;
          prefix(run, from, k);
        }
      } else if (n.required[j]) {
        if (run.quiet > 0) return false;
        ok = report(run, "/" + escapeToken(k), describeNode(n.children[j]!), "missing");
      }
    }
  }
  const extra = n.additional;
  // `additionalProperties: {}` admits every value: no need to visit the keys.
  if (extra !== null && !extra.any) {
    // for-in walks V8's enum cache without allocating; `own` drops inherited keys.
    for (const k in x) {
      if (!own(x, k) || (keys !== null && keys.includes(k))) continue;
      const from = run.issues.length;
      if (!check(run, extra, x[k], d + 1)) {
        if (run.quiet > 0) return false;
        ok = false;
        prefix(run, from, k);
      }
    }
  }
  return ok;
}

function checkArray(run: Run, n: SchemaNode, x: readonly unknown[], d: number): boolean {
  if (x.length > n.maxItems) return fail(run, `at most ${n.maxItems} items`, x);
  const item = n.items;
  if (item === null || item.any) return true;
  let ok = true;
  for (let j = 0; j < x.length; j++) {
    const from = run.issues.length;
    if (!check(run, item, x[j], d + 1)) {
      if (run.quiet > 0 || run.issues.length >= MAX_ERRORS) return false;
      ok = false;
      prefix(run, from, String(j));
    }
  }
  return ok;
}

/** `anyOf`; rare-keywords.ts's `oneOf` comes here for the discriminated case and when no member matched. */
export function checkUnion(
  run: Run,
  n: SchemaNode,
  members: readonly SchemaNode[],
  x: unknown,
  d: number,
): boolean {
  if (n.byDiscriminator !== null && bit(x) === OBJ) {
    // Every member requires a distinct const at the discriminator: only that member can match.
    const v = own(x as object, n.discriminator) ? (x as Rec)[n.discriminator] : undefined;
    const member = n.byDiscriminator.get(v);
    if (member !== undefined) return check(run, member, x, d);
    return run.quiet > 0
      ? false
      : report(
          run,
          "/" + escapeToken(n.discriminator),
          [...n.byDiscriminator.keys()].map((k) => JSON.stringify(k)).join(" | "),
          describeValue(v),
        );
  }
  let matched = false;
  run.quiet++;
  for (const m of members) if ((matched = check(run, m, x, d))) break;
  run.quiet--;
  if (matched) return true;
  if (run.quiet > 0) return false;
  // The members that admit this JSON type say more than "none matched": report the closest one's own issues, the member
  // whose issue lies deepest (it matched the most before failing), the fewest issues breaking a tie, then member order.
  // No member admitting the type leaves `closest` empty: then the union itself is reported.
  const b = bit(x);
  const start = run.issues.length;
  let closest: ValidationIssue[] = [];
  let closestDepth = -1;
  for (const m of members) {
    if ((m.types & b) === 0) continue;
    check(run, m, x, d);
    const found = run.issues.splice(start);
    const depth = Math.max(-1, ...found.map((issue) => issue.pointer.split("/").length - 1));
    if (depth > closestDepth || (depth === closestDepth && found.length < closest.length)) {
      closest = found;
      closestDepth = depth;
    }
  }
  if (closest.length === 0) return report(run, "", describeNode(n), describeValue(x));
  run.issues.push(...closest);
  return false;
}

/** One entry's line of a table's text (table-format.ts). */
export function wireEntry(line: string): WireEntry {
  if (line[0] === "=") return +line.slice(1);
  const w: Record<string, unknown> = {};
  for (const field of line === "" ? [] : line.split(";")) {
    const value = field.slice(1);
    w[field[0]!] =
      field[0] === "p"
        ? value.split(",").map((v, k): unknown => (k % 2 ? +v : v[0] === '"' ? JSON.parse(v) : v))
        : JSON.parse(value);
  }
  return w;
}

/**
 * Links table entries (`wires`, numbered after `base`'s nodes when given) into nodes, every reference resolved: what
 * `decodeTable` does once it has read the entries, and json-schema.ts once it has built them from a schema.
 */
export function linkNodes(
  wires: readonly WireEntry[],
  names: readonly string[],
  base?: Tables,
  rare?: RareKeywords,
): SchemaNode[] {
  const offset = base ? base.nodes.length : 0;
  // Every node is one literal with every field, so all share one shape; references are linked once all exist.
  const nodes = wires.map((w, j): SchemaNode | null => {
    if (typeof w === "number") return null;
    const keys = Object.keys(w);
    return {
      name: names[j] ?? "",
      any: keys.length === 0,
      leaf: keys.length === 1 && keys[0] === "t",
      types: w.t ?? ANY_TYPE,
      constant: own(w, "c") ? w.c : undefined,
      enumValues: w.e ?? null,
      keys: null,
      children: [],
      required: [],
      additional: null,
      items: null,
      anyOf: null,
      oneOf: null,
      allOf: null,
      members: null,
      discriminator: w.d ?? "",
      byDiscriminator: null,
      format: w.f ?? "",
      formatCheck: w.f !== undefined && own(FORMAT_CHECKS, w.f) ? FORMAT_CHECKS[w.f]! : null,
      minimum: w.n ?? -Infinity,
      maximum: w.x ?? Infinity,
      maxItems: w.X ?? Infinity,
      before: null,
      rare: null,
    };
  });
  // Alias entries name their final target, so one step resolves them; entries below `offset` are the base's.
  const at = (j: number): SchemaNode =>
    j < offset ? base!.nodes[j]! : (nodes[j - offset] ?? at(wires[j - offset] as number));
  wires.forEach((w, j) => {
    const n = nodes[j];
    if (typeof w === "number" || !n) return;
    if (w.p) {
      n.keys = [];
      for (let k = 0; k < w.p.length; k += 2) {
        const ref = w.p[k + 1] as number;
        n.keys.push(w.p[k] as string);
        n.children.push(at(ref < 0 ? ~ref : ref));
        n.required.push(ref < 0);
      }
    }
    if (w.a !== undefined) n.additional = at(w.a);
    if (w.i !== undefined) n.items = at(w.i);
    if (w.u) n.members = n.anyOf = w.u.map(at);
    if (w.l) n.allOf = w.l.map(at);
    if (w.o || w.k) {
      if (rare === undefined)
        throw new TypeError("a table with oneOf or rare keywords needs rareKeywords");
      rare.link(n, w, at);
    }
  });
  // Discriminator maps need every member decoded first.
  for (const n of nodes) {
    if (n === null || n.discriminator === "") continue;
    n.byDiscriminator = new Map();
    for (const m of n.members ?? [])
      n.byDiscriminator.set(m.children[m.keys!.indexOf(n.discriminator)]!.constant, m);
  }
  return wires.map((_, j) => at(j + offset));
}

/**
 * Decodes a release's table (the text of a `WireTable`, table-format.ts) into linked nodes; each release does this
 * once, on first use. Given the decoded `WireTable` as `base`, decodes the text of its `WireNamedTable` and returns
 * both as one. A table with `WireRare` keywords or structured `const`/`enum` values (a server's tools) needs `rare`:
 * `rareKeywords` from rare-keywords.ts.
 */
export function decodeTable(text: string, base?: Tables, rare?: RareKeywords): Tables {
  const [version, namesLine, head, ...lines] = text.split("\n") as [
    string,
    string,
    string,
    ...string[],
  ];
  const names = namesLine === "" ? [] : namesLine.split(",");
  const all = linkNodes(lines.map(wireEntry), names, base, rare);
  const offset = base ? base.nodes.length : 0;
  const index = names.map((name, j): [string, number] => [name, j + offset]);
  const equal = rare?.equal ?? base?.equal ?? null;
  if (base)
    return {
      ...base,
      index: new Map([...base.index, ...index]),
      nodes: [...base.nodes, ...all],
      equal,
    };
  const [result, error, ...methods] = JSON.parse(head) as [number, number, ...WireMethod[]];
  return {
    version,
    index: new Map(index),
    nodes: all,
    methods: new Map(
      methods.map(([name, kind, paramsEntry, required, ...results]) => [
        name,
        {
          kind,
          params: paramsEntry < 0 ? null : all[paramsEntry]!,
          required: required === 1,
          results: results.map((j) => all[j]!),
        },
      ]),
    ),
    result: all[result]!,
    error: all[error]!,
    equal,
  };
}

const OK: ValidationResult = /* @__PURE__ */ Object.freeze({ ok: true });

/**
 * The issues of `x` against `n` (null: none), under `key` when given; every entry point goes through here.
 * `quiet` words none: it only says whether there are any (`test`).
 */
function issuesOf(
  t: Tables,
  n: SchemaNode,
  x: unknown,
  key: string | null,
  quiet = 0,
): readonly ValidationIssue[] | null {
  const run: Run = { issues: [], quiet, equal: t.equal };
  try {
    if (check(run, n, x, 0)) return null;
  } catch (err) {
    if (err !== TOO_DEEP) throw err;
    return [
      {
        pointer: key === null ? "" : "/" + escapeToken(key),
        expected: `nesting at most ${MAX_DEPTH} levels deep`,
        got: "deeper nesting",
      },
    ];
  }
  if (key !== null) prefix(run, 0, key);
  return run.issues;
}

/** Whether `x` passes `n`, with no issue worded. */
function test(t: Tables, n: SchemaNode, x: unknown): boolean {
  return issuesOf(t, n, x, null, 1) === null;
}

/** Checks `value` against one definition, with the JSON schema's (open-object) semantics. */
export function validateDefinition(t: Tables, name: string, value: unknown): ValidationResult {
  const j = t.index.get(name);
  if (j === undefined) {
    return {
      ok: false,
      errors: [
        { pointer: "", expected: `a definition name of ${t.version}`, got: describeValue(name) },
      ],
    };
  }
  // An alias definition (`EmptyResult` → `Result`) is its target's node: issues still name what was asked for.
  const n = t.nodes[j]!;
  const errors = issuesOf(t, n.name === name ? n : { ...n, name }, value, null);
  return errors === null ? OK : { ok: false, errors };
}

/** A type guard for one schema definition: `isTool(value)` narrows `value` to `Tool`. */
export type Guard<T> = (value: unknown) => value is T;

/**
 * The guard of table entry `j`. Each generated `is<Definition>` declares its `Guard<T>` type, so a consumer's
 * tsc reads that annotation and never instantiates this signature.
 */
export function guard<T>(t: () => Tables, j: number): Guard<T> {
  return (value: unknown): value is T => {
    const tables = t();
    return test(tables, tables.nodes[j]!, value);
  };
}

/** What a valid message of each kind answers, made once; pure, so a bundle without the validators drops them. */
const MESSAGE_OK = {
  request: /* @__PURE__ */ Object.freeze({ ok: true, kind: "request" }),
  notification: /* @__PURE__ */ Object.freeze({ ok: true, kind: "notification" }),
  result: /* @__PURE__ */ Object.freeze({ ok: true, kind: "result" }),
  error: /* @__PURE__ */ Object.freeze({ ok: true, kind: "error" }),
} as const;

function invalid(
  code: -32600 | -32601 | -32602,
  pointer: string,
  expected: string,
  got: string,
): MessageValidationResult {
  return { ok: false, code, errors: [{ pointer, expected, got }] };
}

/** Checks a message that passed the envelope checker against a release: its method (-32601), then params (-32602) or the response members. */
export function validateCheckedMessage(t: Tables, m: WireMessage): MessageValidationResult {
  if (m.kind === "request" || m.kind === "notification") {
    const kind = m.kind === "request" ? REQUEST_KIND : NOTIFICATION_KIND;
    const entry = t.methods.get(m.method);
    if (entry === undefined || entry.kind === INPUT_KIND)
      return invalid(
        -32601,
        "/method",
        `a ${m.kind} method of ${t.version}`,
        describeValue(m.method),
      );
    if (entry.kind !== kind) {
      const id = m.kind === "request" ? m.id : undefined;
      return invalid(
        -32600,
        "/id",
        entry.kind === REQUEST_KIND
          ? `an id: ${m.method} is a request`
          : `no id: ${m.method} is a notification`,
        describeValue(id),
      );
    }
    if (entry.params === null) return MESSAGE_OK[m.kind];
    if (m.params === undefined)
      return entry.required
        ? invalid(-32602, "/params", describeNode(entry.params), "missing")
        : MESSAGE_OK[m.kind];
    const errors = issuesOf(t, entry.params, m.params, "params");
    return errors === null ? MESSAGE_OK[m.kind] : { ok: false, code: -32602, errors };
  }
  const errors =
    m.kind === "result"
      ? issuesOf(t, t.result, m.result, "result")
      : issuesOf(t, t.error, m.error, "error");
  return errors === null ? MESSAGE_OK[m.kind] : { ok: false, code: -32600, errors };
}

/** Checks a parsed JSON-RPC message: the envelope strictly (-32600), the method (-32601), then params (-32602). */
export function validateEnvelope(t: Tables, msg: unknown): MessageValidationResult {
  const checked = checkEnvelope(msg);
  if (!checked.ok)
    return { ok: false, code: checked.inParams ? -32602 : -32600, errors: [checked.issue] };
  return validateCheckedMessage(t, checked.message);
}

/** Checks the result of a request of `method`: it passes if it matches any of the method's result types. */
export function validateMethodResult(t: Tables, method: string, result: unknown): ValidationResult {
  const entry = t.methods.get(method);
  if (entry === undefined || entry.kind === NOTIFICATION_KIND) {
    return {
      ok: false,
      errors: [
        { pointer: "", expected: `a request method of ${t.version}`, got: describeValue(method) },
      ],
    };
  }
  for (const n of entry.results) if (test(t, n, result)) return OK;
  // None matched: explain against the primary result, the one a well-behaved peer sends.
  return { ok: false, errors: issuesOf(t, entry.results[0]!, result, null) ?? [] };
}
