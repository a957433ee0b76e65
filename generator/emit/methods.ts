import type { InterfaceDeclarationStructure, OptionalKind, PropertySignatureStructure } from "ts-morph";
import { StructureKind, VariableDeclarationKind } from "../common/ts-morph.ts";
import type { MethodModel, ProtocolModel } from "../model/protocol-model.ts";
import { docs } from "./doc-comments.ts";
import { typeExpression } from "./names.ts";
import { runtimeImport } from "./runtime-files.ts";
import { buildSourceFile } from "./source-file.ts";

/** The method tables methods.ts declares, by the name it gives them. */
export type MethodTableName =
  "ClientRequests" | "ServerRequests" | "ClientNotifications" | "ServerNotifications" | "InputRequestTable";

interface Table {
  readonly name: MethodTableName;
  readonly keyType: string;
  readonly arrayName: string;
  readonly doc: string;
  readonly select: (m: MethodModel) => boolean;
  readonly modernOnly?: boolean;
}

const c2s = (m: MethodModel) => m.directions.includes("client-to-server");
const s2c = (m: MethodModel) => m.directions.includes("server-to-client");

const TABLES: readonly Table[] = [
  {
    name: "ClientRequests",
    keyType: "ClientRequestMethod",
    arrayName: "CLIENT_REQUEST_METHODS",
    doc: "Requests a client sends to a server.",
    select: (m) => m.kind === "request" && c2s(m),
  },
  {
    name: "ServerRequests",
    keyType: "ServerRequestMethod",
    arrayName: "SERVER_REQUEST_METHODS",
    doc: "Requests a server sends to a client as JSON-RPC requests.",
    select: (m) => m.kind === "request" && s2c(m),
  },
  {
    name: "ClientNotifications",
    keyType: "ClientNotificationMethod",
    arrayName: "CLIENT_NOTIFICATION_METHODS",
    doc: "Notifications a client sends to a server.",
    select: (m) => m.kind === "notification" && c2s(m),
  },
  {
    name: "ServerNotifications",
    keyType: "ServerNotificationMethod",
    arrayName: "SERVER_NOTIFICATION_METHODS",
    doc: "Notifications a server sends to a client.",
    select: (m) => m.kind === "notification" && s2c(m),
  },
  // Not `InputRequests`: the modern schema has a definition of that name (the map of input requests).
  {
    name: "InputRequestTable",
    keyType: "InputRequestMethod",
    arrayName: "INPUT_REQUEST_METHODS",
    doc: "Requests a server embeds in an `input_required` result; never sent as JSON-RPC requests.",
    select: (m) => m.kind === "input",
    modernOnly: true,
  },
];

/** The methods of one table, in its order: what other modules' per-method declarations list. */
export function methodsIn(model: ProtocolModel, name: MethodTableName): readonly MethodModel[] {
  const table = TABLES.find((t) => t.name === name);
  return table === undefined || (table.modernOnly === true && model.era !== "modern")
    ? []
    : model.methods.filter(table.select);
}

function paramsType(m: MethodModel): string {
  if (!m.params) return "undefined";
  const expr = "T." + typeExpression(m.params);
  // An optional `params` property reads as `P | undefined` through an indexed access already.
  return m.paramsRequired || m.params.path.length > 0 ? expr : `${expr} | undefined`;
}

function resultType(m: MethodModel): string {
  return m.results.map((r) => "T." + r).join(" | ");
}

function entry(
  model: ProtocolModel,
  m: MethodModel,
  names: ReadonlySet<string>,
): OptionalKind<PropertySignatureStructure> {
  const description = model.definitions.get(m.definition)?.schema.description;
  const type =
    m.kind === "notification"
      ? `{ params: ${paramsType(m)} }`
      : `{ params: ${paramsType(m)}; result: ${resultType(m)} }`;
  return { name: JSON.stringify(m.name), type, isReadonly: true, docs: docs(description, m.deprecated, names) };
}

function tableInterface(model: ProtocolModel, t: Table): InterfaceDeclarationStructure {
  return {
    kind: StructureKind.Interface,
    name: t.name,
    isExported: true,
    docs: [t.doc],
    properties: model.methods.filter(t.select).map((m) => entry(model, m, new Set(model.definitions.keys()))),
  };
}

/** `generated/<version>/methods.ts`: method tables at the type level and at run time, and handler tables. */
export function emitMethods(model: ProtocolModel) {
  const path = `${model.version}/methods.ts`;
  const modern = model.era === "modern";
  const tables = TABLES.filter((t) => !t.modernOnly || modern);
  const content = buildSourceFile((file) => {
    file.addImportDeclaration({ isTypeOnly: true, namespaceImport: "T", moduleSpecifier: "./types.js" });
    file.addImportDeclaration({ namedImports: ["deepFreeze"], moduleSpecifier: runtimeImport("json", 1) });
    for (const t of tables) {
      file.addInterface(tableInterface(model, t));
      file.addTypeAlias({ name: t.keyType, isExported: true, type: `keyof ${t.name}` });
    }
    file.addInterface({
      name: "RequestTable",
      isExported: true,
      docs: ["Every JSON-RPC request of this version, in either direction."],
      extends: ["ClientRequests", "ServerRequests"],
    });
    file.addInterface({
      name: "NotificationTable",
      isExported: true,
      docs: ["Every notification of this version, in either direction."],
      extends: ["ClientNotifications", "ServerNotifications"],
    });
    file.addTypeAlias({ name: "RequestMethod", isExported: true, type: "keyof RequestTable" });
    file.addTypeAlias({ name: "NotificationMethod", isExported: true, type: "keyof NotificationTable" });
    file.addTypeAlias({
      name: "Method",
      isExported: true,
      docs: ["Every method of this version: requests, notifications and embedded input requests."],
      type: model.methods.map((m) => JSON.stringify(m.name)).join(" | ") || "never",
    });
    // A method's params or result by its name, read from its table.
    const lookups: (readonly [name: string, key: string, table: string, field: "params" | "result"])[] = [
      ["ParamsOf", "RequestMethod", "RequestTable", "params"],
      ["ResultOf", "RequestMethod", "RequestTable", "result"],
      ["NotificationParamsOf", "NotificationMethod", "NotificationTable", "params"],
      ...(modern
        ? ([
            ["InputParamsOf", "InputRequestMethod", "InputRequestTable", "params"],
            ["InputResultOf", "InputRequestMethod", "InputRequestTable", "result"],
          ] as const)
        : []),
    ];
    for (const [name, key, table, field] of lookups)
      file.addTypeAlias({
        name,
        isExported: true,
        typeParameters: [{ name: "M", constraint: key }],
        type: `${table}[M]["${field}"]`,
      });

    const handlerType = (table: string, key: string) =>
      `{ readonly [M in ${key}]: (params: ${table}[M]["params"]) => ${table}[M]["result"] | Promise<${table}[M]["result"]> }`;
    file.addTypeAlias({
      name: "ServerHandlers",
      isExported: true,
      docs: [
        "A server's request handlers: one per client→server request, returning that method's result. A missing method or a wrong result shape does not compile.",
      ],
      type: handlerType("ClientRequests", "ClientRequestMethod"),
    });
    file.addTypeAlias({
      name: "ClientHandlers",
      isExported: true,
      docs: [
        modern
          ? "A client's handlers for the input requests a server embeds in `input_required` results."
          : "A client's request handlers: one per server→client request.",
      ],
      type: modern
        ? handlerType("InputRequestTable", "InputRequestMethod")
        : handlerType("ServerRequests", "ServerRequestMethod"),
    });

    file.addTypeAlias({ name: "Direction", isExported: true, type: '"client-to-server" | "server-to-client"' });
    file.addInterface({
      name: "MethodInfo",
      isExported: true,
      docs: ["What the schema says about one method, at run time."],
      properties: [
        { name: "directions", isReadonly: true, type: "readonly Direction[]" },
        { name: "kind", isReadonly: true, type: '"request" | "notification" | "input"' },
        {
          name: "params",
          isReadonly: true,
          type: "string | null",
          docs: [
            'The params type\'s name (`CallToolRequestParams`, or `CallToolRequest["params"]` where the schema inlines them).',
          ],
        },
        { name: "paramsRequired", isReadonly: true, type: "boolean" },
        {
          name: "result",
          isReadonly: true,
          type: "string | null",
          docs: ["The primary result type; `null` for notifications."],
        },
        {
          name: "results",
          isReadonly: true,
          type: "readonly string[]",
          docs: ["Every result type the method may return, primary first."],
        },
        { name: "deprecated", isReadonly: true, type: "boolean" },
      ],
    });
    const info = (m: MethodModel) => ({
      directions: m.directions,
      kind: m.kind,
      params: m.params ? typeExpression(m.params) : null,
      paramsRequired: m.paramsRequired,
      result: m.results[0] ?? null,
      results: m.results,
      deprecated: m.deprecated,
    });
    const entries = Object.fromEntries(model.methods.map((m) => [m.name, info(m)]));
    // Annotated rather than `as const satisfies …`: checking a deep literal type costs every consumer's tsc.
    // The type arguments too (here and in the lists below): inferring them from the literals costs it again.
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      docs: ["Every method of this version → what the schema says about it."],
      declarations: [
        {
          name: "METHODS",
          type: "{ readonly [M in Method]: MethodInfo }",
          initializer: `/* @__PURE__ */ deepFreeze<{ readonly [M in Method]: MethodInfo }>(${JSON.stringify(entries)})`,
        },
      ],
    });
    for (const t of tables) {
      file.addVariableStatement({
        declarationKind: VariableDeclarationKind.Const,
        isExported: true,
        declarations: [
          {
            name: t.arrayName,
            type: `readonly ${t.keyType}[]`,
            initializer: `/* @__PURE__ */ Object.freeze<${t.keyType}[]>([${model.methods
              .filter(t.select)
              .map((m) => JSON.stringify(m.name))
              .join(", ")}])`,
          },
        ],
      });
    }
  });
  return { path, content };
}
