import { VariableDeclarationKind } from "../common/ts-morph.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import type { EmittedFile } from "./emitted.ts";
import { frozenType } from "./literal-type.ts";
import { runtimeImport } from "./runtime-files.ts";
import { buildSourceFile } from "./source-file.ts";

/** `generated/<version>/errors.ts`: `ErrorCode` as an erasable enum (frozen object + union type), `errorName`. */
export function emitErrors(model: ProtocolModel): EmittedFile {
  const path = `${model.version}/errors.ts`;
  const content = buildSourceFile((file) => {
    // Explicit type arguments to freeze: a consumer's tsc then checks each literal against its
    // written type instead of inferring one, which cost it about 100 type instantiations here.
    file.addTypeAlias({
      name: "ErrorCodes",
      type: frozenType(Object.fromEntries(model.errorCodes.map((e) => [e.name, e.code])), {
        readonlyKeys: true,
        bare: true,
      }),
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      docs: [
        `The error codes of ${model.version}: JSON-RPC's, the schema's and the spec's prose codes.` +
          model.errorCodes
            .filter((e) => !e.send)
            .map((e) => `\n\n\`${e.name}\` (${e.code}) is only recognised when received; no builder sends it.`)
            .join(""),
      ],
      declarations: [
        {
          name: "ErrorCode",
          type: "ErrorCodes",
          initializer: `/* @__PURE__ */ Object.freeze<ErrorCodes>({ ${model.errorCodes.map((e) => `${e.name}: ${e.code}`).join(", ")} })`,
        },
      ],
    });
    file.addTypeAlias({ name: "ErrorCode", isExported: true, type: "(typeof ErrorCode)[keyof typeof ErrorCode]" });
    file.addTypeAlias({ name: "ErrorName", isExported: true, type: "keyof typeof ErrorCode" });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      docs: ["Codes accepted from peers but never produced by this version's builders."],
      declarations: [
        {
          name: "RECEIVE_ONLY_ERROR_CODES",
          type: "readonly ErrorCode[]",
          // An explicit type argument: a consumer's tsc then checks the literal instead of inferring a type from it.
          initializer: `/* @__PURE__ */ Object.freeze<ErrorCode[]>([${model.errorCodes
            .filter((e) => !e.send)
            .map((e) => e.code)
            .join(", ")}])`,
        },
      ],
    });
    file.addTypeAlias({
      name: "ErrorRanges",
      type: `readonly (${model.errorRanges.map((r) => frozenType({ name: r.name, from: r.from, to: r.to, allocate: r.allocate })).join(" | ") || "never"})[]`,
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      docs: ["Reserved ranges: `allocate: false` marks the historical range where new codes must not be defined."],
      declarations: [
        {
          name: "ERROR_RANGES",
          type: "ErrorRanges",
          initializer: `/* @__PURE__ */ deepFreeze<ErrorRanges>([${model.errorRanges.map((r) => `{ name: ${JSON.stringify(r.name)}, from: ${r.from}, to: ${r.to}, allocate: ${r.allocate} }`).join(", ")}])`,
        },
      ],
    });
    file.addImportDeclaration({ namedImports: ["deepFreeze"], moduleSpecifier: runtimeImport("json", 1) });
    file.addImportDeclaration({ namedImports: ["errorNameIn"], moduleSpecifier: runtimeImport("builders", 1) });
    file.addFunction({
      name: "errorName",
      isExported: true,
      docs: [`The \`ErrorCode\` key of a code, or \`undefined\` for a code ${model.version} does not define.`],
      parameters: [{ name: "code", type: "number" }],
      returnType: "ErrorName | undefined",
      statements: ["return errorNameIn(ErrorCode, code) as ErrorName | undefined;"],
    });
  });
  return { path, content };
}
