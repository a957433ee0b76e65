import { VariableDeclarationKind } from "../common/ts-morph.ts";
import type { VersionEmitter } from "./emitted.ts";
import { propertyKey } from "./names.ts";
import { runtimeImport } from "./runtime-files.ts";
import { buildSourceFile } from "./source-file.ts";
import { buildWireTables, encodeTable, needsRareKeywords } from "./validate-table.ts";

/**
 * `<version>/validate.ts`: `validate(name, value)`, one `is<Definition>` guard per definition,
 * `validateMessage(msg)` (strict JSON-RPC envelope, then the method's params) and
 * `validateResult(method, result)`. No schema compilation, `eval` or dependency at run time:
 * the shared interpreter (generator/runtime/validation/validator.ts) walks this release's table.
 */
export const emitValidate: VersionEmitter = (model) => {
  const path = `${model.version}/validate.ts`;
  const { table, named, definitionEntries } = buildWireTables(model);
  const names = [...model.validated.definitions.keys()];
  const validator = runtimeImport("validator", 1);
  // Only a schema with what tool schemas use brings rare-keywords.ts in.
  const rare = needsRareKeywords([...table.nodes, ...named.nodes]) ? ", rareKeywords" : "";
  const content = buildSourceFile((file) => {
    file.addImportDeclaration({ isTypeOnly: true, namespaceImport: "T", moduleSpecifier: "./types.js" });
    file.addImportDeclaration({
      namedImports: [
        "decodeTable",
        "guard",
        "validateDefinition",
        "validateEnvelope",
        "validateMethodResult",
        { name: "Guard", isTypeOnly: true },
        { name: "MessageValidationResult", isTypeOnly: true },
        { name: "Tables", isTypeOnly: true },
        { name: "ValidationResult", isTypeOnly: true },
      ],
      moduleSpecifier: validator,
    });
    file.addExportDeclaration({
      isTypeOnly: true,
      namedExports: ["Guard", "MessageValidationResult", "ValidationIssue", "ValidationResult"],
      moduleSpecifier: validator,
    });
    file.addExportDeclaration({ namedExports: ["VALIDATION_LIMITS"], moduleSpecifier: validator });
    if (rare !== "")
      file.addImportDeclaration({ namedImports: ["rareKeywords"], moduleSpecifier: runtimeImport("rare-keywords", 1) });
    const standard = runtimeImport("standard-schema", 1);
    file.addImportDeclaration({
      namedImports: ["standardSchemas", { name: "StandardSchema", isTypeOnly: true }],
      moduleSpecifier: standard,
    });
    file.addExportDeclaration({
      isTypeOnly: true,
      namedExports: ["JsonSchemaOptions", "StandardIssue", "StandardResult", "StandardSchema"],
      moduleSpecifier: standard,
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      docs: [
        "The schema as compact text (format: generator/runtime/validation/table-format.ts), parsed on first use. As one string it " +
          "costs prettier, tsc and a JS engine's parser next to nothing, where the same data as an object literal was most " +
          "of this module's formatting and type-checking time.",
      ],
      declarations: [{ name: "TABLE", initializer: JSON.stringify(encodeTable(table)) }],
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      docs: [
        "The definitions only `validate` and the guards reach: a bundle that only checks messages leaves this out.",
      ],
      declarations: [{ name: "NAMED", initializer: JSON.stringify(encodeTable(named)) }],
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Let,
      declarations: [
        { name: "decoded", type: "Tables | undefined" },
        { name: "decodedAll", type: "Tables | undefined" },
      ],
    });
    file.addFunction({
      name: "tables",
      docs: ["Decoded on first use, so importing the module costs nothing."],
      returnType: "Tables",
      statements: [`return (decoded ??= decodeTable(TABLE${rare === "" ? "" : ", undefined" + rare}));`],
    });
    file.addFunction({
      name: "allTables",
      returnType: "Tables",
      statements: [`return (decodedAll ??= decodeTable(NAMED, tables()${rare}));`],
    });
    file.addTypeAlias({
      name: "DefinitionName",
      isExported: true,
      docs: ["The schema definitions of this version, by name."],
      type: names.map((n) => JSON.stringify(n)).join(" | "),
    });
    file.addFunction({
      name: "validate",
      isExported: true,
      docs: ["Checks `value` against one schema definition, with the JSON schema's (open-object) semantics."],
      parameters: [
        { name: "definitionName", type: "DefinitionName" },
        { name: "value", type: "unknown" },
      ],
      returnType: "ValidationResult",
      statements: ["return validateDefinition(allTables(), definitionName, value);"],
    });
    file.addInterface({
      name: "DefinitionTypes",
      isExported: true,
      docs: ["Each definition's TypeScript type, by name: what `standardSchema(name)` types its values as."],
      properties: names.map((name) => ({ name: propertyKey(name), type: `T.${name}` })),
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      declarations: [
        {
          name: "schemas",
          type: "(definition: string) => StandardSchema<unknown>",
          initializer: "/* @__PURE__ */ standardSchemas({ tables: allTables, texts: () => [TABLE, NAMED] })",
        },
      ],
    });
    file.addFunction({
      name: "standardSchema",
      isExported: true,
      docs: [
        "One definition's validator as a Standard Schema v1 object (`~standard`: `validate`, and `jsonSchema` giving the " +
          "draft 2020-12 JSON Schema it checks), for libraries that take one: tRPC, Hono, the official SDK. Made on " +
          "first use.",
      ],
      typeParameters: [{ name: "N", constraint: "DefinitionName" }],
      parameters: [{ name: "definitionName", type: "N" }],
      returnType: "StandardSchema<DefinitionTypes[N]>",
      statements: ["return schemas(definitionName) as StandardSchema<DefinitionTypes[N]>;"],
    });
    file.addFunction({
      name: "validateMessage",
      isExported: true,
      docs: [
        "Checks a parsed JSON-RPC message: the envelope strictly (-32600), the method (-32601), then a request's or " +
          "notification's params (-32602). A response names no method: check its result with `validateResult`.",
      ],
      parameters: [{ name: "message", type: "unknown" }],
      returnType: "MessageValidationResult",
      statements: ["return validateEnvelope(tables(), message);"],
    });
    file.addFunction({
      name: "validateResult",
      isExported: true,
      docs: ["Checks the result of a request of `method`: it passes if it matches any of the method's result types."],
      parameters: [
        { name: "method", type: "string" },
        { name: "result", type: "unknown" },
      ],
      returnType: "ValidationResult",
      statements: ["return validateMethodResult(tables(), method, result);"],
    });
    file.addVariableStatements(
      names.map((name, i) => ({
        declarationKind: VariableDeclarationKind.Const,
        isExported: true,
        declarations: [
          {
            name: `is${name}`,
            type: `Guard<T.${name}>`,
            initializer: `/* @__PURE__ */ guard(allTables, ${definitionEntries[i]})`,
          },
        ],
      })),
    );
  });
  return { path, content };
};
