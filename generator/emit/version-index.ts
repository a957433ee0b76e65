import { VariableDeclarationKind } from "../common/ts-morph.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import type { EmittedFile } from "./emitted.ts";
import { buildSourceFile } from "./source-file.ts";

/** `generated/<version>/index.ts`: the version's identity and every module of its folder. */
export function emitVersionIndex(model: ProtocolModel, modules: readonly string[]): EmittedFile {
  const path = `${model.version}/index.ts`;
  const content = buildSourceFile((file) => {
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      declarations: [{ name: "PROTOCOL_VERSION", initializer: JSON.stringify(model.protocolVersion) }],
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      docs: [
        model.era === "modern"
          ? "Stateless: no initialize handshake; version and capabilities travel in every request's `_meta`."
          : "Session-based: an initialize handshake negotiates version and capabilities once.",
      ],
      declarations: [{ name: "ERA", initializer: JSON.stringify(model.era) }],
    });
    for (const module of modules) file.addExportDeclaration({ moduleSpecifier: `./${module}.js` });
  });
  return { path, content };
}
