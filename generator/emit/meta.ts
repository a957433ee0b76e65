import { VariableDeclarationKind } from "../common/ts-morph.ts";
import type { MetaKeyModel, ProtocolModel } from "../model/protocol-model.ts";
import type { EmittedFile } from "./emitted.ts";
import { frozenType } from "./literal-type.ts";
import { runtimeImport } from "./runtime-files.ts";
import { buildSourceFile, type StatementSink } from "./source-file.ts";

/** `generated/<version>/meta.ts`: the reserved `_meta` keys of this version, and the HTTP header names its transport uses. */
export function emitMeta(model: ProtocolModel): EmittedFile {
  const path = `${model.version}/meta.ts`;
  const requiredInRequests = model.metaKeys.filter((k) => k.requiredIn.includes("request"));
  const content = buildSourceFile((file) => {
    file.addImportDeclaration({
      isTypeOnly: true,
      namedImports: ["CheckedMetaOf", "CheckedResultsOf"],
      moduleSpecifier: runtimeImport("meta-keys", 1),
    });
    // Freeze's type argument written out, as in errors.ts: cheaper for a consumer's tsc than inferring it.
    file.addTypeAlias({
      name: "MetaKeys",
      type: frozenType(Object.fromEntries(model.metaKeys.map((k) => [k.name, k.key])), {
        readonlyKeys: true,
        bare: true,
        docs: new Map(model.metaKeys.map((k) => [k.name, scopeDoc(k)])),
      }),
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      docs: [`The \`_meta\` keys ${model.version} reserves, by short name.`],
      declarations: [
        {
          name: "MetaKey",
          type: "MetaKeys",
          initializer: `/* @__PURE__ */ Object.freeze<MetaKeys>({ ${model.metaKeys.map((k) => `${k.name}: ${JSON.stringify(k.key)}`).join(", ")} })`,
        },
      ],
    });
    file.addTypeAlias({ name: "MetaKey", isExported: true, type: "(typeof MetaKey)[keyof typeof MetaKey]" });
    file.addTypeAlias({
      name: "FormerMetaKey",
      isExported: true,
      docs: [
        `Keys an earlier release reserved that ${model.version} does not: code written for that release still names them, ` +
          "which is no misspelling, so `CheckedMeta` accepts them with any value.",
      ],
      type: metaKeyUnion(model.formerMetaKeys),
    });
    addCheckedMeta(file, model);
    if (model.httpHeaders.length > 0) {
      file.addTypeAlias({
        name: "HttpHeaders",
        type: frozenType(Object.fromEntries(model.httpHeaders.map((h) => [h.name, h.header])), {
          readonlyKeys: true,
          bare: true,
        }),
      });
      file.addVariableStatement({
        declarationKind: VariableDeclarationKind.Const,
        isExported: true,
        docs: [
          `The HTTP header names ${model.version}'s Streamable HTTP transport uses, by short name (${[...new Set(model.httpHeaders.map((h) => h.source))].join(", ")}).`,
        ],
        declarations: [
          {
            name: "HttpHeader",
            type: "HttpHeaders",
            initializer: `/* @__PURE__ */ Object.freeze<HttpHeaders>({ ${model.httpHeaders.map((h) => `${h.name}: ${JSON.stringify(h.header)}`).join(", ")} })`,
          },
        ],
      });
      file.addTypeAlias({ name: "HttpHeader", isExported: true, type: "(typeof HttpHeader)[keyof typeof HttpHeader]" });
    }
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      docs: ["Keys every request's `params._meta` must carry in this version."],
      declarations: [
        {
          name: "REQUIRED_REQUEST_META_KEYS",
          type: "readonly MetaKey[]",
          // The keys as literals: a bundle cannot drop an unused array that reads `MetaKey.x` (a read may have effects).
          initializer: `/* @__PURE__ */ Object.freeze<MetaKey[]>([${requiredInRequests.map((k) => JSON.stringify(k.key)).join(", ")}])`,
        },
      ],
    });
  });
  return { path, content };
}

/**
 * The labels and positions `CheckedMetaOf` takes after its `MetaKey`s, for the reserved-prefix rules of one release or
 * (the version-agnostic builders) of all: a key is reserved if any rule reserves it; none reserves nothing.
 */
export function reservedPrefixArguments(rules: readonly NonNullable<ProtocolModel["reservedMetaPrefix"]>[]): string {
  if (rules.length === 0) return 'never, "none"';
  const literals = (values: readonly string[]) => [...new Set(values)].map((v) => JSON.stringify(v)).join(" | ");
  return `${literals(rules.flatMap((r) => r.labels))}, ${literals(rules.map((r) => r.position))}`;
}

/** Keys as a union of string literals for `CheckedMetaOf`'s `Known`; `never` for none. */
export function metaKeyUnion(keys: readonly string[]): string {
  return keys.length === 0 ? "never" : keys.map((k) => JSON.stringify(k)).join(" | ");
}

/** `CheckedMeta<M>`: the release's reserved-prefix rule applied to a `_meta` a caller writes (runtime/core/meta-keys.ts). */
function addCheckedMeta(file: StatementSink, model: ProtocolModel): void {
  const rule = model.reservedMetaPrefix;
  const ruleArguments = reservedPrefixArguments(rule === null ? [] : [rule]);
  file.addTypeAlias({
    name: "CheckedMeta",
    isExported: true,
    typeParameters: [{ name: "M" }],
    docs: [
      rule === null
        ? `A \`_meta\` as a caller writes it. ${model.version} reserves no key prefix, so every key is open.`
        : `A \`_meta\` as a caller writes it: a key under a prefix ${model.version} reserves (${rule.position} label ` +
          `${rule.labels.map((l) => `\`${l}\``).join(" or ")}, ${rule.source}) must be a \`MetaKey\` or a \`FormerMetaKey\`, so a misspelt one is a ` +
          "compile error; every other key stays open. A `_meta` typed as an open object is not checked.",
    ],
    type: `CheckedMetaOf<M, MetaKey | FormerMetaKey, ${ruleArguments}>`,
  });
  file.addTypeAlias({
    name: "CheckedResults",
    isExported: true,
    typeParameters: [{ name: "Table" }, { name: "Methods", constraint: "string" }],
    docs: [
      "What a handler table the dispatchers infer (`Table`) is intersected with: a handler whose result's `_meta` has a " +
        "misspelt reserved key (`CheckedMeta`'s rule), or a key that is none of the `Methods` received, is a compile error naming it.",
    ],
    type: `CheckedResultsOf<Table, Methods, MetaKey | FormerMetaKey, ${ruleArguments}>`,
  });
}

/** Where a key may appear and where it is required, as each `MetaKey` member's doc says. */
function scopeDoc(k: MetaKeyModel): string {
  return `${k.scopes.join(", ")}${k.requiredIn.length ? `; required in ${k.requiredIn.join(", ")}` : ""}`;
}
