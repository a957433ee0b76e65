import type { JsonValue, NormalisedSchema, SchemaNode } from "../../generator/load/schema-node.ts";

/** A small deterministic PRNG (mulberry32), so a failing corpus entry is reproducible by its seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS: Record<string, readonly string[]> = {
  uri: ["file:///a/b.txt", "https://example.com/x?y=1", "urn:isbn:123"],
  "uri-template": ["file:///{path}", "https://example.com/{id}/items{?q}"],
  byte: ["aGVsbG8=", "", "QUJD"],
};

/**
 * A value meant to satisfy `node`, built from the normalised schema. Not guaranteed valid (a
 * union branch or a depth cut can miss), which is fine: the corpus compares two validators,
 * it does not assume the answer.
 */
export function sample(schema: NormalisedSchema, node: SchemaNode, rand: () => number, depth = 0): JsonValue {
  if (node.ref !== undefined) return sample(schema, schema.definitions.get(node.ref)!, rand, depth + 1);
  if (node.const !== undefined) return node.const;
  if (node.enum) return node.enum[Math.floor(rand() * node.enum.length)]!;
  const members = node.anyOf ?? node.oneOf;
  if (members) return sample(schema, members[Math.floor(rand() * members.length)]!, rand, depth + 1);
  if (node.allOf) {
    const out: Record<string, JsonValue> = {};
    for (const m of node.allOf) Object.assign(out, sample(schema, m, rand, depth + 1));
    return out;
  }
  const types = node.type ?? (node.properties ? ["object"] : ["string"]);
  const type = types[Math.floor(rand() * types.length)]!;
  // Exclusive bounds are met exactly now and then: the one value they differ from the inclusive ones on.
  const exclusive = [node.exclusiveMinimum, node.exclusiveMaximum].filter((b) => b !== undefined);
  if ((type === "number" || type === "integer") && exclusive.length > 0 && rand() < 0.3)
    return exclusive[Math.floor(rand() * exclusive.length)]!;
  switch (type) {
    case "null":
      return null;
    case "boolean":
      return rand() < 0.5;
    case "integer":
      if (node.multipleOf !== undefined) return node.multipleOf * Math.floor(rand() * 10);
      return Math.max(node.minimum ?? 0, Math.min(node.maximum ?? 1000, Math.floor(rand() * 100)));
    case "number":
      if (node.multipleOf !== undefined) return node.multipleOf * Math.floor(rand() * 10);
      return Math.max(node.minimum ?? 0, Math.min(node.maximum ?? 1, rand()));
    case "string": {
      const pool = node.format ? STRINGS[node.format] : undefined;
      return pool ? pool[Math.floor(rand() * pool.length)]! : `s${Math.floor(rand() * 1000)}`;
    }
    case "array": {
      const max = Math.min(node.maxItems ?? 3, depth > 6 ? 0 : 3);
      const n = Math.max(node.minItems ?? 0, Math.floor(rand() * (max + 1)));
      const items = Array.from({ length: n }, () => (node.items ? sample(schema, node.items, rand, depth + 1) : "x"));
      // uniqueItems: now and then a repeat.
      if (node.uniqueItems === true && n > 0 && rand() < 0.3) items.push(structuredClone(items[0]!));
      return items;
    }
    default: {
      const out: Record<string, JsonValue> = {};
      for (const p of node.properties ?? []) {
        // Defined, not assigned: a property named `__proto__` is then a key, as JSON.parse makes it.
        if (p.required || (depth < 6 && rand() < 0.5))
          Object.defineProperty(out, p.name, {
            value: sample(schema, p.schema, rand, depth + 1),
            enumerable: true,
            writable: true,
            configurable: true,
          });
      }
      if (typeof node.additionalProperties === "object" && depth < 6) {
        // Up to three extra keys, so property counts (minProperties, maxProperties) vary too.
        const extras = Math.floor(rand() * 4);
        for (let i = 0; i < extras; i++)
          out[`extra${i === 0 ? "" : i}`] = sample(schema, node.additionalProperties, rand, depth + 1);
      }
      return out;
    }
  }
}

const REPLACEMENTS: readonly JsonValue[] = [
  null,
  1.5,
  7,
  -1,
  "text",
  "not a uri",
  "!!!",
  true,
  [],
  {},
  [1, 2, 3, 4, 5],
  1e9,
];

/** Every path (as key lists) to a position inside `value`, the root included. */
function paths(
  value: JsonValue,
  prefix: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (value !== null && typeof value === "object")
    for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  return out;
}

/** One small change at a random position: replace a value, delete a key, add a key, or wrap in an array. */
export function mutate(value: JsonValue, rand: () => number): JsonValue {
  const copy = structuredClone(value);
  const all = paths(copy);
  const path = all[Math.floor(rand() * all.length)]!;
  const replacement = REPLACEMENTS[Math.floor(rand() * REPLACEMENTS.length)]!;
  if (path.length === 0) return replacement;
  let parent: JsonValue = copy;
  for (const key of path.slice(0, -1)) parent = (parent as Record<string | number, JsonValue>)[key]!;
  const last = path[path.length - 1]!;
  const container = parent as Record<string | number, JsonValue>;
  const op = rand();
  if (op < 0.25 && !Array.isArray(parent)) delete container[last];
  else if (op < 0.35 && !Array.isArray(parent)) container["__proto__x"] = replacement;
  else if (op < 0.45) container[last] = [container[last]!];
  else container[last] = replacement;
  return copy;
}
