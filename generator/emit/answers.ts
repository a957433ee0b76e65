import type { SchemaNode } from "../load/schema-node.ts";
import { reachableDefinitions } from "../model/reach.ts";
import type { DefinitionModel, ProtocolModel } from "../model/protocol-model.ts";
import type { VersionEmitter } from "./emitted.ts";
import { answerRoots } from "./mcp-release.ts";
import { SchemaTypes } from "./schema-type.ts";
import { buildSourceFile } from "./source-file.ts";
import { schemaDeclarations } from "./types.ts";

/** Whether `node` admits the string `value` (a `resultType` the dispatcher may write for the handler). */
export function admits(model: ProtocolModel, node: SchemaNode, value: string, seen = new Set<string>()): boolean {
  if (node.ref !== undefined) {
    const target = model.definitions.get(node.ref);
    // A reference back to one on the way admits nothing new.
    if (target === undefined || seen.has(node.ref)) return false;
    return admits(model, target.schema, value, new Set(seen).add(node.ref));
  }
  if (node.const !== undefined) return node.const === value;
  if (node.enum !== undefined) return node.enum.includes(value);
  const members = node.anyOf ?? node.oneOf;
  if (members !== undefined) return members.some((m) => admits(model, m, value, seen));
  return node.type === undefined || node.type.includes("string");
}

/**
 * A result as a handler writes it: the `resultType` its era defaults left optional (the dispatcher writes it), and
 * a read's cache members left out (the server writes them). Results are never members of other definitions, so the
 * shape holds only where a handler answers.
 */
function asAnswered(model: ProtocolModel, definition: DefinitionModel, read: boolean): DefinitionModel {
  const defaulted = model.dispatch.resultTypeDefault;
  const cache = read ? model.cacheMembers : null;
  const properties = (definition.schema.properties ?? [])
    .filter((p) => cache === null || (p.name !== cache.ttl && p.name !== cache.scope))
    .map((p) =>
      defaulted !== null && p.name === defaulted.property && admits(model, p.schema, defaulted.value)
        ? { ...p, required: false }
        : p,
    );
  return { ...definition, schema: { ...definition.schema, properties } };
}

/**
 * `<version>/answers.ts`: what the high-level server's handlers answer (`tools/call`, `prompts/get`,
 * `resources/read`) and every definition those results reach, as types.ts writes them but with every member and
 * array `readonly`, so data built `as const` fits, and the results shaped as a handler writes them. `createMcpServer`
 * holds a handler's result to these, where mapping the schema's types at each declaration cost a consumer's tsc a
 * sixth of the server row's instantiations. Named as in the schema, so `index.ts` does not re-export them.
 */
export const emitAnswers: VersionEmitter = (model) => {
  const path = `${model.version}/answers.ts`;
  const roots = new Set(answerRoots(model));
  const reads = new Set(model.methods.find((m) => m.name === "resources/read")?.results ?? []);
  const definitions = reachableDefinitions(model.definitions, [...roots]).map((d) =>
    roots.has(d.name) ? asAnswered(model, d, reads.has(d.name)) : d,
  );
  const types = new SchemaTypes(new Set(model.definitions.keys()), { readonly: true });
  const statements = schemaDeclarations(model, definitions, types);
  return { path, content: buildSourceFile((file) => void file.addStatements(statements)) };
};
