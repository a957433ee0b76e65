import { VariableDeclarationKind } from "../common/ts-morph.ts";
import type { EmittedFile } from "./emitted.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import { addEncode, addHttpFunctions, addModernErrorBuilders, addNotificationBuilder } from "./envelope.ts";
import { frozenType } from "./literal-type.ts";
import { metaKeyUnion, reservedPrefixArguments } from "./meta.ts";
import { versionNamespace } from "./names.ts";
import type { ResultTypeFacts } from "../runtime/core/responses.ts";
import { clientApiFacts, httpFacts, resultTypeFacts } from "../model/runtime-data.ts";
import { addConnectClient } from "./client.ts";
import { runtimeImport } from "./runtime-files.ts";
import { buildSourceFile, type StatementSink } from "./source-file.ts";
import { compare } from "../common/code-point-order.ts";
import { BindgenError } from "../common/failures.ts";

/** What a fresh client calls itself when the caller gives no name: only shown and logged by servers. */
const DEFAULT_CLIENT_NAME = "mcp-bindgen-client";
const DEFAULT_CLIENT_VERSION = "0.0.0";

/** The `_meta` keys the version-agnostic builders write towards a stateless release; only a stateless release defines them all. */
const BUILDER_META_KEYS = [
  "protocolVersion",
  "clientCapabilities",
  "clientInfo",
  "logLevel",
  "progressToken",
  "serverInfo",
] as const;

/** Merges a per-name table across versions; the newest version's value wins where they differ. */
function mergeByName<V>(
  models: readonly ProtocolModel[],
  pick: (m: ProtocolModel) => readonly { name: string; value: V }[],
): Map<string, V> {
  const out = new Map<string, V>();
  for (const m of models) for (const { name, value } of pick(m)) if (!out.has(name)) out.set(name, value);
  return new Map([...out].sort(([a], [b]) => compare(a, b)));
}

/** What the version-agnostic `resultType` helpers and builders know: the newest stateless release's facts, if any. */
function newestResultType(models: readonly ProtocolModel[]): ResultTypeFacts | null {
  return models.map(resultTypeFacts).find((f) => f !== null) ?? null;
}

function union(models: readonly ProtocolModel[], member: (alias: string) => string): string {
  return models.map((m) => member(versionNamespace(m.version))).join(" | ") || "never";
}

function addImports(
  file: StatementSink,
  models: readonly ProtocolModel[],
  http: ProtocolModel | undefined,
  resultType: ResultTypeFacts | null,
): void {
  for (const m of models) {
    file.addImportDeclaration({
      isTypeOnly: true,
      namespaceImport: `M_${versionNamespace(m.version)}`,
      moduleSpecifier: `./${m.version}/methods.js`,
    });
    file.addImportDeclaration({
      isTypeOnly: true,
      namespaceImport: `E_${versionNamespace(m.version)}`,
      moduleSpecifier: `./${m.version}/envelope.js`,
    });
    file.addImportDeclaration({
      isTypeOnly: true,
      namespaceImport: `T_${versionNamespace(m.version)}`,
      moduleSpecifier: `./${m.version}/types.js`,
    });
  }
  file.addImportDeclaration({
    isTypeOnly: true,
    namedImports: ["JsonObject"],
    moduleSpecifier: runtimeImport("json", 0),
  });
  file.addImportDeclaration({
    isTypeOnly: true,
    namedImports: ["CheckedMetaField", "CheckedMetaOf"],
    moduleSpecifier: runtimeImport("meta-keys", 0),
  });
  file.addImportDeclaration({
    isTypeOnly: true,
    namedImports: ["ErrorEnvelopeOf", { name: "ResultEnvelope", alias: "ResultEnvelopeOf" }],
    moduleSpecifier: runtimeImport("messages", 0),
  });
  file.addImportDeclaration({
    namedImports: ["encodeMessage", "parseText", { name: "ParseOutcome", isTypeOnly: true }],
    moduleSpecifier: runtimeImport("jsonrpc", 0),
  });
  file.addImportDeclaration({
    namedImports: [
      "anyVersionRequest",
      "anyVersionResult",
      "errorEnvelope",
      "headerMismatch",
      "missingRequiredClientCapability",
      "notificationEnvelope",
      "unsupportedProtocolVersion",
      { name: "AnyVersionMetaKeys", isTypeOnly: true },
      { name: "ErrorCodeTable", isTypeOnly: true },
    ],
    moduleSpecifier: runtimeImport("builders", 0),
  });
  file.addImportDeclaration({
    namedImports: ["pickLegacyVersion", "towardsModern"],
    moduleSpecifier: runtimeImport("versions", 0),
  });
  file.addImportDeclaration({ namedImports: ["uiResourceUriIn"], moduleSpecifier: runtimeImport("apps", 0) });
  if (http) {
    file.addImportDeclaration({
      namedImports: [{ name: "httpHeaders", alias: "releaseHttpHeaders" }],
      moduleSpecifier: `./${http.version}/http.js`,
    });
    file.addImportDeclaration({
      namedImports: ["protocolVersionIn", "routingNameIn", { name: "RoutingFacts", isTypeOnly: true }],
      moduleSpecifier: runtimeImport("routing", 0),
    });
  }
  file.addExportDeclaration({
    isTypeOnly: true,
    namedExports: ["ParseFailure", "ParseOutcome"],
    moduleSpecifier: runtimeImport("jsonrpc", 0),
  });
  if (resultType !== null)
    file.addImportDeclaration({
      namedImports: ["isInputRequiredIn", "resultTypeIn", { name: "ResultTypeFacts", isTypeOnly: true }],
      moduleSpecifier: runtimeImport("responses", 0),
    });
  file.addExportDeclaration({
    namedExports: ["responseError", "responseResult"],
    moduleSpecifier: runtimeImport("responses", 0),
  });
  // The client transports and `connect`; each release's `clientRelease()` is what they connect with.
  file.addExportDeclaration({
    namedExports: [
      "connect",
      { name: "ClientSession", isTypeOnly: true },
      { name: "ConnectOptions", isTypeOnly: true },
      { name: "SessionOf", isTypeOnly: true },
    ],
    moduleSpecifier: runtimeImport("connect", 0),
  });
  // W3C trace context in requests' `_meta`, for `connect`'s `traceContext` and a handler's `ctx.traceContext`.
  file.addExportDeclaration({
    namedExports: [
      "traceContextFrom",
      { name: "TraceContext", isTypeOnly: true },
      { name: "TraceContextCarrier", isTypeOnly: true },
      { name: "TraceContextSource", isTypeOnly: true },
    ],
    moduleSpecifier: runtimeImport("trace-context", 0),
  });
  file.addExportDeclaration({
    namedExports: ["httpTransport", { name: "HttpTransportOptions", isTypeOnly: true }],
    moduleSpecifier: runtimeImport("http-client", 0),
  });
  file.addExportDeclaration({
    namedExports: ["stdioTransport", { name: "StdioTransportOptions", isTypeOnly: true }],
    moduleSpecifier: runtimeImport("stdio-client", 0),
  });
  // DNS-rebinding protection for HTTP servers of any release (basic/transports, "Security Warning").
  file.addExportDeclaration({
    namedExports: [
      "checkOrigin",
      "LOOPBACK_HOSTS",
      { name: "HeaderValues", isTypeOnly: true },
      { name: "OriginCheck", isTypeOnly: true },
      { name: "OriginPolicy", isTypeOnly: true },
    ],
    moduleSpecifier: runtimeImport("origin", 0),
  });
  // The server transports, over the eras each release's server.ts builds.
  file.addExportDeclaration({
    namedExports: [
      "createHttpHandler",
      "createMemoryEventStore",
      "createMemoryMessageBus",
      "createMemorySessionStore",
      "sessionTopics",
      { name: "Authorize", isTypeOnly: true },
      { name: "EventStore", isTypeOnly: true },
      { name: "GateCall", isTypeOnly: true },
      { name: "GateRefusal", isTypeOnly: true },
      { name: "GateRequest", isTypeOnly: true },
      { name: "Identity", isTypeOnly: true },
      { name: "Permit", isTypeOnly: true },
      { name: "MemoryEventStoreOptions", isTypeOnly: true },
      { name: "MessageBus", isTypeOnly: true },
      { name: "SessionRecord", isTypeOnly: true },
      { name: "SessionStore", isTypeOnly: true },
      { name: "StoredEvent", isTypeOnly: true },
      { name: "HttpExchange", isTypeOnly: true },
      { name: "HttpHandler", isTypeOnly: true },
      { name: "HttpReply", isTypeOnly: true },
      { name: "HttpServerOptions", isTypeOnly: true },
      { name: "PlatformResponse", isTypeOnly: true },
      { name: "RequestLike", isTypeOnly: true },
      { name: "ResponseLike", isTypeOnly: true },
    ],
    moduleSpecifier: runtimeImport("http-server", 0),
  });
  // The OAuth resource server on the request gate: each release's server.ts gives its rules.
  file.addExportDeclaration({
    namedExports: [
      "bearerToken",
      "createBearerGate",
      "identityOfClaims",
      { name: "BearerGate", isTypeOnly: true },
      { name: "BearerGateOptions", isTypeOnly: true },
      { name: "BearerIdentity", isTypeOnly: true },
      { name: "ResourceServerRules", isTypeOnly: true },
      { name: "ScopeTable", isTypeOnly: true },
      { name: "Verify", isTypeOnly: true },
      { name: "VerifyFailure", isTypeOnly: true },
      { name: "VerifyResult", isTypeOnly: true },
    ],
    moduleSpecifier: runtimeImport("bearer-gate", 0),
  });
  file.addExportDeclaration({
    namedExports: [
      "metadataPaths",
      "metadataUrl",
      "protectedResourceMetadata",
      "serveResourceMetadata",
      { name: "ProtectedResourceMetadata", isTypeOnly: true },
      { name: "ProtectedResourceOptions", isTypeOnly: true },
      { name: "ResourceMetadataSource", isTypeOnly: true },
    ],
    moduleSpecifier: runtimeImport("protected-resource", 0),
  });
  file.addExportDeclaration({
    namedExports: [
      "toNodeListener",
      { name: "NodeRequestLike", isTypeOnly: true },
      { name: "NodeResponseLike", isTypeOnly: true },
    ],
    moduleSpecifier: runtimeImport("node-http", 0),
  });
  file.addExportDeclaration({
    namedExports: [
      "serveStdio",
      { name: "StdioServer", isTypeOnly: true },
      { name: "StdioServerOptions", isTypeOnly: true },
    ],
    moduleSpecifier: runtimeImport("stdio-server", 0),
  });
  file.addExportDeclaration({
    namedExports: [
      "createMcpServer",
      { name: "Completer", isTypeOnly: true },
      { name: "ListKind", isTypeOnly: true },
      { name: "McpContext", isTypeOnly: true },
      { name: "McpRelease", isTypeOnly: true },
      { name: "McpServer", isTypeOnly: true },
      { name: "McpServerInfo", isTypeOnly: true },
      { name: "McpServerOptions", isTypeOnly: true },
      { name: "ServedEras", isTypeOnly: true },
    ],
    moduleSpecifier: runtimeImport("mcp-server", 0),
  });
  file.addExportDeclaration({
    namedExports: [
      "compileUriTemplate",
      { name: "UriTemplate", isTypeOnly: true },
      { name: "UriTemplateVariables", isTypeOnly: true },
    ],
    moduleSpecifier: runtimeImport("uri-match", 0),
  });
  file.addExportDeclaration({
    namedExports: [{ name: "SchemaValue", isTypeOnly: true }],
    moduleSpecifier: runtimeImport("schema-literal", 0),
  });
  file.addExportDeclaration({
    namedExports: [
      "createStateCodec",
      { name: "StateBinding", isTypeOnly: true },
      { name: "StateCodec", isTypeOnly: true },
      { name: "StateCodecOptions", isTypeOnly: true },
      { name: "UsedStateStore", isTypeOnly: true },
    ],
    moduleSpecifier: runtimeImport("request-state", 0),
  });
  file.addExportDeclaration({
    namedExports: ["createLineSplitter", "encodeLine", { name: "LineSplitter", isTypeOnly: true }],
    moduleSpecifier: runtimeImport("ndjson", 0),
  });
}

function addConstants(file: StatementSink, models: readonly ProtocolModel[], resultType: ResultTypeFacts | null): void {
  const list = (ms: readonly ProtocolModel[]) => `[${ms.map((m) => JSON.stringify(m.version)).join(", ")}]`;
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    docs: [
      "Generated versions, newest first (the same lists `index.ts` exports, kept private here so the names are not exported twice).",
    ],
    declarations: [
      { name: "ALL", type: "readonly string[]", initializer: list(models) },
      { name: "LEGACY", type: "readonly string[]", initializer: list(models.filter((m) => m.era === "legacy")) },
      { name: "MODERN", type: "readonly string[]", initializer: list(models.filter((m) => m.era === "modern")) },
    ],
  });
  const errorCodes = [...mergeByName(models, (m) => m.errorCodes.map((e) => ({ name: e.name, value: e }))).values()];
  const receiveOnly = errorCodes.filter((e) => !e.send);
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    isExported: true,
    docs: [
      "Every error code of every generated version. " +
        receiveOnly
          .map((e) => `\`${e.name}\` (${e.code}) is recognised when received from old peers; no builder sends it.`)
          .join(" "),
    ],
    declarations: [
      {
        name: "ErrorCode",
        type: frozenType(Object.fromEntries(errorCodes.map((e) => [e.name, e.code])), { readonlyKeys: true }),
        initializer: `/* @__PURE__ */ Object.freeze({ ${errorCodes.map((e) => `${e.name}: ${e.code}`).join(", ")} } as const)`,
      },
    ],
  });
  file.addTypeAlias({ name: "ErrorCode", isExported: true, type: "(typeof ErrorCode)[keyof typeof ErrorCode]" });
  file.addTypeAlias({ name: "ErrorName", isExported: true, type: "keyof typeof ErrorCode" });
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      {
        name: "ERRORS",
        type: "ErrorCodeTable",
        initializer: `{ codes: ErrorCode, receiveOnly: [${receiveOnly.map((e) => e.code).join(", ")}] }`,
      },
      {
        name: "ERROR_NAMES",
        type: "ReadonlyMap<number, ErrorName>",
        initializer: "new Map(Object.entries(ErrorCode).map(([name, code]) => [code, name as ErrorName]))",
      },
    ],
  });
  file.addTypeAlias({
    name: "SendableErrorName",
    isExported: true,
    type: `Exclude<ErrorName, ${receiveOnly.map((e) => JSON.stringify(e.name)).join(" | ") || "never"}>`,
  });
  file.addFunction({
    name: "errorName",
    isExported: true,
    docs: [
      "The `ErrorCode` name of a code from any generated version (including receive-only ones like -32002), or `undefined`.",
    ],
    parameters: [{ name: "code", type: "number" }],
    returnType: "ErrorName | undefined",
    statements: ["return ERROR_NAMES.get(code);"],
  });

  const metaKeys = mergeByName(models, (m) => m.metaKeys.map((k) => ({ name: k.name, value: k.key })));
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    isExported: true,
    docs: ["Every reserved `_meta` key of every generated version, by short name."],
    declarations: [
      {
        name: "MetaKey",
        type: frozenType(Object.fromEntries(metaKeys), { readonlyKeys: true }),
        initializer: `/* @__PURE__ */ Object.freeze({ ${[...metaKeys].map(([n, k]) => `${n}: ${JSON.stringify(k)}`).join(", ")} } as const)`,
      },
    ],
  });
  file.addTypeAlias({ name: "MetaKey", isExported: true, type: "(typeof MetaKey)[keyof typeof MetaKey]" });
  addCheckedMeta(file, models);
  const stateless = BUILDER_META_KEYS.every((name) => metaKeys.has(name))
    ? Object.fromEntries(BUILDER_META_KEYS.map((name) => [name, metaKeys.get(name)]))
    : null;
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    docs: ["The `_meta` keys the builders write; `stateless` is null when no generated release is stateless."],
    declarations: [
      {
        name: "META",
        type: "AnyVersionMetaKeys",
        initializer: JSON.stringify({ progressToken: metaKeys.get("progressToken"), stateless }),
      },
    ],
  });
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    docs: ["The newest stateless release's `resultType` facts; null when no generated release is stateless."],
    declarations: [
      {
        name: "RESULT_TYPE",
        type: resultType === null ? "null" : "ResultTypeFacts",
        initializer: JSON.stringify(resultType),
      },
    ],
  });

  const signals = [...new Set(models.flatMap((m) => m.modernSignalCodes))].sort((a, b) => b - a);
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    isExported: true,
    docs: [
      "Error codes that prove the peer speaks the stateless protocol: the request was wrong, not the era. After one of " +
        "these a client must not fall back to `initialize` (it would not help); after any other error it should.",
    ],
    declarations: [
      {
        name: "MODERN_SIGNAL_CODES",
        type: `readonly [${signals.join(", ")}]`,
        initializer: `/* @__PURE__ */ Object.freeze([${signals.join(", ")}] as const)`,
      },
    ],
  });
  file.addFunction({
    name: "isModernSignal",
    isExported: true,
    parameters: [{ name: "code", type: "number" }],
    returnType: "boolean",
    statements: ["return (MODERN_SIGNAL_CODES as readonly number[]).includes(code);"],
  });
}

function addIdentity(file: StatementSink, models: readonly ProtocolModel[]): void {
  const ui = models[0]!.uiExtension;
  file.addFunction({
    name: "bestLegacyVersion",
    isExported: true,
    docs: [
      "The newest legacy version both sides support; if there is none, the newest legacy version (`initialize` negotiates again anyway).",
    ],
    parameters: [{ name: "supported", type: "readonly string[]" }],
    returnType: "string",
    statements: ["return pickLegacyVersion(LEGACY, supported);"],
  });
  file.addFunction({
    name: "clientInfo",
    isExported: true,
    docs: [
      "An `Implementation` naming the client. Self-reported, for display and debugging only: never a security decision.",
    ],
    parameters: [
      { name: "name", type: "string", initializer: JSON.stringify(DEFAULT_CLIENT_NAME) },
      { name: "version", type: "string", initializer: JSON.stringify(DEFAULT_CLIENT_VERSION) },
    ],
    returnType: "{ name: string; version: string }",
    statements: ["return { name, version };"],
  });
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    isExported: true,
    docs: ["The MCP Apps extension's id in `capabilities.extensions`."],
    declarations: [{ name: "UI_EXTENSION_ID", initializer: JSON.stringify(ui.id) }],
  });
  const capabilities = { elicitation: {}, extensions: { [ui.id]: ui.clientCapability } };
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    isExported: true,
    docs: [
      "What a client declares: only what it really handles. `elicitation` (the client has a hook for it) and MCP Apps " +
        "(it recognises UI resources). Never `roots` or `sampling`: deprecated from 2026-07-28 on.",
    ],
    declarations: [
      {
        name: "DEFAULT_CLIENT_CAPABILITIES",
        type: frozenType(capabilities, { depth: 3 }),
        initializer: `/* @__PURE__ */ Object.freeze({ elicitation: Object.freeze({}), extensions: Object.freeze({ ${JSON.stringify(ui.id)}: Object.freeze(${JSON.stringify(ui.clientCapability)}) }) })`,
      },
    ],
  });
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      {
        name: "UI_KEYS",
        initializer: JSON.stringify({
          metaKey: ui.metaKey,
          resourceUriKey: ui.resourceUriKey,
          flatMetaKey: ui.flatMetaKey,
        }),
      },
    ],
  });
  file.addFunction({
    name: "uiResourceUri",
    isExported: true,
    docs: [
      `The MCP Apps UI resource of a tool: \`_meta.${ui.metaKey}.${ui.resourceUriKey}\` as the extension specifies, else the flat ` +
        `\`_meta["${ui.flatMetaKey}"]\` some servers send. Guessing wrong fails silently (no UI), hence both.`,
    ],
    parameters: [{ name: "tool", type: "{ readonly _meta?: unknown }" }],
    returnType: "string | undefined",
    statements: ["return uiResourceUriIn(tool, UI_KEYS);"],
  });
}

function addTypes(file: StatementSink, models: readonly ProtocolModel[]): void {
  file.addTypeAlias({
    name: "RequestMethod",
    isExported: true,
    docs: ["A JSON-RPC request method of any generated version: a typo does not compile."],
    type: union(models, (v) => `M_${v}.RequestMethod`),
  });
  file.addTypeAlias({
    name: "NotificationMethod",
    isExported: true,
    type: union(models, (v) => `M_${v}.NotificationMethod`),
  });
  const modern = models.filter((m) => m.era === "modern");
  const legacy = models.filter((m) => m.era === "legacy");
  const literals = (list: readonly ProtocolModel[]) =>
    list.map((m) => JSON.stringify(m.version)).join(" | ") || "never";
  file.addTypeAlias({
    name: "LegacyOnlyMethod",
    type: `Exclude<${union(legacy, (v) => `M_${v}.RequestMethod`)}, ${union(modern, (v) => `M_${v}.RequestMethod`)}>`,
  });
  file.addTypeAlias({
    name: "ModernOnlyMethod",
    type: `Exclude<${union(modern, (v) => `M_${v}.RequestMethod`)}, ${union(legacy, (v) => `M_${v}.RequestMethod`)}>`,
  });
  file.addTypeAlias({
    name: "EraOptions",
    isExported: true,
    typeParameters: [{ name: "M" }, { name: "V", constraint: "string" }],
    docs: [
      "Cross-era misuse the types can see: a method only legacy releases define never takes a modern `protocolVersion`; a method only " +
        "modern releases define needs a `protocolVersion` (its `_meta` is how the server knows the request), and not a legacy one.",
    ],
    type:
      `[M] extends [LegacyOnlyMethod] ? (V extends ${literals(modern)} ? { readonly protocolVersion: never } : {}) : ` +
      `[M] extends [ModernOnlyMethod] ? { readonly protocolVersion: V extends ${literals(legacy)} ? never : V } : {}`,
  });

  file.addTypeAlias({
    name: "RequestParamsInput",
    isExported: true,
    typeParameters: [{ name: "M", constraint: "RequestMethod" }],
    docs: [
      "The params of a method as any version that defines it types them (modern versions without `_meta`, which `request` writes).",
    ],
    type: union(models, (v) => `(M extends M_${v}.RequestMethod ? E_${v}.RequestParamsInput<M> : never)`),
  });
  file.addTypeAlias({
    name: "NotificationParamsOf",
    isExported: true,
    typeParameters: [{ name: "M", constraint: "NotificationMethod" }],
    type: union(models, (v) => `(M extends M_${v}.NotificationMethod ? M_${v}.NotificationParamsOf<M> : never)`),
  });
  file.addTypeAlias({
    name: "ParsedMessage",
    isExported: true,
    docs: ["What `parse` returns: a message of any generated version."],
    type: union(models, (v) => `E_${v}.ParsedMessage`),
  });
  file.addTypeAlias({
    name: "RequestEnvelope",
    isExported: true,
    typeParameters: [{ name: "M", constraint: "string", default: "string" }],
    type: '{ jsonrpc: "2.0"; id: string | number; method: M; params?: JsonObject }',
  });
  file.addTypeAlias({
    name: "NotificationEnvelope",
    isExported: true,
    typeParameters: [{ name: "M", constraint: "string", default: "string" }],
    type: '{ jsonrpc: "2.0"; method: M; params?: JsonObject }',
  });
  file.addTypeAlias({ name: "ResultEnvelope", isExported: true, type: "ResultEnvelopeOf<object>" });
  file.addTypeAlias({
    name: "ErrorEnvelope",
    isExported: true,
    docs: ["`id` is null when the request's id could not be read (JSON-RPC 2.0, section 5)."],
    // Optional id: the errors of some releases may leave it out, and this type covers them all.
    type: "ErrorEnvelopeOf<true>",
  });
  file.addTypeAlias({
    name: "Envelope",
    isExported: true,
    type: "RequestEnvelope | NotificationEnvelope | ResultEnvelope | ErrorEnvelope",
  });
  file.addInterface({
    name: "RequestOptions",
    isExported: true,
    properties: [
      {
        name: "id",
        isReadonly: true,
        type: "string | number",
        docs: ["Never `null`, never reused while a request with it is pending."],
      },
      {
        name: "protocolVersion",
        hasQuestionToken: true,
        isReadonly: true,
        type: "string",
        docs: [
          "Given: the request is modern-shaped and `_meta` carries this version, capabilities and the keys below. Absent: legacy-shaped, no `_meta` is invented.",
        ],
      },
      {
        name: "clientCapabilities",
        hasQuestionToken: true,
        isReadonly: true,
        type: union(models, (v) => `T_${v}.ClientCapabilities`),
        docs: ["Defaults to `DEFAULT_CLIENT_CAPABILITIES` when `protocolVersion` is given."],
      },
      {
        name: "clientInfo",
        hasQuestionToken: true,
        isReadonly: true,
        type: "{ readonly name: string; readonly version: string }",
      },
      { name: "logLevel", hasQuestionToken: true, isReadonly: true, type: "string" },
      { name: "progressToken", hasQuestionToken: true, isReadonly: true, type: "string | number" },
      { name: "extraMeta", hasQuestionToken: true, isReadonly: true, type: "Readonly<JsonObject>" },
    ],
  });
  file.addInterface({
    name: "ResultOptions",
    isExported: true,
    properties: [
      {
        name: "protocolVersion",
        hasQuestionToken: true,
        isReadonly: true,
        type: "string",
        docs: ["The client's version. `resultType` and `serverInfo` are written only towards a modern client."],
      },
      {
        name: "serverInfo",
        hasQuestionToken: true,
        isReadonly: true,
        type: "{ readonly name: string; readonly version: string }",
      },
      { name: "resultType", hasQuestionToken: true, isReadonly: true, type: "string" },
    ],
  });
}

/**
 * `CheckedMeta<M>` of the version-agnostic builders: a key that any generated release reserves (by its own rule) must
 * be one of the `MetaKey`s of some generated release, since the request may go to any of them.
 */
function addCheckedMeta(file: StatementSink, models: readonly ProtocolModel[]): void {
  const rules = models.flatMap((m) => (m.reservedMetaPrefix === null ? [] : [m.reservedMetaPrefix]));
  // Only the former keys no generated release lists: the others are root `MetaKey`s already.
  const listed = new Set(models.flatMap((m) => m.metaKeys.map((k) => k.key)));
  const former = [...new Set(models.flatMap((m) => m.formerMetaKeys))].filter((k) => !listed.has(k)).sort(compare);
  file.addTypeAlias({
    name: "CheckedMeta",
    typeParameters: [{ name: "M" }],
    docs: [
      "A `_meta` as a caller writes it: a key under a prefix any generated release reserves must be a `MetaKey` or a key an " +
        "earlier release reserved (a generated release's `FormerMetaKey`); every other key stays open.",
    ],
    type: `CheckedMetaOf<M, ${former.length === 0 ? "MetaKey" : `MetaKey | ${metaKeyUnion(former)}`}, ${reservedPrefixArguments(rules)}>`,
  });
}

function addBuilders(file: StatementSink): void {
  file.addFunction({
    name: "request",
    isExported: true,
    typeParameters: [
      { name: "M", constraint: "RequestMethod" },
      { name: "V", constraint: "string", default: "string" },
      // The caller's `_meta` and `extraMeta` as written, so their reserved keys are checked (CheckedMeta).
      { name: "Meta", default: "{}" },
      { name: "Extra", default: "{}" },
    ],
    docs: [
      "A request of any version. `_meta` is written iff `protocolVersion` is given; it is never guessed from the version " +
        "number: a guard on the known modern list once made probes of an unlisted newer version silently lose their `_meta`, " +
        "turning them into legacy requests that both sides then served without complaint. Without `protocolVersion`, only " +
        "`progressToken`/`extraMeta` (when given) make a `_meta`.",
    ],
    parameters: [
      { name: "method", type: "M" },
      { name: "params", type: "RequestParamsInput<M> & CheckedMetaField<Meta, CheckedMeta<Meta>>" },
      {
        name: "options",
        type: "RequestOptions & { readonly protocolVersion?: V; readonly extraMeta?: Extra & CheckedMeta<Extra> } & EraOptions<M, V>",
      },
    ],
    returnType: "RequestEnvelope<M>",
    statements: [
      "return anyVersionRequest(method, params, options, META, DEFAULT_CLIENT_CAPABILITIES) as RequestEnvelope<M>;",
    ],
  });
  addNotificationBuilder(file);
  file.addFunction({
    name: "resultResponse",
    isExported: true,
    docs: [
      'A successful response. `resultType` (default `"complete"`) and `serverInfo` only towards a modern client: a legacy ' +
        'client does not know them, and treats an absent `resultType` as `"complete"` anyway. Asking a legacy (or unnamed) ' +
        "client for another `resultType` throws a RangeError rather than dropping it silently.",
    ],
    // The result as written (R) and its `_meta` (Meta), so that the reserved keys are checked without refusing other keys.
    typeParameters: [
      { name: "R", constraint: "object" },
      { name: "Meta", default: "{}" },
    ],
    parameters: [
      { name: "id", type: "string | number" },
      { name: "result", type: "R & { readonly _meta?: Meta & CheckedMeta<Meta> }" },
      { name: "options", type: "ResultOptions", initializer: "{}" },
    ],
    returnType: "ResultEnvelope",
    statements: [
      "const modern = options.protocolVersion !== undefined && towardsModern(options.protocolVersion, LEGACY, MODERN);",
      "return anyVersionResult(id, result, options, modern, META, RESULT_TYPE) as ResultEnvelope;",
    ],
  });
  file.addFunction({
    name: "errorResponse",
    isExported: true,
    docs: [
      "An error response; `code` is a number or an `ErrorCode` name. Receive-only codes (-32002) throw a RangeError: they are recognised, never sent. " +
        "Pass `null` as `id` only to answer a message whose id could not be read.",
    ],
    parameters: [
      { name: "id", type: "string | number | null | undefined" },
      { name: "code", type: "number | SendableErrorName" },
      { name: "message", type: "string" },
      { name: "data", type: "unknown", hasQuestionToken: true },
    ],
    returnType: "ErrorEnvelope",
    statements: ["return errorEnvelope(ERRORS, id, code, message, data) as ErrorEnvelope;"],
  });
  addModernErrorBuilders(file, {
    idType: "string | number | undefined",
    capabilitiesType: "Readonly<JsonObject>",
    errors: "ERRORS",
    supportedDefault: "ALL",
  });
}

function addReaders(file: StatementSink, models: readonly ProtocolModel[], facts: ResultTypeFacts | null): void {
  // A tree of session releases alone has no resultType key to read: no readers, so calling one is a
  // compile error there rather than a function that could only throw.
  if (facts !== null) {
    file.addFunction({
      name: "resultType",
      isExported: true,
      docs: [
        `A result's \`${facts.key}\`; absent means ${JSON.stringify(facts.complete)}, as the spec requires for results from older servers.`,
      ],
      parameters: [{ name: "result", type: "unknown" }],
      returnType: "string",
      statements: ["return resultTypeIn(result, RESULT_TYPE);"],
    });
    file.addFunction({
      name: "isInputRequired",
      isExported: true,
      docs: [
        facts.inputRequired === null
          ? "Whether the server asks for more input before it can finish: never, as no generated release can."
          : `Whether the server asks for more input before it can finish (\`${facts.key}: ${JSON.stringify(facts.inputRequired)}\`).`,
      ],
      parameters: [{ name: "result", type: "unknown" }],
      returnType: "boolean",
      statements: ["return isInputRequiredIn(result, RESULT_TYPE);"],
    });
  }
  file.addFunction({
    name: "parse",
    isExported: true,
    docs: [
      "JSON text → message of any version. Never throws: `{ ok: false }` with -32700 (not JSON) or -32600 (not a JSON-RPC 2.0 message) or -32602 (params by position: MCP names them).",
    ],
    parameters: [{ name: "text", type: "string" }],
    returnType: "ParseOutcome<ParsedMessage>",
    statements: ["return parseText(text) as ParseOutcome<ParsedMessage>;"],
  });
  addEncode(file, `Envelope | ParsedMessage | ${union(models, (v) => `E_${v}.Envelope`)}`);
}

/** `generated/runtime.ts`: the version-agnostic API (docs/ARCHITECTURE.md), typed over the generated releases; the code is in `runtime/`. */
export function emitRuntime(models: readonly ProtocolModel[]): EmittedFile {
  const path = "runtime.ts";
  if (models.length === 0) throw new BindgenError("schema/lock.json", "/versions", "at least one release");
  if (!models.some((m) => m.metaKeys.some((k) => k.name === "progressToken"))) {
    throw new BindgenError(
      models[0]!.file,
      models[0]!.schema.definitionsPointer,
      'a reserved _meta key "progressToken"',
      "every request builder writes it",
    );
  }
  const http = models.find((m) => m.http !== null);
  const resultType = newestResultType(models);
  const content = buildSourceFile((file) => {
    addImports(file, models, http, resultType);
    addTypes(file, models);
    addConstants(file, models, resultType);
    addIdentity(file, models);
    addBuilders(file);
    // The newest stateless release's Streamable HTTP headers: the transport's rules live in its `http.ts`.
    if (http) addHttpFunctions(file, httpFacts(http.http!, http.metaKeys), { headersFrom: "releaseHttpHeaders" });
    addReaders(file, models, resultType);
    // Only when every release has what the one-call client makes; the newest's names are every release's.
    const facts = models.map((m) => clientApiFacts(m, resultType));
    if (facts.every((f) => f !== undefined)) addConnectClient(file, facts[0]!, 0);
  });
  return { path, content };
}
