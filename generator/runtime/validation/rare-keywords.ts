// The JSON Schema keywords tool schemas use and the protocol's schemas do not: `exclusiveMinimum`,
// `exclusiveMaximum`, `multipleOf`, `minProperties`, `maxProperties`, `uniqueItems`, `minLength`,
// `maxLength`, `pattern`, `oneOf`, `not` and `if`/`then`/`else`, and `const`/`enum` values that are objects or
// arrays (JSON equality). A server's tool validators hand `rareKeywords` to `decodeTable`; a release's
// validators never import this module, so what only tools need costs the protocol's bundles nothing.
import {
  ARRAY_BIT as ARR,
  NUMBER_BIT as NUM,
  OBJECT_BIT as OBJ,
  STRING_BIT as STR,
  type WireRare,
} from "./table-format.js";
import { describeValue, isObject, own } from "../core/json.js";
import {
  check,
  checkUnion,
  describeNode,
  fail,
  passes,
  type RareCheck,
  type RareKeywords,
  type Run,
  type SchemaNode,
} from "./validator.js";

interface Rare {
  readonly exclusiveMinimum: number;
  readonly exclusiveMaximum: number;
  readonly multipleOf: number;
  readonly minProperties: number;
  readonly maxProperties: number;
  readonly uniqueItems: boolean;
  readonly not: SchemaNode | null;
  readonly if: SchemaNode | null;
  readonly then: SchemaNode | null;
  readonly else: SchemaNode | null;
}

export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let j = 0; j < a.length; j++) if (!equal(a[j], b[j])) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka)
    if (!own(b, k) || !equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
      return false;
  return true;
}

/** A node's `WireRare` decoded into its check. */
const decode = (k: WireRare, at: (j: number) => SchemaNode): RareCheck => {
  const node = (j: number | undefined): SchemaNode | null => (j === undefined ? null : at(j));
  const r: Rare = {
    exclusiveMinimum: k.en ?? -Infinity,
    exclusiveMaximum: k.ex ?? Infinity,
    multipleOf: k.m ?? 0,
    minProperties: k.np ?? 0,
    maxProperties: k.xp ?? Infinity,
    uniqueItems: k.q === 1,
    not: node(k.no),
    if: node(k.if),
    then: node(k.th),
    else: node(k.el),
  };
  return (run, x, b, d) => checkRare(run, r, x, b, d);
};

/**
 * A node's `minLength`, `maxLength` and `pattern` of a string, in that order, and `minItems` of an array, the first
 * failure reported; the interpreter checks `format`, `maxItems` and `items` after them. JSON Schema counts a string's
 * code points, not UTF-16 units.
 */
const before = (k: WireRare): ((run: Run, x: unknown, b: number) => boolean) | null => {
  const min = k.nl ?? 0;
  const max = k.xl ?? Infinity;
  const pattern = k.r === undefined ? null : new RegExp(k.r, "u");
  const minItems = k.ni ?? 0;
  if (min === 0 && max === Infinity && pattern === null && minItems === 0) return null;
  return (run, x, b) => {
    if (b === ARR) {
      const items = (x as readonly unknown[]).length;
      return items >= minItems || fail(run, `at least ${minItems} items`, x);
    }
    if (b !== STR) return true;
    const text = x as string;
    if (min > 0 || max < Infinity) {
      let len = 0;
      for (const _ of text) len++;
      if (len < min) return fail(run, `at least ${min} characters`, x);
      if (len > max) return fail(run, `at most ${max} characters`, x);
    }
    return (
      pattern === null || pattern.test(text) || fail(run, `a string matching ${pattern.source}`, x)
    );
  };
};

/**
 * `oneOf`: exactly one member matches. A discriminated union, and one where no member matched, go as `anyOf` does
 * (the member the discriminator names; else the closest member's issues).
 */
const oneOf =
  (n: SchemaNode, members: SchemaNode[]) =>
  (run: Run, x: unknown, d: number): boolean => {
    if (n.byDiscriminator === null || !isObject(x)) {
      let matches = 0;
      for (const m of members) if (passes(run, m, x, d) && ++matches > 1) break;
      if (matches === 1) return true;
      if (matches > 1)
        return fail(
          run,
          `exactly one of ${describeNode(n)}`,
          x,
          `${describeValue(x)} matching several`,
        );
    }
    return checkUnion(run, n, members, x, d);
  };

const link: RareKeywords["link"] = (n, w, at) => {
  if (w.o) {
    const members = w.o.map(at);
    n.oneOf = oneOf(n, members);
    // A node with both names its `anyOf` members in descriptions.
    n.members ??= members;
  }
  if (w.k !== undefined) {
    n.rare = decode(w.k, at);
    n.before = before(w.k);
  }
};

export const rareKeywords: RareKeywords = { link, equal };

/** A value's rare constraints: one failure is reported, at the value, as the other bounds are. */
function checkRare(run: Run, r: Rare, x: unknown, b: number, d: number): boolean {
  let expected = "";
  if (b & NUM) {
    const v = x as number;
    // Ajv's test for multipleOf, so the two agree on fractions: the quotient must parse back to itself.
    const q = v / r.multipleOf;
    if (v <= r.exclusiveMinimum) expected = `a number > ${r.exclusiveMinimum}`;
    else if (v >= r.exclusiveMaximum) expected = `a number < ${r.exclusiveMaximum}`;
    else if (r.multipleOf > 0 && q !== parseInt(String(q)))
      expected = `a multiple of ${r.multipleOf}`;
  } else if (b === OBJ) {
    const count = Object.keys(x as Record<string, unknown>).length;
    if (count < r.minProperties) expected = `at least ${r.minProperties} properties`;
    else if (count > r.maxProperties) expected = `at most ${r.maxProperties} properties`;
  } else if (b === ARR && r.uniqueItems) {
    const a = x as readonly unknown[];
    for (let i = 1; i < a.length && expected === ""; i++)
      for (let j = 0; j < i; j++)
        if (equal(a[i], a[j])) {
          expected = `unique items (${j} and ${i} are equal)`;
          break;
        }
  }
  if (expected === "") {
    const not = r.not !== null && passes(run, r.not, x, d);
    const branch = r.if === null ? null : passes(run, r.if, x, d) ? r.then : r.else;
    if (not) expected = `not ${describeNode(r.not)}`;
    else if (branch !== null) return check(run, branch, x, d);
  }
  return expected === "" ? true : fail(run, expected, x);
}
