import type { SchemaNode } from "../load/schema-node.ts";
import type { DefinitionModel, Direction, ProtocolModel } from "../model/protocol-model.ts";
import { SIDES, type Side } from "./change.ts";

/** Who sends a method's message (the caller) and who answers it, for one direction. */
export function callerOf(direction: Direction): Side {
  return direction === "client-to-server" ? "client" : "server";
}

/**
 * Unions that only list messages, in either release: their membership is what the method list
 * says, so a member added there is reported (and rated) once, as a method change.
 */
export function messageUnionNames(...models: readonly ProtocolModel[]): Set<string> {
  return new Set(models.flatMap((m) => m.messageUnions.map((u) => u.name)));
}

/** The union of every message (`JSONRPCMessage`), found by its role in the model; undefined where the schema has none. */
export function messageUnionOf(
  model: ProtocolModel,
): { readonly definition: DefinitionModel; readonly writers: Set<Side> } | undefined {
  const union = model.messageUnions.find((u) => u.role === "message");
  const definition = union === undefined ? undefined : model.definitions.get(union.name);
  if (union === undefined || definition === undefined) return undefined;
  // A union of messages going both ways (direction null) is written, and read, by both sides.
  return { definition, writers: new Set(union.direction === null ? SIDES : [callerOf(union.direction)]) };
}

/**
 * Which sides write values of each definition: a request's params are written by its caller,
 * its results by the other side; everything they reference inherits that. A definition no
 * method reaches (envelopes, errors) is taken as written by both sides.
 */
export function definitionProducers(model: ProtocolModel): Map<string, Set<Side>> {
  const producers = new Map<string, Set<Side>>();
  walkMethods(model, (definition, _method, side) => {
    const sides = producers.get(definition) ?? new Set<Side>();
    if (sides.has(side)) return false;
    producers.set(definition, sides.add(side));
    return true;
  });
  return producers;
}

/** Definition → the methods whose message, params or results reach it (through refs). */
export function definitionMethods(model: ProtocolModel): Map<string, Set<string>> {
  const methods = new Map<string, Set<string>>();
  walkMethods(model, (definition, method) => {
    const names = methods.get(definition) ?? new Set<string>();
    if (names.has(method)) return false;
    methods.set(definition, names.add(method));
    return true;
  });
  return methods;
}

/** Visits every definition each method reaches, with the side that writes it there; `visit` says whether to go on. */
function walkMethods(model: ProtocolModel, visit: (definition: string, method: string, side: Side) => boolean): void {
  const refs = new Map<string, Set<string>>();
  for (const [name, def] of model.definitions) {
    const found = new Set<string>();
    collectRefs(def.schema, found);
    refs.set(name, found);
  }
  const mark = (start: string, method: string, side: Side) => {
    const stack = [start];
    while (stack.length > 0) {
      const name = stack.pop()!;
      if (!model.definitions.has(name) || !visit(name, method, side)) continue;
      stack.push(...(refs.get(name) ?? []));
    }
  };
  for (const m of model.methods) {
    for (const direction of m.directions) {
      const caller = callerOf(direction);
      mark(m.definition, m.name, caller);
      if (m.params) mark(m.params.definition, m.name, caller);
      for (const name of [...m.results, ...(m.response ? [m.response] : [])])
        mark(name, m.name, caller === "client" ? "server" : "client");
    }
  }
}

/** Producers of a definition in either release (a renamed one under each name); both when unknown. */
export function producersOf(
  oldRoles: ReadonlyMap<string, ReadonlySet<Side>>,
  oldName: string | null,
  newRoles: ReadonlyMap<string, ReadonlySet<Side>>,
  newName: string | null,
): Set<Side> {
  const sides = new Set<Side>([
    ...(oldName ? (oldRoles.get(oldName) ?? []) : []),
    ...(newName ? (newRoles.get(newName) ?? []) : []),
  ]);
  return sides.size > 0 ? sides : new Set(SIDES);
}

function collectRefs(node: SchemaNode, out: Set<string>): void {
  if (node.ref !== undefined) out.add(node.ref);
  for (const p of node.properties ?? []) collectRefs(p.schema, out);
  if (node.items) collectRefs(node.items, out);
  if (typeof node.additionalProperties === "object") collectRefs(node.additionalProperties, out);
  for (const m of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) collectRefs(m, out);
}
