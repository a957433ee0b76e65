import type { InterfaceDeclarationStructure, TypeAliasDeclarationStructure } from "ts-morph";
import { StructureKind } from "../common/ts-morph.ts";
import type { DefinitionModel, ProtocolModel } from "../model/protocol-model.ts";
import { docs } from "./doc-comments.ts";
import type { VersionEmitter } from "./emitted.ts";
import { SchemaTypes } from "./schema-type.ts";
import { buildSourceFile } from "./source-file.ts";

/**
 * `<version>/types.ts`: every schema definition as an exported type named exactly as in the
 * schema. Module scope shadows globals, so `Error` and `Request` here are always the schema's.
 */
export const emitTypes: VersionEmitter = (model) => {
  const path = `${model.version}/types.ts`;
  const types = new SchemaTypes(new Set(model.definitions.keys()));
  const statements = schemaDeclarations(model, [...model.definitions.values()], types);
  // One insertion of all structures: the text is printed and parsed once, not edited node by node.
  return { path, content: buildSourceFile((file) => void file.addStatements(statements)) };
};

/** `definitions` of `model` as exported declarations, written by `types` (types.ts's, or answers.ts's readonly ones). */
export function schemaDeclarations(
  model: ProtocolModel,
  definitions: readonly DefinitionModel[],
  types: SchemaTypes,
): (InterfaceDeclarationStructure | TypeAliasDeclarationStructure)[] {
  const names = new Set(model.definitions.keys());
  // Properties the model deprecates whole (facts: schema.ts tags the JSON drops); a deprecation of some values only is no tag.
  const deprecatedProperties = new Map<string, Set<string>>();
  for (const d of model.deprecations) {
    if (d.kind !== "property" || d.values !== null) continue;
    const [definition = "", property = ""] = d.name.split(".");
    deprecatedProperties.set(definition, (deprecatedProperties.get(definition) ?? new Set()).add(property));
  }
  return definitions.map((d) => declaration(d, types, names, deprecatedProperties.get(d.name)));
}

function declaration(
  definition: DefinitionModel,
  types: SchemaTypes,
  names: ReadonlySet<string>,
  deprecatedProperties: ReadonlySet<string> | undefined,
): InterfaceDeclarationStructure | TypeAliasDeclarationStructure {
  const { name, schema, deprecated } = definition;
  const common = {
    name,
    isExported: true,
    docs: docs(schema.description, deprecated || schema.deprecated === true, names),
  };
  if (types.isInterface(schema))
    return { kind: StructureKind.Interface, ...common, ...types.members(schema, deprecatedProperties) };
  return { kind: StructureKind.TypeAlias, ...common, type: types.typeOf(schema).write };
}
