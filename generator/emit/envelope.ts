import { VariableDeclarationKind } from "../common/ts-morph.ts";
import type { EmittedFile } from "./emitted.ts";
import type { MethodModel, ProtocolModel } from "../model/protocol-model.ts";
import { BindgenError } from "../common/failures.ts";
import type { RoutingFacts } from "../runtime/core/routing.ts";
import { httpFacts, requireMetaKeys, resultTypeFacts } from "../model/runtime-data.ts";
import { runtimeImport } from "./runtime-files.ts";
import { buildSourceFile, type StatementSink } from "./source-file.ts";

/**
 * A stateless release's request params as `request` takes them, `_meta` aside, one member per method: written out with
 * no type variable in them, tsc works each out once, where a conditional over `M` was instantiated again at every call
 * (the bench consumer's 20 requests, 1,668 → about 1,340 instantiations). Omit, not a key-remapping mapped type: tsc
 * instantiates less for it. Every request of such a release carries params: their `_meta` holds the version.
 */
function addRequestParamsInputs(file: StatementSink, model: ProtocolModel): void {
  const requests = model.methods.filter((m) => m.kind === "request");
  for (const m of requests)
    if (m.params === null || !m.paramsRequired)
      throw new BindgenError(
        model.file,
        m.pointer,
        "params on every request of a stateless release (their _meta carries the protocol version)",
        `${m.name} has ${m.params === null ? "none" : "optional params"}`,
      );
  file.addInterface({
    name: "RequestParamsInputs",
    isExported: true,
    docs: [
      "Each request's params as `request` takes them, without the `_meta` the builder writes; readonly data fits.",
    ],
    properties: requests.map((m) => ({
      name: JSON.stringify(m.name),
      isReadonly: true,
      type: `ReadonlyInput<Omit<ParamsOf<${JSON.stringify(m.name)}>, "_meta">>`,
    })),
  });
}

/**
 * Each method's `params` member of its envelope (`ParamsField`: optional where the params may be left out), one member
 * per method: the envelope types index these instead of working the field out from `M` again at every use, so tsc
 * instantiates each once (the bench consumer's 20 requests and their `send`, 100 fewer).
 */
function addParamsFields(file: StatementSink, model: ProtocolModel): void {
  // A method going both ways (`ping`) is one model method, so each table lists it once.
  const fields = (name: string, paramsOf: string, kind: MethodModel["kind"]) =>
    file.addInterface({
      name,
      isExported: true,
      docs: ["The `params` member of each method's envelope."],
      properties: model.methods
        .filter((m) => m.kind === kind)
        .map((m) => ({
          name: JSON.stringify(m.name),
          isReadonly: true,
          type: `ParamsField<${paramsOf}<${JSON.stringify(m.name)}>>`,
        })),
    });
  fields("RequestParamsFields", "ParamsOf", "request");
  fields("NotificationParamsFields", "NotificationParamsOf", "notification");
}

/** Message types: the builders' outputs and what `parse` returns, runtime/core/messages.ts typed by the method tables. */
function addMessageTypes(file: StatementSink, model: ProtocolModel): void {
  const modern = model.era === "modern";
  const alias = (
    name: string,
    type: string,
    docs: string,
    typeParameters: { name: string; constraint?: string; default?: string }[] = [],
  ) => file.addTypeAlias({ name, isExported: true, typeParameters, docs: [docs], type });
  addParamsFields(file, model);
  alias(
    "RequestEnvelope",
    'M extends RequestMethod ? { jsonrpc: "2.0"; id: T.RequestId; method: M } & RequestParamsFields[M] : never',
    `A JSON-RPC request of ${model.version}, typed by method.`,
    [{ name: "M", constraint: "RequestMethod", default: "RequestMethod" }],
  );
  alias(
    "NotificationEnvelope",
    'M extends NotificationMethod ? { jsonrpc: "2.0"; method: M } & NotificationParamsFields[M] : never',
    `A JSON-RPC notification of ${model.version}, typed by method. It never has an \`id\`.`,
    [{ name: "M", constraint: "NotificationMethod", default: "NotificationMethod" }],
  );
  alias(
    "ErrorEnvelope",
    `ErrorEnvelopeOf<${model.envelope.errorIdOptional}>`,
    "An error response. `id` is null when the request's id could not be read (JSON-RPC 2.0, section 5).",
  );
  alias(
    "Envelope",
    "RequestEnvelope | NotificationEnvelope | ResultEnvelope<object> | ErrorEnvelope",
    `Any message of ${model.version}, as the builders build it: a response's result may be any result type.`,
  );
  alias(
    "ValidatedMessage",
    "ValidatedOf<RequestEnvelope, NotificationEnvelope, ErrorEnvelope>",
    `What \`parse(text, { validate: true })\` returns: every request and notification is of a method ${model.version} defines, with params the validators checked, so narrowing by \`method\` types \`params\`.`,
  );
  alias(
    "ParsedMessage",
    "ValidatedMessage | UnknownMethodMessage",
    "What `parse` returns: `kind` tells the four JSON-RPC shapes apart. Unvalidated, a method this version does not define still parses " +
      "(a newer peer may send one), typed with `method: string`, and no params are checked: narrow a `ValidatedMessage` to get typed params.",
  );
  if (modern) addRequestParamsInputs(file, model);
  // Meta is the caller's `_meta` as written, inferred by `request`, so its keys can be checked (CheckedMeta).
  alias(
    "RequestParamsInput",
    modern
      ? "RequestParamsInputs[M] & { readonly _meta?: JsonObject & Meta & CheckedMeta<Meta> & MetaValuesOf<ParamsOf<M>> }"
      : "(ParamsOf<M> | ReadonlyInput<ParamsOf<M>>) & CheckedMetaField<Meta, CheckedMeta<Meta>>",
    modern
      ? "The params a caller passes to `request`: the table's params without `_meta`, which the builder writes (extra `_meta` keys may still be passed, " +
          "reserved ones checked: `CheckedMeta`, and the values of the keys the release declares: `MetaValuesOf`); readonly data fits."
      : "The params a caller passes to `request`: exactly the table's params, reserved `_meta` keys checked (`CheckedMeta`); readonly data fits.",
    [
      { name: "M", constraint: "RequestMethod" },
      { name: "Meta", default: "{}" },
    ],
  );
  // The key a result may leave out is the model's default `resultType` fact, as in the dispatcher's HandlerResult.
  const defaulted = model.dispatch.resultTypeDefault;
  alias(
    "ResultInput",
    defaulted === null
      ? "R | ReadonlyInput<R>"
      : `R extends object ? ReadonlyInput<Omit<R, "${defaulted.property}">> & { readonly ${defaulted.property}?: RT } : R`,
    defaulted === null
      ? "A result as a server hands it to `resultResponse`; readonly data fits."
      : `A result as a server hands it to \`resultResponse\`: \`${defaulted.property}\` may be left out (it defaults to \`${JSON.stringify(defaulted.value)}\`), ` +
          `and is \`RT\` where given; readonly data fits.`,
    defaulted === null ? [{ name: "R" }] : [{ name: "R" }, { name: "RT", default: openEnumType(defaulted.definition) }],
  );
}

/**
 * The runtime call that builds a request of this release from `method`, `params` and the options
 * expression given: `request`'s body, and the requester's builder (which calls it directly rather
 * than through the typed `request`, whose instantiation over every method a consumer's tsc would pay).
 * It reads `VERSION` and `MetaKey`, which the module calling it must have.
 */
export function buildRequestCall(model: ProtocolModel, options: string): string {
  return model.era === "modern"
    ? `statelessRequest(method, params, ${options}, VERSION, MetaKey)`
    : `sessionRequest(method, params, ${options}, MetaKey.progressToken)`;
}

/** What `resultResponse`'s doc says of the result's `_meta` where the release reserves prefixes: checked only where its type arguments are inferred. */
function metaCheckDoc(model: ProtocolModel): string {
  return model.reservedMetaPrefix === null
    ? ""
    : " The result's reserved `_meta` keys are checked (`CheckedMeta`) where no type argument is named: TypeScript infers none once one is.";
}

function addRequestBuilders(file: StatementSink, model: ProtocolModel): void {
  const modern = model.era === "modern";
  file.addInterface({
    name: "RequestOptions",
    isExported: true,
    properties: modern
      ? [
          {
            name: "id",
            isReadonly: true,
            type: "T.RequestId",
            docs: ["Never `null`, never reused while a request with it is pending."],
          },
          {
            name: "clientCapabilities",
            isReadonly: true,
            type: "T.ClientCapabilities",
            docs: ["Required: a server must not infer capabilities from earlier requests."],
          },
          {
            name: "protocolVersion",
            hasQuestionToken: true,
            isReadonly: true,
            type: "string",
            docs: [
              "Defaults to this module's version: importing this module is the choice of version. Pass another to probe.",
            ],
          },
          { name: "clientInfo", hasQuestionToken: true, isReadonly: true, type: "T.Implementation" },
          { name: "logLevel", hasQuestionToken: true, isReadonly: true, type: "T.LoggingLevel" },
          { name: "progressToken", hasQuestionToken: true, isReadonly: true, type: "T.ProgressToken" },
          {
            name: "extraMeta",
            hasQuestionToken: true,
            isReadonly: true,
            type: "Readonly<JsonObject>",
            docs: ["Further `_meta` keys; the reserved keys above win over them."],
          },
        ]
      : [
          {
            name: "id",
            isReadonly: true,
            type: "T.RequestId",
            docs: ["Never `null`, never reused while a request with it is pending."],
          },
          { name: "progressToken", hasQuestionToken: true, isReadonly: true, type: "T.ProgressToken" },
          { name: "extraMeta", hasQuestionToken: true, isReadonly: true, type: "Readonly<JsonObject>" },
        ],
  });
  file.addFunction({
    name: "request",
    isExported: true,
    typeParameters: [
      { name: "M", constraint: "RequestMethod" },
      { name: "Meta", default: "{}" },
      { name: "Extra", default: "{}" },
    ],
    docs: [
      modern
        ? `A request of ${model.version}, a stateless version. Every request carries the protocol version and client capabilities in ` +
          "`params._meta` (the schema requires them): a server must not infer anything from an earlier request."
        : `A request of ${model.version}, a session-based version. No \`_meta\` is invented: an old server may take an unknown \`_meta\` for ` +
          "part of the params. `_meta` appears only when the caller passes one, a `progressToken` or `extraMeta`.",
    ],
    parameters: [
      { name: "method", type: "M" },
      { name: "params", type: "RequestParamsInput<M, Meta>" },
      { name: "options", type: "RequestOptions & CheckedExtraMeta<Extra>" },
    ],
    returnType: "RequestEnvelope<M>",
    statements: [`return ${buildRequestCall(model, "options")} as RequestEnvelope<M>;`],
  });
  file.addTypeAlias({
    name: "CheckedExtraMeta",
    isExported: true,
    typeParameters: [{ name: "Extra" }],
    docs: ["`extraMeta` as a caller writes it, reserved keys checked (`CheckedMeta`)."],
    type: "{ readonly extraMeta?: Extra & CheckedMeta<Extra> }",
  });
  addNotificationBuilder(file);
}

function addResponseBuilders(file: StatementSink, model: ProtocolModel): void {
  const modern = model.era === "modern";
  const facts = resultTypeFacts(model);
  if (modern && facts === null)
    throw new BindgenError(
      model.file,
      model.schema.definitionsPointer,
      "a default resultType (schema/facts.json) for a stateless release",
      "its results always carry one",
    );
  // What statelessResult takes: the key and its default, in the runtime's shape.
  const resultType = facts === null ? null : { key: facts.key, complete: facts.complete };
  const idType = model.envelope.errorIdOptional ? "T.RequestId | undefined" : "T.RequestId";
  const resultTypeType = openEnumType(model.dispatch.resultTypeDefault?.definition ?? null);
  // The members whose resultType admits RT, each with RT as its resultType (a member with another literal drops out).
  const built = resultType === null ? "" : `ResultOf<M> & { ${resultType.key}: RT }`;
  if (resultType !== null) {
    file.addInterface({
      name: "ResultOptions",
      isExported: true,
      typeParameters: [{ name: "RT", default: resultTypeType }],
      properties: [
        {
          name: "resultType",
          hasQuestionToken: true,
          isReadonly: true,
          type: "RT",
          docs: [
            `Overrides the result's own \`${resultType.key}\`; the default is \`${JSON.stringify(resultType.complete)}\`.`,
          ],
        },
        {
          name: "serverInfo",
          hasQuestionToken: true,
          isReadonly: true,
          type: "T.Implementation",
          docs: ["Written to `_meta` so the client can show who answered."],
        },
      ],
    });
  }
  file.addFunction({
    name: "resultResponse",
    isExported: true,
    // RT is the resultType the built result carries (the option's, else the result's own, else the default), so the
    // envelope is typed with that literal; naming M alone leaves RT at the default, and another value needs naming too.
    typeParameters: [
      { name: "M", constraint: "RequestMethod", default: "RequestMethod" },
      ...(resultType !== null
        ? [{ name: "RT", constraint: resultTypeType, default: JSON.stringify(resultType.complete) }]
        : []),
      // The result's `_meta` as written, so its reserved keys are checked; inferred only where no type argument is named.
      { name: "Meta", default: "{}" },
    ],
    docs: [
      resultType !== null
        ? `A successful ${model.version} response. \`${resultType.key}\` is required in this version and defaults to \`${JSON.stringify(resultType.complete)}\`. Name the method (\`resultResponse<"tools/call">\`) to check the result against it, ` +
          `and the \`${resultType.key}\` too where it is another (\`resultResponse<"tools/call", "input_required">\`): the result is typed with the value it carries.${metaCheckDoc(model)}`
        : `A successful ${model.version} response. This version's clients do not know \`resultType\`, so none is added (they treat it as absent ⇒ \`"complete"\`).${metaCheckDoc(model)}`,
    ],
    parameters: [
      { name: "id", type: "T.RequestId" },
      {
        name: "result",
        type: `${resultType !== null ? "ResultInput<ResultOf<M>, RT>" : "ResultInput<ResultOf<M>>"} & { readonly _meta?: Meta & CheckedMeta<Meta> }`,
      },
      ...(resultType !== null ? [{ name: "options", type: "ResultOptions<RT>", initializer: "{}" }] : []),
    ],
    returnType: resultType !== null ? `ResultEnvelope<${built}>` : "ResultEnvelope<ResultOf<M>>",
    statements: [
      resultType !== null
        ? `return statelessResult(id, result, options.resultType, options.serverInfo, MetaKey.serverInfo, ${JSON.stringify(resultType)}) as ResultEnvelope<${built}>;`
        : "return sessionResult(id, result) as ResultEnvelope<ResultOf<M>>;",
    ],
  });
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
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      {
        name: "ERRORS",
        type: "ErrorCodeTable",
        initializer: "{ codes: ErrorCode, receiveOnly: RECEIVE_ONLY_ERROR_CODES }",
      },
    ],
  });
  file.addFunction({
    name: "errorResponse",
    isExported: true,
    docs: [
      `A ${model.version} error response. \`code\` is a number or an \`ErrorCode\` name.` +
        " Receive-only codes throw a RangeError: they are " +
        "recognised from old peers, never produced. " +
        "Pass `null` as `id` only to answer a message whose id could not be read (JSON-RPC 2.0, section 5).",
    ],
    parameters: [
      { name: "id", type: `${idType} | null` },
      { name: "code", type: "number | SendableErrorName" },
      { name: "message", type: "string" },
      { name: "data", type: "unknown", hasQuestionToken: true },
    ],
    returnType: "ErrorEnvelope",
    statements: ["return errorEnvelope(ERRORS, id, code, message, data) as ErrorEnvelope;"],
  });
  if (!modern) return;
  addModernErrorBuilders(file, { idType, capabilitiesType: "T.ClientCapabilities", errors: "ERRORS" });
}

/** `notification`, the same in a release's `envelope.ts` and the version-agnostic `runtime.ts`: both name `NotificationMethod` and `NotificationParamsOf`. */
export function addNotificationBuilder(file: StatementSink): void {
  // The builder infers the caller's `_meta` (Meta) to check its reserved keys by the module's own `CheckedMeta`.
  const params = "NotificationParamsOf<M> & CheckedMetaField<Meta, CheckedMeta<Meta>>";
  file.addFunction({
    name: "notification",
    isExported: true,
    typeParameters: [
      { name: "M", constraint: "NotificationMethod" },
      { name: "Meta", default: "{}" },
    ],
    docs: ["A notification: never an `id`, so the peer must not answer it."],
    parameters: [
      { name: "method", type: "M" },
      {
        name: "...rest",
        type: `undefined extends NotificationParamsOf<M> ? [params?: ${params}] : [params: ${params}]`,
      },
    ],
    returnType: "NotificationEnvelope<M>",
    statements: ["return notificationEnvelope(method, rest[0]) as NotificationEnvelope<M>;"],
  });
}

/** `encode` over the messages a module types (`messageType`); the code is the runtime's `encodeMessage`. */
export function addEncode(file: StatementSink, messageType: string): void {
  file.addFunction({
    name: "encode",
    isExported: true,
    docs: [
      "Message → JSON text; the inverse of `parse`. Throws a RangeError only for values nested too deep for JSON.stringify.",
    ],
    parameters: [{ name: "message", type: messageType }],
    returnType: "string",
    statements: ["return encodeMessage(message);"],
  });
}

/**
 * The three error builders of the stateless era, the same in a release's `envelope.ts` and the
 * version-agnostic `runtime.ts`; only the id type, the code table and the default list of
 * supported versions differ.
 */
export function addModernErrorBuilders(
  file: StatementSink,
  {
    idType,
    capabilitiesType,
    errors,
    supportedDefault,
  }: { idType: string; capabilitiesType: string; errors: string; supportedDefault?: string },
): void {
  file.addFunction({
    name: "unsupportedProtocolVersionError",
    isExported: true,
    docs: [
      "-32022: carries the versions this server supports, so the client can pick one and retry instead of guessing.",
    ],
    parameters: [
      { name: "id", type: idType },
      { name: "requested", type: "string" },
      supportedDefault === undefined
        ? { name: "supported", type: "readonly string[]" }
        : { name: "supported", type: "readonly string[]", initializer: supportedDefault },
    ],
    returnType: "ErrorEnvelope",
    statements: [`return unsupportedProtocolVersion(${errors}, id, requested, supported) as ErrorEnvelope;`],
  });
  file.addFunction({
    name: "missingRequiredClientCapabilityError",
    isExported: true,
    docs: ["-32021: names the capabilities that are missing; otherwise the client cannot know what to add."],
    parameters: [
      { name: "id", type: idType },
      { name: "requiredCapabilities", type: capabilitiesType },
    ],
    returnType: "ErrorEnvelope",
    statements: [`return missingRequiredClientCapability(${errors}, id, requiredCapabilities) as ErrorEnvelope;`],
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
    statements: [`return headerMismatch(${errors}, id, message) as ErrorEnvelope;`],
  });
}

function addParseEncode(file: StatementSink): void {
  file.addFunction({
    name: "parse",
    isExported: true,
    docs: [
      "JSON text → message. Never throws: `{ ok: false }` with -32700 (not JSON) or -32600 (not a JSON-RPC 2.0 message: " +
        "`id` fractional, or null anywhere but an error response, both `result` and `error`, no `jsonrpc`, a batch array, a non-object, params that are no array or object) or -32602 (params by position: MCP names them). With `{ validate: true }` " +
        "the message is also checked against this version's schema (`validateMessage`): -32601 for an unknown method, -32602 for bad params.",
    ],
    overloads: [
      {
        parameters: [
          { name: "text", type: "string" },
          { name: "options", type: "{ readonly validate: true }" },
        ],
        returnType: "ParseOutcome<ValidatedMessage>",
      },
      {
        parameters: [
          { name: "text", type: "string" },
          { name: "options", type: "{ readonly validate?: boolean }", hasQuestionToken: true },
        ],
        returnType: "ParseOutcome<ParsedMessage>",
      },
    ],
    parameters: [
      { name: "text", type: "string" },
      { name: "options", type: "{ readonly validate?: boolean }", initializer: "{}" },
    ],
    returnType: "ParseOutcome<ParsedMessage>",
    statements: [
      "return parseMessage(text, options.validate === true ? validateMessage : undefined) as ParseOutcome<ParsedMessage>;",
    ],
  });
  addEncode(file, "Envelope | ParsedMessage");
}

/** `generated/<version>/envelope.ts`: typed builders, `parse`/`encode`, and for modern versions the error helpers and HTTP headers. */
export function emitEnvelope(model: ProtocolModel): EmittedFile {
  const path = `${model.version}/envelope.ts`;
  const modern = model.era === "modern";
  if (modern)
    requireMetaKeys(model, [
      "protocolVersion",
      "clientCapabilities",
      "clientInfo",
      "logLevel",
      "progressToken",
      "serverInfo",
    ]);
  else requireMetaKeys(model, ["progressToken"]);
  const http = modern ? model.http : null;
  const content = buildSourceFile((file) => {
    file.addImportDeclaration({ isTypeOnly: true, namespaceImport: "T", moduleSpecifier: "./types.js" });
    file.addImportDeclaration({
      isTypeOnly: true,
      namedImports: ["NotificationMethod", "NotificationParamsOf", "ParamsOf", "RequestMethod", "ResultOf"],
      moduleSpecifier: "./methods.js",
    });
    file.addImportDeclaration({
      namedImports: ["ErrorCode", "RECEIVE_ONLY_ERROR_CODES", { name: "ErrorName", isTypeOnly: true }],
      moduleSpecifier: "./errors.js",
    });
    file.addImportDeclaration({
      namedImports: ["MetaKey", { name: "CheckedMeta", isTypeOnly: true }],
      moduleSpecifier: "./meta.js",
    });
    file.addImportDeclaration({
      isTypeOnly: true,
      namedImports: modern ? ["CheckedMetaField", "MetaValuesOf"] : ["CheckedMetaField"],
      moduleSpecifier: runtimeImport("meta-keys", 1),
    });
    file.addImportDeclaration({ namedImports: ["validateMessage"], moduleSpecifier: "./validate.js" });
    file.addImportDeclaration({
      isTypeOnly: true,
      namedImports: ["JsonObject", "ReadonlyInput"],
      moduleSpecifier: runtimeImport("json", 1),
    });
    file.addImportDeclaration({
      namedImports: ["encodeMessage", "parseMessage", { name: "ParseOutcome", isTypeOnly: true }],
      moduleSpecifier: runtimeImport("jsonrpc", 1),
    });
    file.addImportDeclaration({
      namedImports: [
        "errorEnvelope",
        ...(modern ? ["headerMismatch", "missingRequiredClientCapability"] : []),
        "notificationEnvelope",
        ...(modern
          ? ["statelessRequest", "statelessResult", "unsupportedProtocolVersion"]
          : ["sessionRequest", "sessionResult"]),
        { name: "ErrorCodeTable", isTypeOnly: true },
      ],
      moduleSpecifier: runtimeImport("builders", 1),
    });
    if (http) {
      file.addImportDeclaration({
        namedImports: ["protocolVersionIn", "routingNameIn", { name: "RoutingFacts", isTypeOnly: true }],
        moduleSpecifier: runtimeImport("routing", 1),
      });
    }
    file.addImportDeclaration({
      isTypeOnly: true,
      namedImports: ["ErrorEnvelopeOf", "ParamsField", "ResultEnvelope", "UnknownMethodMessage", "ValidatedOf"],
      moduleSpecifier: runtimeImport("messages", 1),
    });
    file.addExportDeclaration({
      isTypeOnly: true,
      namedExports: ["ParseFailure", "ParseOutcome"],
      moduleSpecifier: runtimeImport("jsonrpc", 1),
    });
    file.addExportDeclaration({
      isTypeOnly: true,
      namedExports: ["ResultEnvelope"],
      moduleSpecifier: runtimeImport("messages", 1),
    });
    if (modern) {
      file.addVariableStatement({
        declarationKind: VariableDeclarationKind.Const,
        declarations: [{ name: "VERSION", initializer: JSON.stringify(model.protocolVersion) }],
      });
    }
    addMessageTypes(file, model);
    addRequestBuilders(file, model);
    addResponseBuilders(file, model);
    // httpHeaders itself, with Mcp-Param headers from a tool, is in the release's http.ts.
    if (http) addHttpFunctions(file, httpFacts(http, model.metaKeys), { headersFrom: null });
    addParseEncode(file);
  });
  return { path, content };
}

const ENVELOPE_LIKE = "{ readonly method: string; readonly id?: unknown; readonly params?: unknown }";

/** `protocolVersionOf`, `routingName` and `httpHeaders` over a release's (or every release's) HTTP facts. */
export function addHttpFunctions(
  file: StatementSink,
  facts: RoutingFacts,
  options: { readonly headersFrom: string | null },
): void {
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name: "HTTP", type: "RoutingFacts", initializer: JSON.stringify(facts) }],
  });
  file.addFunction({
    name: "protocolVersionOf",
    isExported: true,
    docs: [
      "The protocol version written in an envelope's `params._meta`, or `undefined`. The HTTP transport reads the " +
        `\`${facts.protocolVersionHeader}\` header from here instead of keeping its own copy: a header that disagrees with the envelope gets -32020.`,
    ],
    parameters: [{ name: "envelope", type: "{ readonly params?: unknown }" }],
    returnType: "string | undefined",
    statements: ["return protocolVersionIn(envelope, HTTP.protocolVersionKey);"],
  });
  file.addFunction({
    name: "routingName",
    isExported: true,
    docs: [
      `The \`${facts.nameHeader}\` header value: ${Object.entries(facts.nameParam)
        .map(([m, k]) => `\`params.${k}\` for \`${m}\``)
        .join(", ")}; \`undefined\` for every other method and for notifications.`,
    ],
    parameters: [{ name: "envelope", type: ENVELOPE_LIKE }],
    returnType: "string | undefined",
    statements: ["return routingNameIn(envelope, HTTP);"],
  });
  if (options.headersFrom === null) return;
  file.addFunction({
    name: "httpHeaders",
    isExported: true,
    docs: [
      `The Streamable HTTP headers of an envelope: \`${facts.protocolVersionHeader}\` (read back from \`_meta\`, absent when the envelope has none), ` +
        `\`${facts.methodHeader}\`, and \`${facts.nameHeader}\` where the method routes by name.`,
    ],
    parameters: [{ name: "envelope", type: ENVELOPE_LIKE }],
    returnType: "Record<string, string>",
    statements: [`return ${options.headersFrom}(envelope);`],
  });
}

/** The release's open enum of `resultType` values (its known values listed, any string accepted), or a plain string. */
function openEnumType(definition: string | null): string {
  return definition === null ? "string" : `T.${definition}`;
}
