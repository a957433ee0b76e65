import { reachableDefinitions } from "../model/reach.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import type { VersionEmitter } from "./emitted.ts";
import { MCP_RELEASE_NEEDS } from "./server.ts";
import { SchemaTypes } from "./schema-type.ts";
import { buildSourceFile } from "./source-file.ts";
import { schemaDeclarations } from "./types.ts";

/** The definitions the results of the high-level server's methods are, in `model`'s order. */
export function answerRoots(model: ProtocolModel): string[] {
  return MCP_RELEASE_NEEDS.methods.flatMap((name) => model.methods.find((m) => m.name === name)?.results ?? []);
}

/**
 * `<version>/answers.ts`: what the high-level server's handlers answer (`tools/call`, `prompts/get`,
 * `resources/read`), and every definition those results reach, as types.ts writes them but with every member and
 * array `readonly`, so data built `as const` fits. `createMcpServer` holds a handler's result to these, where
 * mapping the schema's types readonly at each declaration cost a consumer's tsc a tenth of the server row's
 * instantiations. Named as in the schema, so `index.ts` does not re-export them (they would shadow types.ts's).
 */
export const emitAnswers: VersionEmitter = (model) => {
  const path = `${model.version}/answers.ts`;
  const types = new SchemaTypes(new Set(model.definitions.keys()), { readonly: true });
  const statements = schemaDeclarations(model, reachableDefinitions(model.definitions, answerRoots(model)), types);
  return { path, content: buildSourceFile((file) => void file.addStatements(statements)) };
};
