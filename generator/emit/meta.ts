import { VariableDeclarationKind } from "ts-morph";
import type { ProtocolModel } from "../model/protocol-model.ts";
import { buildSourceFile } from "./source-file.ts";

/** `generated/<version>/meta.ts`: the reserved `_meta` keys of this version. */
export function emitMeta(model: ProtocolModel) {
  const path = `${model.version}/meta.ts`;
  const requiredInRequests = model.metaKeys.filter((k) => k.requiredIn.includes("request"));
  const content = buildSourceFile(path, (file) => {
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      docs: ["The `_meta` keys this version reserves, by short name."],
      declarations: [
        {
          name: "MetaKey",
          initializer: `Object.freeze({ ${model.metaKeys
            .map((k) => `/** ${k.scopes.join(", ")}${k.requiredIn.length ? `; required in ${k.requiredIn.join(", ")}` : ""} */\n${k.name}: ${JSON.stringify(k.key)}`)
            .join(",\n")} } as const)`,
        },
      ],
    });
    file.addTypeAlias({ name: "MetaKey", isExported: true, type: "(typeof MetaKey)[keyof typeof MetaKey]" });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      docs: ["Keys every request's `params._meta` must carry in this version."],
      declarations: [
        {
          name: "REQUIRED_REQUEST_META_KEYS",
          type: "readonly MetaKey[]",
          initializer: `Object.freeze([${requiredInRequests.map((k) => `MetaKey.${k.name}`).join(", ")}])`,
        },
      ],
    });
  });
  return { path, content };
}
