import type { SchemaNode } from "../load/schema-node.ts";
import { allowedValues } from "./describe.ts";

/**
 * Whether the values a node accepts grew, shrank, or moved, judged on its JSON types, its
 * `const`/`enum` values and its `format` together (structure is compared elsewhere).
 */
export function valueVariance(a: SchemaNode, b: SchemaNode): Variance {
  const parts = [typeVariance(a, b), allowedVariance(a, b), formatVariance(a, b)].filter((v) => v !== "same");
  if (parts.length === 0) return "same";
  return parts.every((v) => v === parts[0]) ? parts[0]! : "changed";
}

export type Variance = "same" | "widened" | "narrowed" | "changed";

function fromSets<T>(
  before: ReadonlySet<T>,
  after: ReadonlySet<T>,
  covers: (set: ReadonlySet<T>, v: T) => boolean,
): Variance {
  const lost = [...before].some((v) => !covers(after, v));
  const gained = [...after].some((v) => !covers(before, v));
  return lost && gained ? "changed" : lost ? "narrowed" : gained ? "widened" : "same";
}

function typeVariance(a: SchemaNode, b: SchemaNode): Variance {
  // A node without `type` that still has structure is an object described by its keywords, not "any".
  if (!a.type || !b.type) return !a.type && !b.type ? "same" : isAny(a) ? "narrowed" : isAny(b) ? "widened" : "same";
  // integer ⊂ number: integer → number widens, number → integer narrows.
  return fromSets(new Set(a.type), new Set(b.type), (set, t) => set.has(t) || (t === "integer" && set.has("number")));
}

function isAny(node: SchemaNode): boolean {
  return !node.type && !node.properties && !node.allOf && !node.items && allowedValues(node) === null;
}

function allowedVariance(a: SchemaNode, b: SchemaNode): Variance {
  const before = allowedValues(a);
  const after = allowedValues(b);
  if (before === null || after === null) return before === after ? "same" : before === null ? "narrowed" : "widened";
  const key = (vs: readonly unknown[]) => new Set(vs.map((v) => JSON.stringify(v)));
  return fromSets(key(before), key(after), (set, v) => set.has(v));
}

function formatVariance(a: SchemaNode, b: SchemaNode): Variance {
  if (a.format === b.format) return "same";
  return a.format === undefined ? "narrowed" : b.format === undefined ? "widened" : "changed";
}
