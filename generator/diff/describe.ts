import type { JsonValue, SchemaNode } from "../load/schema-node.ts";

/** A short TypeScript-like text of a node, for `before`/`after` and messages. */
export function describe(node: SchemaNode): string {
  if (node.ref !== undefined) return node.ref;
  const values = allowedValues(node);
  if (values) return values.map((v) => JSON.stringify(v)).join(" | ");
  const members = node.anyOf ?? node.oneOf;
  if (members) return members.map(describe).join(" | ");
  if (node.allOf) return node.allOf.map(describe).join(" & ");
  if (node.items) return `${wrap(describe(node.items))}[]`;
  if (node.properties && node.properties.length > 0)
    return `{ ${node.properties.map((p) => p.name + (p.required ? "" : "?")).join(", ")} }`;
  if (!node.type) return "any";
  return node.type.map((t) => (t === "object" && node.additionalProperties ? "object (open)" : t)).join(" | ");
}

/** The definitions `describe` names: a reference, and those of union, intersection and array members. */
export function namedIn(node: SchemaNode): string[] {
  if (node.ref !== undefined) return [node.ref];
  if (allowedValues(node)) return [];
  const members = node.anyOf ?? node.oneOf ?? node.allOf ?? (node.items ? [node.items] : []);
  return [...new Set(members.flatMap(namedIn))];
}

/** The values a node is limited to (`const` or `enum`), or null when it has no such limit. */
export function allowedValues(node: SchemaNode): readonly JsonValue[] | null {
  if (node.const !== undefined) return [node.const];
  return node.enum ?? null;
}

function wrap(text: string): string {
  return text.includes(" ") ? `(${text})` : text;
}
