import { VariableDeclarationKind } from "ts-morph";
import type { EmittedFile } from "./emitted.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import { addCoreFunctions, addCoreTypes, addErrorResponse, addHttpFunctions, addMessageBuilders } from "./jsonrpc-core.ts";
import { buildSourceFile, type StatementSink } from "./source-file.ts";
import { BindgenError } from "../errors.ts";

/** The `_meta` key of a named reserved key in this version, or an error naming what the model lacks. */
function metaKey(model: ProtocolModel, name: string): string {
  const key = model.metaKeys.find((k) => k.name === name)?.key;
  if (key === undefined)
    throw new BindgenError(model.file, model.schema.definitionsPointer, `a reserved _meta key "${name}" in a modern schema`, "the modern envelope writes it in every request");
  return key;
}

/** Whether this version's error response may omit `id` (2025-11-25 on); older schemas require it. */
function errorIdOptional(model: ProtocolModel): boolean {
  const def = model.definitions.get("JSONRPCErrorResponse") ?? model.definitions.get("JSONRPCError");
  const id = def?.schema.properties?.find((p) => p.name === "id");
  return id !== undefined && !id.required;
}

/** Message types: the builders' outputs and what `parse` returns, typed by the method tables. */
function addMessageTypes(file: StatementSink, model: ProtocolModel): void {
  const modern = model.era === "modern";
  file.addTypeAlias({
    name: "ParamsField",
    typeParameters: ["P"],
    docs: ["`params` as the table types it: absent when the method has none, optional when the schema says so."],
    type: "[P] extends [undefined] ? {} : undefined extends P ? { params?: Exclude<P, undefined> } : { params: P }",
  });
  file.addTypeAlias({
    name: "RequestEnvelope",
    isExported: true,
    typeParameters: [{ name: "M", constraint: "RequestMethod", default: "RequestMethod" }],
    docs: ["A JSON-RPC request of this version, typed by method."],
    type: '{ [K in M]: { jsonrpc: "2.0"; id: T.RequestId; method: K } & ParamsField<ParamsOf<K>> }[M]',
  });
  file.addTypeAlias({
    name: "NotificationEnvelope",
    isExported: true,
    typeParameters: [{ name: "M", constraint: "NotificationMethod", default: "NotificationMethod" }],
    docs: ["A JSON-RPC notification of this version, typed by method. It never has an `id`."],
    type: '{ [K in M]: { jsonrpc: "2.0"; method: K } & ParamsField<NotificationParamsOf<K>> }[M]',
  });
  file.addTypeAlias({
    name: "ResultEnvelope",
    isExported: true,
    typeParameters: [{ name: "R", default: "JsonObject" }],
    docs: ["A successful response. A response does not name its method, so `parse` types `result` loosely; narrow it with the request you sent."],
    type: '{ jsonrpc: "2.0"; id: T.RequestId; result: R }',
  });
  file.addTypeAlias({
    name: "ErrorEnvelope",
    isExported: true,
    type: `{ jsonrpc: "2.0"; ${errorIdOptional(model) ? "id?: T.RequestId" : "id: T.RequestId"}; error: { code: number; message: string; data?: unknown } }`,
  });
  file.addTypeAlias({ name: "Envelope", isExported: true, type: "RequestEnvelope | NotificationEnvelope | ResultEnvelope | ErrorEnvelope" });
  file.addTypeAlias({
    name: "ParsedMessage",
    isExported: true,
    docs: [
      "What `parse` returns: `kind` tells the four JSON-RPC shapes apart; requests and notifications of a known method are typed by it. " +
        "A method this version does not define still parses (a newer peer may send one), typed with `method: string`.",
    ],
    type: [
      '(RequestEnvelope & { kind: "request" })',
      '(NotificationEnvelope & { kind: "notification" })',
      '(ResultEnvelope & { kind: "result" })',
      '(ErrorEnvelope & { kind: "error" })',
      '{ kind: "request"; jsonrpc: "2.0"; id: T.RequestId; method: string; params?: JsonObject }',
      '{ kind: "notification"; jsonrpc: "2.0"; method: string; params?: JsonObject }',
    ].join(" | "),
  });
  file.addTypeAlias({
    name: "RequestParamsInput",
    isExported: true,
    typeParameters: [{ name: "M", constraint: "RequestMethod" }],
    docs: [
      modern
        ? "The params a caller passes to `request`: the table's params without `_meta`, which the builder writes (extra `_meta` keys may still be passed)."
        : "The params a caller passes to `request`: exactly the table's params.",
    ],
    type: modern
      ? 'ParamsOf<M> extends infer P ? P extends object ? { [K in keyof P as K extends "_meta" ? never : K]: P[K] } & { _meta?: JsonObject } : P : never'
      : "ParamsOf<M>",
  });
  file.addTypeAlias({
    name: "ResultInput",
    isExported: true,
    typeParameters: [{ name: "R" }],
    docs: [
      modern
        ? 'A result as a server hands it to `resultResponse`: `resultType` may be left out (it defaults to `"complete"`).'
        : "A result as a server hands it to `resultResponse`.",
    ],
    type: modern ? 'R extends object ? { [K in keyof R as K extends "resultType" ? never : K]: R[K] } & { resultType?: string } : R' : "R",
  });
}

function addRequestBuilders(file: StatementSink, model: ProtocolModel): void {
  const modern = model.era === "modern";
  const progress = JSON.stringify(metaKey(model, "progressToken"));
  if (modern) {
    const key = (name: string) => JSON.stringify(metaKey(model, name));
    file.addInterface({
      name: "RequestOptions",
      isExported: true,
      properties: [
        { name: "id", isReadonly: true, type: "T.RequestId", docs: ["Never `null`, never reused while a request with it is pending."] },
        { name: "clientCapabilities", isReadonly: true, type: "T.ClientCapabilities", docs: ["Required: a server must not infer capabilities from earlier requests."] },
        {
          name: "protocolVersion",
          hasQuestionToken: true,
          isReadonly: true,
          type: "string",
          docs: ["Defaults to this module's version: importing this module is the choice of version. Pass another to probe."],
        },
        { name: "clientInfo", hasQuestionToken: true, isReadonly: true, type: "T.Implementation" },
        { name: "logLevel", hasQuestionToken: true, isReadonly: true, type: "T.LoggingLevel" },
        { name: "progressToken", hasQuestionToken: true, isReadonly: true, type: "T.ProgressToken" },
        { name: "extraMeta", hasQuestionToken: true, isReadonly: true, type: "Readonly<JsonObject>", docs: ["Further `_meta` keys; the reserved keys above win over them."] },
      ],
    });
    addMessageBuilders(
      file,
      "A request of this stateless version. Every request carries the protocol version and client capabilities in " +
        "`params._meta` (the schema requires them): a server must not infer anything from an earlier request.",
      [
        "const ownMeta = metaOf(given);",
        `const required = { ${key("protocolVersion")}: options.protocolVersion ?? VERSION, ${key("clientCapabilities")}: options.clientCapabilities };`,
        "// The common call passes no `_meta` of its own: then the object literal alone is the `_meta`.",
        "const meta: JsonObject = options.extraMeta === undefined && ownMeta === undefined ? required : { ...options.extraMeta, ...ownMeta, ...required };",
        `if (options.clientInfo !== undefined) meta[${key("clientInfo")}] = options.clientInfo;`,
        `if (options.logLevel !== undefined) meta[${key("logLevel")}] = options.logLevel;`,
        `if (options.progressToken !== undefined) meta[${progress}] = options.progressToken;`,
      ],
    );
  } else {
    file.addInterface({
      name: "RequestOptions",
      isExported: true,
      properties: [
        { name: "id", isReadonly: true, type: "T.RequestId", docs: ["Never `null`, never reused while a request with it is pending."] },
        { name: "progressToken", hasQuestionToken: true, isReadonly: true, type: "T.ProgressToken" },
        { name: "extraMeta", hasQuestionToken: true, isReadonly: true, type: "Readonly<JsonObject>" },
      ],
    });
    addMessageBuilders(
      file,
      "A request of this session-based version. No `_meta` is invented: an old server may take an unknown `_meta` for " +
        "part of the params. `_meta` appears only when the caller passes one, a `progressToken` or `extraMeta`.",
      [
        "if (options.progressToken === undefined && options.extraMeta === undefined) return envelope(method, given, options.id) as RequestEnvelope<M>;",
        "const meta: JsonObject = { ...options.extraMeta, ...metaOf(given) };",
        `if (options.progressToken !== undefined) meta[${progress}] = options.progressToken;`,
      ],
    );
  }
}

function addResponseBuilders(file: StatementSink, model: ProtocolModel): void {
  const modern = model.era === "modern";
  const idType = errorIdOptional(model) ? "T.RequestId | undefined" : "T.RequestId";
  if (modern) {
    file.addInterface({
      name: "ResultOptions",
      isExported: true,
      properties: [
        { name: "resultType", hasQuestionToken: true, isReadonly: true, type: "string", docs: ['Overrides the result\'s own `resultType`; the default is `"complete"`.'] },
        { name: "serverInfo", hasQuestionToken: true, isReadonly: true, type: "T.Implementation", docs: ["Written to `_meta` so the client can show who answered."] },
      ],
    });
    file.addFunction({
      name: "resultResponse",
      isExported: true,
      typeParameters: [{ name: "M", constraint: "RequestMethod", default: "RequestMethod" }],
      docs: [
        'A successful response. `resultType` is required in this version and defaults to `"complete"`. Name the method (`resultResponse<"tools/call">`) to check the result against it.',
      ],
      parameters: [
        { name: "id", type: "T.RequestId" },
        { name: "result", type: "ResultInput<ResultOf<M>>" },
        { name: "options", type: "ResultOptions", initializer: "{}" },
      ],
      returnType: "ResultEnvelope<ResultOf<M>>",
      statements: [
        "const given = result as JsonObject;",
        `const meta = options.serverInfo === undefined ? metaOf(given) : { ...metaOf(given), ${JSON.stringify(metaKey(model, "serverInfo"))}: options.serverInfo };`,
        'const resultType = options.resultType ?? (typeof given["resultType"] === "string" ? given["resultType"] : "complete");',
        'return { jsonrpc: "2.0", id, result: { ...given, ...(meta === undefined ? {} : { _meta: meta }), resultType } } as ResultEnvelope<ResultOf<M>>;',
      ],
    });
  } else {
    file.addFunction({
      name: "resultResponse",
      isExported: true,
      typeParameters: [{ name: "M", constraint: "RequestMethod", default: "RequestMethod" }],
      docs: ['A successful response. This version\'s clients do not know `resultType`, so none is added (they treat it as absent ⇒ `"complete"`).'],
      parameters: [
        { name: "id", type: "T.RequestId" },
        { name: "result", type: "ResultInput<ResultOf<M>>" },
      ],
      returnType: "ResultEnvelope<ResultOf<M>>",
      statements: ['return { jsonrpc: "2.0", id, result } as ResultEnvelope<ResultOf<M>>;'],
    });
  }
  file.addTypeAlias({
    name: "SendableErrorName",
    isExported: true,
    docs: ["Names of the codes a builder may send; receive-only codes (like -32002 from old servers) are left out."],
    type: `Exclude<ErrorName, ${
      model.errorCodes
        .filter((e) => !e.send)
        .map((e) => JSON.stringify(e.name))
        .join(" | ") || "never"
    }>`,
  });
  addErrorResponse(
    file,
    "An error response. `code` is a number or an `ErrorCode` name. Receive-only codes throw a RangeError: they are " +
      "recognised from old peers, never produced. " +
      (errorIdOptional(model) ? "Leave `id` undefined when the request's id could not be read." : "This version's schema requires an `id`."),
    idType,
    "(RECEIVE_ONLY_ERROR_CODES as readonly number[])",
  );
  if (!modern) return;
  file.addFunction({
    name: "unsupportedProtocolVersionError",
    isExported: true,
    docs: ["-32022: carries the versions this server supports, so the client can pick one and retry instead of guessing."],
    parameters: [
      { name: "id", type: idType },
      { name: "requested", type: "string" },
      { name: "supported", type: "readonly string[]" },
    ],
    returnType: "ErrorEnvelope",
    statements: ['return errorResponse(id, "UnsupportedProtocolVersion", "Unsupported protocol version", { requested, supported: [...supported] });'],
  });
  file.addFunction({
    name: "missingRequiredClientCapabilityError",
    isExported: true,
    docs: ["-32021: names the capabilities that are missing; otherwise the client cannot know what to add."],
    parameters: [
      { name: "id", type: idType },
      { name: "requiredCapabilities", type: "T.ClientCapabilities" },
    ],
    returnType: "ErrorEnvelope",
    statements: ['return errorResponse(id, "MissingRequiredClientCapability", "Missing required client capability", { requiredCapabilities });'],
  });
  file.addFunction({
    name: "headerMismatchError",
    isExported: true,
    docs: ["-32020: the HTTP headers disagree with the envelope (or are missing)."],
    parameters: [
      { name: "id", type: idType },
      { name: "message", type: "string" },
    ],
    returnType: "ErrorEnvelope",
    statements: ['return errorResponse(id, "HeaderMismatch", message);'],
  });
}

function addParseEncode(file: StatementSink): void {
  file.addFunction({
    name: "parse",
    isExported: true,
    docs: [
      "JSON text → message. Never throws: `{ ok: false }` with -32700 (not JSON) or -32600 (not a JSON-RPC 2.0 message: " +
        "`id` null or fractional, both `result` and `error`, no `jsonrpc`, a batch array, a non-object). With `{ validate: true }` " +
        "the message is also checked against this version's schema (`validateMessage`): -32601 for an unknown method, -32602 for bad params.",
    ],
    parameters: [
      { name: "text", type: "string" },
      { name: "options", type: "{ readonly validate?: boolean }", initializer: "{}" },
    ],
    returnType: "ParseOutcome<ParsedMessage>",
    statements: [
      'if (typeof text !== "string") return { ok: false, error: { code: -32700, message: "not a string" } };',
      "const outcome = parseText(text);",
      "if (!outcome.ok || !options.validate) return outcome as ParseOutcome<ParsedMessage>;",
      "const checked = validateMessage(wire(outcome.message));",
      "if (checked.ok) return outcome as ParseOutcome<ParsedMessage>;",
      "const first = checked.errors[0];",
      'return { ok: false, error: { code: checked.code, message: first ? `${first.pointer || "/"}: expected ${first.expected}, got ${first.got}` : "invalid message" } };',
    ],
  });
  file.addFunction({
    name: "encode",
    isExported: true,
    docs: ["Message → JSON text; the inverse of `parse`. Throws a RangeError only for values nested too deep for JSON.stringify."],
    parameters: [{ name: "message", type: "Envelope | ParsedMessage" }],
    returnType: "string",
    statements: ["return encodeMessage(message);"],
  });
}

/** `generated/<version>/envelope.ts`: typed builders, `parse`/`encode`, and for modern versions the error helpers and HTTP headers. */
export function emitEnvelope(model: ProtocolModel): EmittedFile {
  const path = `${model.version}/envelope.ts`;
  const content = buildSourceFile(path, (file) => {
    file.addImportDeclaration({ isTypeOnly: true, namespaceImport: "T", moduleSpecifier: "./types.js" });
    file.addImportDeclaration({
      isTypeOnly: true,
      namedImports: ["NotificationMethod", "NotificationParamsOf", "ParamsOf", "RequestMethod", "ResultOf"],
      moduleSpecifier: "./methods.js",
    });
    file.addImportDeclaration({ namedImports: ["ErrorCode", "RECEIVE_ONLY_ERROR_CODES", { name: "ErrorName", isTypeOnly: true }], moduleSpecifier: "./errors.js" });
    file.addImportDeclaration({ namedImports: ["validateMessage"], moduleSpecifier: "./validate.js" });
    if (model.era === "modern") {
      file.addVariableStatement({
        declarationKind: VariableDeclarationKind.Const,
        declarations: [{ name: "VERSION", initializer: JSON.stringify(model.version) }],
      });
    }
    addCoreTypes(file);
    addMessageTypes(file, model);
    addCoreFunctions(file);
    addRequestBuilders(file, model);
    addResponseBuilders(file, model);
    if (model.era === "modern" && model.http) addHttpFunctions(file, model.http, metaKey(model, "protocolVersion"));
    addParseEncode(file);
  });
  return { path, content };
}
