import { VariableDeclarationKind } from "../common/ts-morph.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import type { EmittedFile } from "./emitted.ts";
import { versionNamespace } from "./names.ts";
import { buildSourceFile } from "./source-file.ts";

/**
 * `generated/index.ts`: the version lists and one namespace per version. Models arrive newest
 * first; eras come from each model, so a new release needs no code change here.
 */
export function emitRootIndex(models: readonly ProtocolModel[], rootModules: readonly string[]): EmittedFile {
  const path = "index.ts";
  const versions = (ms: readonly ProtocolModel[]) => ms.map((m) => JSON.stringify(m.version)).join(", ");
  const list = (ms: readonly ProtocolModel[]) => ({
    type: `readonly [${versions(ms)}]`,
    initializer: `/* @__PURE__ */ Object.freeze([${versions(ms)}] as const)`,
  });
  const legacy = models.filter((m) => m.era === "legacy");
  const modern = models.filter((m) => m.era === "modern");
  const content = buildSourceFile((file) => {
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      docs: ["Every generated protocol version, newest first."],
      declarations: [{ name: "VERSIONS", ...list(models) }],
    });
    file.addTypeAlias({ name: "ProtocolVersion", isExported: true, type: "(typeof VERSIONS)[number]" });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      docs: ["The version this package prefers: the newest one."],
      declarations: [
        { name: "LATEST_VERSION", initializer: models[0] ? JSON.stringify(models[0].version) : "undefined" },
      ],
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      docs: ["Versions that use the initialize handshake, newest first: the order a fallback tries them in."],
      declarations: [{ name: "LEGACY_VERSIONS", ...list(legacy) }],
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      docs: ["Versions that carry version and capabilities in every request's `_meta` (no handshake), newest first."],
      declarations: [{ name: "MODERN_VERSIONS", ...list(modern) }],
    });
    file.addFunction({
      name: "isModern",
      isExported: true,
      docs: [
        "Whether a version is one of the generated modern ones. An unknown version is not: callers probing a newer release decide that themselves.",
      ],
      parameters: [{ name: "version", type: "string" }],
      returnType: "boolean",
      statements: ["return (MODERN_VERSIONS as readonly string[]).includes(version);"],
    });
    for (const m of models)
      file.addExportDeclaration({
        namespaceExport: versionNamespace(m.version),
        moduleSpecifier: `./${m.version}/index.js`,
      });
    for (const module of rootModules) file.addExportDeclaration({ moduleSpecifier: `./${module}.js` });
  });
  return { path, content };
}
