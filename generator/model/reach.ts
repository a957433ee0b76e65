import type { SchemaNode } from "../load/schema-node.ts";
import type { DefinitionModel } from "./protocol-model.ts";

/** The definitions a node names, at any depth of its own (not through the definitions it names). */
function namedBy(node: SchemaNode): string[] {
  const open = typeof node.additionalProperties === "object" ? [node.additionalProperties] : [];
  const children = [
    ...(node.properties ?? []).map((p) => p.schema),
    ...(node.items === undefined ? [] : [node.items]),
    ...(node.anyOf ?? []),
    ...(node.oneOf ?? []),
    ...(node.allOf ?? []),
    ...open,
  ];
  return [...(node.ref === undefined ? [] : [node.ref]), ...children.flatMap(namedBy)];
}

/** `roots` and every definition they reach through references, in the order of `definitions`. */
export function reachableDefinitions(
  definitions: ReadonlyMap<string, DefinitionModel>,
  roots: readonly string[],
): DefinitionModel[] {
  const reached = new Set<string>();
  const pending = [...roots];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const definition = definitions.get(name);
    if (definition === undefined || reached.has(name)) continue;
    reached.add(name);
    pending.push(...namedBy(definition.schema));
  }
  return [...definitions.values()].filter((d) => reached.has(d.name));
}
