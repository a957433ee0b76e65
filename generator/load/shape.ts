import type { NormalisedSchema, SchemaNode, SchemaProperty } from "./schema-node.ts";

/** Follows `$ref`s to the node that has structure. Alias cycles were rejected by `normalise`. */
export function deref(schema: NormalisedSchema, node: SchemaNode): SchemaNode {
  let current = node;
  while (current.ref !== undefined) current = schema.definitions.get(current.ref)!;
  return current;
}

/** The property `name` of an object node, looking through `$ref` and `allOf`. */
export function propertyOf(schema: NormalisedSchema, node: SchemaNode, name: string): SchemaProperty | undefined {
  const target = deref(schema, node);
  const direct = target.properties?.find((p) => p.name === name);
  if (direct) return direct;
  for (const member of target.allOf ?? []) {
    const found = propertyOf(schema, member, name);
    if (found) return found;
  }
  return undefined;
}

/**
 * A canonical text of a node's structure, without descriptions and source positions: two
 * nodes with the same shape describe the same values. Refs stay by name (not expanded), so
 * recursive schemas terminate.
 */
export function shapeKey(node: SchemaNode): string {
  return JSON.stringify(strip(node));
}

function strip(node: SchemaNode): unknown {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "pointer" || key === "description" || key === "extensions") continue;
    if (key === "properties") {
      out[key] = (value as SchemaNode["properties"])!.map((p) => [p.name, p.required, strip(p.schema)]);
    } else if (
      ["items", "not", "if", "then", "else"].includes(key) ||
      (key === "additionalProperties" && typeof value === "object")
    ) {
      out[key] = strip(value as SchemaNode);
    } else if (key === "anyOf" || key === "oneOf" || key === "allOf") {
      out[key] = (value as SchemaNode[]).map(strip);
    } else {
      out[key] = value;
    }
  }
  return out;
}
