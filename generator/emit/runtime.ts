import { VariableDeclarationKind } from "ts-morph";
import type { EmittedFile } from "./emitted.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import { addCoreFunctions, addCoreTypes, addErrorResponse, addHttpFunctions, addMessageBuilders } from "./jsonrpc-core.ts";
import { versionNamespace } from "./names.ts";
import { buildSourceFile, type StatementSink } from "./source-file.ts";
import { compare } from "../compare.ts";
import { BindgenError } from "../errors.ts";

/** What a fresh client calls itself when the caller gives no name: only shown and logged by servers. */
const DEFAULT_CLIENT_NAME = "mcp-bindgen-client";
const DEFAULT_CLIENT_VERSION = "0.0.0";

/** Merges a per-name table across versions; the newest version's value wins where they differ. */
function mergeByName<V>(models: readonly ProtocolModel[], pick: (m: ProtocolModel) => readonly { name: string; value: V }[]): Map<string, V> {
  const out = new Map<string, V>();
  for (const m of models) for (const { name, value } of pick(m)) if (!out.has(name)) out.set(name, value);
  return new Map([...out].sort(([a], [b]) => compare(a, b)));
}

function union(models: readonly ProtocolModel[], member: (alias: string) => string): string {
  return models.map((m) => member(versionNamespace(m.version))).join(" | ") || "never";
}

function addImports(file: StatementSink, models: readonly ProtocolModel[]): void {
  for (const m of models) {
    file.addImportDeclaration({ isTypeOnly: true, namespaceImport: `M_${versionNamespace(m.version)}`, moduleSpecifier: `./${m.version}/methods.js` });
    file.addImportDeclaration({ isTypeOnly: true, namespaceImport: `E_${versionNamespace(m.version)}`, moduleSpecifier: `./${m.version}/envelope.js` });
  }
}

function addConstants(file: StatementSink, models: readonly ProtocolModel[]): void {
  const list = (ms: readonly ProtocolModel[]) => `[${ms.map((m) => JSON.stringify(m.version)).join(", ")}]`;
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    docs: ["Generated versions, newest first (the same lists `index.ts` exports, kept private here so the names are not exported twice)."],
    declarations: [
      { name: "ALL", type: "readonly string[]", initializer: list(models) },
      { name: "LEGACY", type: "readonly string[]", initializer: list(models.filter((m) => m.era === "legacy")) },
      { name: "MODERN", type: "readonly string[]", initializer: list(models.filter((m) => m.era === "modern")) },
    ],
  });
  const errorCodes = mergeByName(models, (m) => m.errorCodes.map((e) => ({ name: e.name, value: e })));
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    isExported: true,
    docs: [
      "Every error code of every generated version. " +
        [...errorCodes.values()]
          .filter((e) => !e.send)
          .map((e) => `\`${e.name}\` (${e.code}) is recognised when received from old peers; no builder sends it.`)
          .join(" "),
    ],
    declarations: [{ name: "ErrorCode", initializer: `Object.freeze({ ${[...errorCodes.values()].map((e) => `${e.name}: ${e.code}`).join(", ")} } as const)` }],
  });
  file.addTypeAlias({ name: "ErrorCode", isExported: true, type: "(typeof ErrorCode)[keyof typeof ErrorCode]" });
  file.addTypeAlias({ name: "ErrorName", isExported: true, type: "keyof typeof ErrorCode" });
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      {
        name: "RECEIVE_ONLY",
        type: "readonly number[]",
        initializer: `[${[...errorCodes.values()]
          .filter((e) => !e.send)
          .map((e) => e.code)
          .join(", ")}]`,
      },
      { name: "ERROR_NAMES", type: "ReadonlyMap<number, ErrorName>", initializer: "new Map(Object.entries(ErrorCode).map(([name, code]) => [code, name as ErrorName]))" },
    ],
  });
  file.addTypeAlias({
    name: "SendableErrorName",
    isExported: true,
    type: `Exclude<ErrorName, ${
      [...errorCodes.values()]
        .filter((e) => !e.send)
        .map((e) => JSON.stringify(e.name))
        .join(" | ") || "never"
    }>`,
  });
  file.addFunction({
    name: "errorName",
    isExported: true,
    docs: ["The `ErrorCode` name of a code from any generated version (including receive-only ones like -32002), or `undefined`."],
    parameters: [{ name: "code", type: "number" }],
    returnType: "ErrorName | undefined",
    statements: ["return ERROR_NAMES.get(code);"],
  });

  const metaKeys = mergeByName(models, (m) => m.metaKeys.map((k) => ({ name: k.name, value: k.key })));
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    isExported: true,
    docs: ["Every reserved `_meta` key of every generated version, by short name."],
    declarations: [{ name: "MetaKey", initializer: `Object.freeze({ ${[...metaKeys].map(([n, k]) => `${n}: ${JSON.stringify(k)}`).join(", ")} } as const)` }],
  });
  file.addTypeAlias({ name: "MetaKey", isExported: true, type: "(typeof MetaKey)[keyof typeof MetaKey]" });

  const signals = [...new Set(models.flatMap((m) => m.modernSignalCodes))].sort((a, b) => b - a);
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    isExported: true,
    docs: [
      "Error codes that prove the peer speaks the stateless protocol: the request was wrong, not the era. After one of " +
        "these a client must not fall back to `initialize` (it would not help); after any other error it should.",
    ],
    declarations: [{ name: "MODERN_SIGNAL_CODES", initializer: `Object.freeze([${signals.join(", ")}] as const)` }],
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
    docs: ["The newest legacy version both sides support; if there is none, the newest legacy version (`initialize` negotiates again anyway)."],
    parameters: [{ name: "supported", type: "readonly string[]" }],
    returnType: "string",
    statements: ["return LEGACY.find((v) => supported.includes(v)) ?? (LEGACY[0] as string);"],
  });
  file.addFunction({
    name: "clientInfo",
    isExported: true,
    docs: ["An `Implementation` naming the client. Self-reported, for display and debugging only: never a security decision."],
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
        initializer: `Object.freeze({ elicitation: Object.freeze({}), extensions: Object.freeze({ ${JSON.stringify(ui.id)}: Object.freeze(${JSON.stringify(ui.clientCapability)}) }) })`,
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
    statements: [
      "const meta = metaOf(tool);",
      `const nested = meta?.[${JSON.stringify(ui.metaKey)}];`,
      `const uri = isObject(nested) ? nested[${JSON.stringify(ui.resourceUriKey)}] : undefined;`,
      `const found = typeof uri === "string" ? uri : meta?.[${JSON.stringify(ui.flatMetaKey)}];`,
      'return typeof found === "string" ? found : undefined;',
    ],
  });
}

function addTypes(file: StatementSink, models: readonly ProtocolModel[]): void {
  file.addTypeAlias({
    name: "RequestMethod",
    isExported: true,
    docs: ["A JSON-RPC request method of any generated version: a typo does not compile."],
    type: union(models, (v) => `M_${v}.RequestMethod`),
  });
  file.addTypeAlias({ name: "NotificationMethod", isExported: true, type: union(models, (v) => `M_${v}.NotificationMethod`) });
  file.addTypeAlias({
    name: "RequestParamsInput",
    isExported: true,
    typeParameters: [{ name: "M", constraint: "RequestMethod" }],
    docs: ["The params of a method as any version that defines it types them (modern versions without `_meta`, which `request` writes)."],
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
  file.addTypeAlias({ name: "ResultEnvelope", isExported: true, type: '{ jsonrpc: "2.0"; id: string | number; result: JsonObject }' });
  file.addTypeAlias({ name: "ErrorEnvelope", isExported: true, type: '{ jsonrpc: "2.0"; id?: string | number; error: { code: number; message: string; data?: unknown } }' });
  file.addTypeAlias({ name: "Envelope", isExported: true, type: "RequestEnvelope | NotificationEnvelope | ResultEnvelope | ErrorEnvelope" });
  file.addInterface({
    name: "RequestOptions",
    isExported: true,
    properties: [
      { name: "id", isReadonly: true, type: "string | number", docs: ["Never `null`, never reused while a request with it is pending."] },
      {
        name: "protocolVersion",
        hasQuestionToken: true,
        isReadonly: true,
        type: "string",
        docs: ["Given: the request is modern-shaped and `_meta` carries this version, capabilities and the keys below. Absent: legacy-shaped, no `_meta` is invented."],
      },
      {
        name: "clientCapabilities",
        hasQuestionToken: true,
        isReadonly: true,
        type: "Readonly<JsonObject>",
        docs: ["Defaults to `DEFAULT_CLIENT_CAPABILITIES` when `protocolVersion` is given."],
      },
      { name: "clientInfo", hasQuestionToken: true, isReadonly: true, type: "{ readonly name: string; readonly version: string }" },
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
      { name: "serverInfo", hasQuestionToken: true, isReadonly: true, type: "{ readonly name: string; readonly version: string }" },
      { name: "resultType", hasQuestionToken: true, isReadonly: true, type: "string" },
    ],
  });
}

function addBuilders(file: StatementSink, models: readonly ProtocolModel[], metaKey: (name: string) => string): void {
  file.addFunction({
    name: "towardsModern",
    docs: ["A generated modern version, or an unlisted one newer than every legacy version (a probe of a future release)."],
    parameters: [{ name: "version", type: "string" }],
    returnType: "boolean",
    statements: ['return MODERN.includes(version) || (!LEGACY.includes(version) && version > (LEGACY[0] ?? ""));'],
  });
  addMessageBuilders(
    file,
    "A request of any version. `_meta` is written iff `protocolVersion` is given; it is never guessed from the version " +
      "number: a guard on the known modern list once made probes of an unlisted newer version silently lose their `_meta`, " +
      "turning them into legacy requests that both sides then served without complaint. Without `protocolVersion`, only " +
      "`progressToken`/`extraMeta` (when given) make a `_meta`.",
    [
      "const version = options.protocolVersion;",
      "if (version === undefined && options.progressToken === undefined && options.extraMeta === undefined) return envelope(method, given, options.id) as RequestEnvelope<M>;",
      "const meta: JsonObject = { ...options.extraMeta, ...metaOf(given) };",
      `if (version !== undefined) {
        meta[${metaKey("protocolVersion")}] = version;
        meta[${metaKey("clientCapabilities")}] = options.clientCapabilities ?? DEFAULT_CLIENT_CAPABILITIES;
        if (options.clientInfo !== undefined) meta[${metaKey("clientInfo")}] = options.clientInfo;
        if (options.logLevel !== undefined) meta[${metaKey("logLevel")}] = options.logLevel;
      }`,
      `if (options.progressToken !== undefined) meta[${metaKey("progressToken")}] = options.progressToken;`,
    ],
  );
  file.addFunction({
    name: "resultResponse",
    isExported: true,
    docs: [
      'A successful response. `resultType` (default `"complete"`) and `serverInfo` only towards a modern client: a legacy ' +
        'client does not know them, and treats an absent `resultType` as `"complete"` anyway. Asking a legacy (or unnamed) ' +
        "client for another `resultType` throws a RangeError rather than dropping it silently.",
    ],
    parameters: [
      { name: "id", type: "string | number" },
      { name: "result", type: "Readonly<JsonObject>" },
      { name: "options", type: "ResultOptions", initializer: "{}" },
    ],
    returnType: "ResultEnvelope",
    statements: [
      "const version = options.protocolVersion;",
      `if (version === undefined || !towardsModern(version)) {
        if (options.resultType !== undefined && options.resultType !== "complete") throw new RangeError(\`a \${version ?? "legacy"} client cannot receive resultType "\${options.resultType}"\`);
        const plain = own(result, "resultType") ? Object.fromEntries(Object.entries(result).filter(([k]) => k !== "resultType")) : { ...result };
        return { jsonrpc: "2.0", id, result: plain };
      }`,
      `const meta = options.serverInfo === undefined ? metaOf(result) : { ...metaOf(result), ${metaKey("serverInfo")}: options.serverInfo };`,
      'const resultType = options.resultType ?? (typeof result["resultType"] === "string" ? result["resultType"] : "complete");',
      'return { jsonrpc: "2.0", id, result: { ...result, ...(meta === undefined ? {} : { _meta: meta }), resultType } };',
    ],
  });
  addErrorResponse(
    file,
    "An error response; `code` is a number or an `ErrorCode` name. Receive-only codes (-32002) throw a RangeError: they are recognised, never sent.",
    "string | number | undefined",
    "RECEIVE_ONLY",
  );
  file.addFunction({
    name: "unsupportedProtocolVersionError",
    isExported: true,
    docs: ["-32022 with `data.requested` and `data.supported` (default: every generated version), so the client picks one and retries instead of guessing."],
    parameters: [
      { name: "id", type: "string | number | undefined" },
      { name: "requested", type: "string" },
      { name: "supported", type: "readonly string[]", initializer: "ALL" },
    ],
    returnType: "ErrorEnvelope",
    statements: ['return errorResponse(id, "UnsupportedProtocolVersion", "Unsupported protocol version", { requested, supported: [...supported] });'],
  });
  file.addFunction({
    name: "missingRequiredClientCapabilityError",
    isExported: true,
    docs: ["-32021 naming the missing capabilities: otherwise the client cannot know what to add."],
    parameters: [
      { name: "id", type: "string | number | undefined" },
      { name: "requiredCapabilities", type: "Readonly<JsonObject>" },
    ],
    returnType: "ErrorEnvelope",
    statements: ['return errorResponse(id, "MissingRequiredClientCapability", "Missing required client capability", { requiredCapabilities });'],
  });
  file.addFunction({
    name: "headerMismatchError",
    isExported: true,
    docs: ["-32020: the HTTP headers disagree with the envelope."],
    parameters: [
      { name: "id", type: "string | number | undefined" },
      { name: "message", type: "string" },
    ],
    returnType: "ErrorEnvelope",
    statements: ['return errorResponse(id, "HeaderMismatch", message);'],
  });
}

function addReaders(file: StatementSink, models: readonly ProtocolModel[]): void {
  file.addFunction({
    name: "responseResult",
    isExported: true,
    docs: ["The `result` of a response, or `undefined` for an error response or anything else."],
    parameters: [{ name: "response", type: "object" }],
    returnType: "JsonObject | undefined",
    statements: ['const result = own(response, "result") ? (response as JsonObject)["result"] : undefined;', "return isObject(result) ? result : undefined;"],
  });
  file.addFunction({
    name: "responseError",
    isExported: true,
    docs: ["The `error` of a response as `{ code, message, data }`, or `undefined` when there is none."],
    parameters: [{ name: "response", type: "object" }],
    returnType: "{ code: number; message: string; data: unknown } | undefined",
    statements: [
      'const error = own(response, "error") ? (response as JsonObject)["error"] : undefined;',
      'if (!isObject(error) || typeof error["code"] !== "number" || typeof error["message"] !== "string") return undefined;',
      'return { code: error["code"], message: error["message"], data: error["data"] };',
    ],
  });
  file.addFunction({
    name: "resultType",
    isExported: true,
    docs: ['A result\'s `resultType`; absent means `"complete"`, as the spec requires for results from older servers.'],
    parameters: [{ name: "result", type: "unknown" }],
    returnType: "string",
    statements: ['const value = isObject(result) ? result["resultType"] : undefined;', 'return typeof value === "string" ? value : "complete";'],
  });
  file.addFunction({
    name: "isInputRequired",
    isExported: true,
    docs: ['Whether the server asks for more input before it can finish (`resultType: "input_required"`).'],
    parameters: [{ name: "result", type: "unknown" }],
    returnType: "boolean",
    statements: ['return resultType(result) === "input_required";'],
  });
  file.addFunction({
    name: "parse",
    isExported: true,
    docs: ["JSON text → message of any version. Never throws: `{ ok: false }` with -32700 (not JSON) or -32600 (not a JSON-RPC 2.0 message)."],
    parameters: [{ name: "text", type: "string" }],
    returnType: "ParseOutcome<ParsedMessage>",
    statements: ['return typeof text === "string" ? (parseText(text) as ParseOutcome<ParsedMessage>) : { ok: false, error: { code: -32700, message: "not a string" } };'],
  });
  file.addFunction({
    name: "encode",
    isExported: true,
    docs: ["Message → JSON text; the inverse of `parse`. Throws a RangeError only for values nested too deep for JSON.stringify."],
    parameters: [{ name: "message", type: `Envelope | ParsedMessage | ${union(models, (v) => `E_${v}.Envelope`)}` }],
    returnType: "string",
    statements: ["return encodeMessage(message);"],
  });
}

/** `generated/runtime.ts`: the version-agnostic protocol data layer (DESIGN.md §4), re-exported by `generated/index.ts`. */
export function emitRuntime(models: readonly ProtocolModel[]): EmittedFile {
  const path = "runtime.ts";
  const keys = new Map(models.flatMap((m) => m.metaKeys.map((k) => [k.name, k.key] as const)).reverse());
  const metaKey = (name: string): string => {
    const key = keys.get(name);
    if (key === undefined) {
      throw new BindgenError(
        models[0]?.file ?? "schema/lock.json",
        "",
        `a release that defines the _meta key "${name}" (a modern release) among those generated`,
        "the version-agnostic runtime writes modern _meta keys when a caller probes a newer version",
      );
    }
    return JSON.stringify(key);
  };
  const http = models.find((m) => m.http !== null)?.http;
  if (models.length === 0) throw new BindgenError("schema/lock.json", "/versions", "at least one release");
  const content = buildSourceFile(path, (file) => {
    addImports(file, models);
    addCoreTypes(file);
    addTypes(file, models);
    addConstants(file, models);
    addCoreFunctions(file);
    addIdentity(file, models);
    addBuilders(file, models, metaKey);
    if (http) addHttpFunctions(file, http, JSON.parse(metaKey("protocolVersion")) as string);
    addReaders(file, models);
  });
  return { path, content };
}
