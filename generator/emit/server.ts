import { CodeBlockWriter, VariableDeclarationKind, Writers } from "../common/ts-morph.ts";
import { BindgenError } from "../common/failures.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import type { VersionEmitter } from "./emitted.ts";
import { servesMcpRelease, SYSLOG_SEVERITIES } from "./mcp-release.ts";
import { runtimeImport } from "./runtime-files.ts";
import { SchemaTypes } from "./schema-type.ts";
import { buildSourceFile, objectLiteral, type StatementSink } from "./source-file.ts";

/** The request that opens a session release's session; the model tells eras apart by it too (model/build.ts `eraEvidence`). */
const INITIALIZE = "initialize";
/** The client's notification that ends a session's handshake (lifecycle page). */
const INITIALIZED = "notifications/initialized";

/** What both eras' modules take from the release beside their own facts. */
interface EraInputs {
  readonly model: ProtocolModel;
  /** The error codes the transports answer with, as an object literal. */
  readonly codes: string;
  readonly eras: string;
  readonly dispatcher: string;
  readonly version: string;
  /** The era's `EraHeaders`, as an object literal. */
  readonly headers: string;
}

/** The short name (schema/facts.json `sessionHeaders`) of the one header a session server sends that its client reads. */
const SESSION_ID = "sessionId";

/**
 * `<version>/server.ts`: the release's side of the shipped server transports (runtime/server/server-eras.ts).
 * A stateless release gets `statelessEra(handlers)`, its header check, status mapping and
 * `input_required` facts bound in; a session release gets `sessionEra(handlers)`, whose handlers
 * send typed requests to the client through `ctx.context.request`. Either goes to
 * `createHttpHandler` or `serveStdio`.
 */
export const emitServer: VersionEmitter = (model: ProtocolModel) => {
  const path = `${model.version}/server.ts`;
  const code = (name: string): string => {
    const found = model.errorCodes.find((e) => e.name === name)?.code;
    if (found === undefined)
      throw new BindgenError(
        model.file,
        model.schema.definitionsPointer,
        `the error code ${name} (schema/facts.json)`,
        "the server transports answer with it",
      );
    return String(found);
  };
  const inputs: EraInputs = {
    model,
    codes: objectLiteral({
      invalidRequest: code("InvalidRequest"),
      invalidParams: code("InvalidParams"),
      internalError: code("InternalError"),
    }),
    eras: runtimeImport("server-eras", 1),
    dispatcher: runtimeImport("dispatcher", 1),
    version: JSON.stringify(model.protocolVersion),
    headers: JSON.stringify({
      request: model.httpHeaders.map((h) => h.header),
      ...(model.http === null ? {} : { requestPrefix: model.http.paramHeaderPrefix }),
      response: model.httpHeaders.filter((h) => h.name === SESSION_ID).map((h) => h.header),
    }),
  };
  const content = buildSourceFile((file) => {
    if (model.era === "modern") addStatelessEra(file, inputs);
    else addSessionEra(file, inputs);
    addResourceServerRules(file, model);
  });
  return { path, content };
};

function addStatelessEra(file: StatementSink, { model, codes, eras, dispatcher, version, headers }: EraInputs): void {
  const input = model.inputRequired;
  const resultTypeKey = model.dispatch.resultTypeDefault?.property;
  if (input === null || resultTypeKey === undefined)
    throw new BindgenError(
      model.file,
      model.schema.definitionsPointer,
      "an input_required result and a resultType key",
      "statelessEra builds input_required results",
    );
  const inputSpec = JSON.stringify({
    key: resultTypeKey,
    value: input.resultType,
    requests: input.requests,
    state: input.state,
    responses: input.responses,
  });
  const inputResults = Object.fromEntries(
    model.methods.filter((m) => m.kind === "input").map((m) => [JSON.stringify(m.name), JSON.stringify(m.results[0])]),
  );
  file.addImportDeclaration({ isTypeOnly: true, namespaceImport: "T", moduleSpecifier: "./types.js" });
  file.addImportDeclaration({
    isTypeOnly: true,
    namedImports: ["ClientNotifications", "ClientRequests", "InputRequestMethod", "InputRequestTable"],
    moduleSpecifier: "./methods.js",
  });
  file.addImportDeclaration({
    namedImports: ["validate", { name: "DefinitionName", isTypeOnly: true }],
    moduleSpecifier: "./validate.js",
  });
  file.addImportDeclaration({ namedImports: ["own"], moduleSpecifier: runtimeImport("json", 1) });
  file.addImportDeclaration({
    namedImports: ["createServerDispatcher", { name: "ServerDispatchHandlers", isTypeOnly: true }],
    moduleSpecifier: "./dispatch.js",
  });
  file.addImportDeclaration({ namedImports: ["checkHttpHeaders", "httpStatusOf"], moduleSpecifier: "./http.js" });
  file.addImportDeclaration({ isTypeOnly: true, namedImports: ["DispatcherOptions"], moduleSpecifier: dispatcher });
  file.addImportDeclaration({ isTypeOnly: true, namedImports: ["CheckedResults"], moduleSpecifier: "./meta.js" });
  file.addImportDeclaration({
    namedImports: [
      "createStatelessEra",
      { name: "StatelessContext", isTypeOnly: true },
      { name: "StatelessEra", isTypeOnly: true },
      { name: "StatelessEraOptions", alias: "EraOptions", isTypeOnly: true },
    ],
    moduleSpecifier: eras,
  });
  file.addExportDeclaration({ isTypeOnly: true, namedExports: ["StatelessEra"], moduleSpecifier: eras });
  file.addTypeAlias({
    name: "StatelessServerContext",
    isExported: true,
    docs: [
      `\`ctx.context\` of a ${model.version} handler behind a transport: the request's headers, \`send\`, the verified \`state\` and \`inputRequired\`.`,
    ],
    type: "StatelessContext<T.InputRequests, T.InputRequiredResult>",
  });
  file.addTypeAlias({
    name: "StatelessServerHandlers",
    isExported: true,
    docs: ["The handler table `statelessEra` serves."],
    type: "ServerDispatchHandlers<StatelessServerContext>",
  });
  file.addInterface({
    name: "StatelessEraOptions",
    isExported: true,
    extends: ['Omit<DispatcherOptions<StatelessServerContext>, "send" | "peerOf">', "EraOptions"],
    properties: [
      {
        name: "toolOf",
        isReadonly: true,
        hasQuestionToken: true,
        type: "(name: string) => T.Tool | undefined",
        docs: ["The tool a `tools/call` names, so that its `Mcp-Param-*` headers (`x-mcp-header`) are checked too."],
      },
    ],
  });
  const release = objectLiteral({
    versions: `options.supportedVersions ?? [${version}]`,
    codes,
    headers,
    inputRequired: inputSpec,
    checkHeaders:
      "(headers, message, name) => { const tool = name === undefined ? undefined : toolOf?.(name); return checkHttpHeaders(headers, message, tool === undefined ? {} : { tool }); }",
    statusOf: "httpStatusOf",
  });
  file.addFunction({
    name: "statelessEra",
    isExported: true,
    docs: [
      `Serves ${model.version} requests with \`handlers\` on \`createHttpHandler\` or \`serveStdio\`: headers checked (-32020), \`requestState\` verified, notifications and progress streamed.`,
    ],
    typeParameters: [{ name: "Handlers", default: "unknown" }],
    parameters: [
      { name: "handlers", type: checkedTable("StatelessServerHandlers") },
      { name: "options", type: "StatelessEraOptions", initializer: "{}" },
    ],
    returnType: "StatelessEra",
    statements: [
      "const { toolOf, requestState, ...dispatcherOptions } = options;",
      "const dispatcher = createServerDispatcher<StatelessServerContext>(handlers, { ...dispatcherOptions, send: (message, context) => context.send(message), peerOf: (context) => context.peer });",
      `return createStatelessEra(${release}, dispatcher.handle, requestState === undefined ? {} : { requestState });`,
    ],
  });
  addMcpRelease(file, model, "stateless");
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      {
        name: "INPUT_RESULTS",
        type: "{ readonly [M in InputRequestMethod]: DefinitionName }",
        initializer: objectLiteral(inputResults),
      },
    ],
  });
  file.addFunction({
    name: "inputResponse",
    isExported: true,
    docs: [
      `The answer a retried request brought for \`key\` (its \`${input.responses}\`), when it is a valid result of \`method\`; undefined when it is missing or of another kind.`,
    ],
    typeParameters: [{ name: "M", constraint: "InputRequestMethod" }],
    parameters: [
      { name: "params", type: `{ readonly ${input.responses}?: T.InputResponses | undefined }` },
      { name: "key", type: "string" },
      { name: "method", type: "M" },
    ],
    returnType: 'InputRequestTable[M]["result"] | undefined',
    statements: [
      `const answers = params.${input.responses};`,
      "const answer: unknown = answers !== undefined && own(answers, key) ? answers[key] : undefined;",
      'return answer !== undefined && validate(INPUT_RESULTS[method], answer).ok ? (answer as InputRequestTable[M]["result"]) : undefined;',
    ],
  });
}

function addSessionEra(file: StatementSink, { model, codes, eras, dispatcher, version, headers }: EraInputs): void {
  if (!model.methods.some((m) => m.name === INITIALIZE && m.kind === "request"))
    throw new BindgenError(
      model.file,
      model.schema.definitionsPointer,
      `the ${INITIALIZE} request`,
      "sessionEra opens sessions with it",
    );
  if (!model.methods.some((m) => m.name === INITIALIZED && m.kind === "notification"))
    throw new BindgenError(
      model.file,
      model.schema.definitionsPointer,
      `the ${INITIALIZED} notification`,
      "sessionEra tells sessions what happens outside their requests only after it",
    );
  file.addImportDeclaration({
    namedImports: ["createServerDispatcher", { name: "ServerDispatchHandlers", isTypeOnly: true }],
    moduleSpecifier: "./dispatch.js",
  });
  file.addImportDeclaration({
    namedImports: ["createServerRequester", { name: "ServerRequester", isTypeOnly: true }],
    moduleSpecifier: "./requester.js",
  });
  file.addImportDeclaration({ isTypeOnly: true, namedImports: ["DispatcherOptions"], moduleSpecifier: dispatcher });
  file.addImportDeclaration({ isTypeOnly: true, namedImports: ["CheckedResults"], moduleSpecifier: "./meta.js" });
  file.addImportDeclaration({
    isTypeOnly: true,
    namedImports: ["ClientNotifications", "ClientRequests"],
    moduleSpecifier: "./methods.js",
  });
  file.addImportDeclaration({
    namedImports: [
      "createSessionEra",
      { name: "SessionContext", isTypeOnly: true },
      { name: "SessionEra", isTypeOnly: true },
      { name: "SessionEraOptions", alias: "EraOptions", isTypeOnly: true },
    ],
    moduleSpecifier: eras,
  });
  file.addExportDeclaration({ isTypeOnly: true, namedExports: ["SessionEra", "SessionInfo"], moduleSpecifier: eras });
  file.addTypeAlias({
    name: "SessionServerContext",
    isExported: true,
    docs: [
      `\`ctx.context\` of a ${model.version} handler behind a transport: the request's headers, \`send\`, the session, and typed requests to the client.`,
    ],
    typeParameters: [{ name: "S", default: "undefined" }],
    type: 'SessionContext<ServerRequester["request"], S>',
  });
  file.addTypeAlias({
    name: "SessionServerHandlers",
    isExported: true,
    docs: ["The handler table `sessionEra` serves; `S` is the per-session state `sessionState` makes."],
    typeParameters: [{ name: "S", default: "undefined" }],
    type: "ServerDispatchHandlers<SessionServerContext<S>>",
  });
  file.addInterface({
    name: "SessionEraOptions",
    isExported: true,
    typeParameters: ["S"],
    extends: ['Omit<DispatcherOptions<SessionServerContext<S>>, "send" | "peerOf">', "EraOptions<S>"],
    properties: [
      {
        name: "versions",
        isReadonly: true,
        hasQuestionToken: true,
        type: "readonly string[]",
        docs: [
          `The \`MCP-Protocol-Version\` headers routed to this era. Default: ${model.version}; pass \`LEGACY_VERSIONS\` to route every older client here.`,
        ],
      },
    ],
  });
  const release = objectLiteral({
    versions: `versions ?? [${version}]`,
    codes,
    headers,
    initialize: JSON.stringify(INITIALIZE),
    createRequester: "createServerRequester",
    batches: String(model.dispatch.batch !== null),
    initialized: JSON.stringify(INITIALIZED),
  });
  const batchNote =
    model.dispatch.batch === null
      ? ""
      : ` A POST body or a stdio line may be a JSON-RPC batch, answered with the array of its responses (${model.dispatch.batch.transportSource}).`;
  file.addFunction({
    name: "sessionEra",
    isExported: true,
    docs: [
      `Serves ${model.version} sessions with \`handlers\` on \`createHttpHandler\` or \`serveStdio\`: initialize, notifications, progress and requests to the client on the request's stream.${batchNote}`,
    ],
    typeParameters: [
      { name: "S", default: "undefined" },
      { name: "Handlers", default: "unknown" },
    ],
    parameters: [
      { name: "handlers", type: checkedTable("SessionServerHandlers<S>") },
      { name: "options", type: "SessionEraOptions<S>", initializer: "{}" },
    ],
    returnType: "SessionEra",
    statements: [
      "const { versions, sessionState, requestTimeoutMs, ...dispatcherOptions } = options;",
      "const dispatcher = createServerDispatcher<SessionServerContext<S>>(handlers, { ...dispatcherOptions, send: (message, context) => context.send(message), peerOf: (context) => context.session });",
      `return createSessionEra<S>(${release}, dispatcher.handle, { ...(sessionState === undefined ? {} : { sessionState }), ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }) });`,
    ],
  });
  addMcpRelease(file, model, "sessions");
}

/**
 * The release's rules for `createBearerGate` (runtime/server/bearer-gate.ts), from the facts, and the scope table typed
 * by its method names.
 */
function addResourceServerRules(file: StatementSink, model: ProtocolModel): void {
  const rules = model.resourceServerAuth;
  file.addImportDeclaration({
    isTypeOnly: true,
    namedImports: ["ResourceServerRules", { name: "ScopeTable", alias: "ScopeRows" }],
    moduleSpecifier: runtimeImport("bearer-gate", 1),
  });
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    isExported: true,
    docs: [
      [
        `How a ${model.version} server answers as an OAuth resource server, for \`createBearerGate\`'s \`rules\`.`,
        ...rules.sources.map((source) => `@see ${source}`),
      ].join("\n"),
    ],
    declarations: [
      {
        name: "RESOURCE_SERVER_RULES",
        type: "ResourceServerRules",
        initializer: `/* @__PURE__ */ Object.freeze(${objectLiteral({
          version: JSON.stringify(model.protocolVersion),
          resourceMetadataInChallenge: String(rules.resourceMetadataInChallenge),
          scopeInChallenge: String(rules.scopeInChallenge),
          grantedScopesInChallenge: String(rules.grantedScopesInChallenge),
          withheldScopes: `/* @__PURE__ */ Object.freeze(${JSON.stringify(rules.withheldScopes)})`,
          toolCallMethod: JSON.stringify(rules.toolCallMethod),
        })})`,
      },
    ],
  });
  file.addTypeAlias({
    name: "ScopeTable",
    isExported: true,
    docs: [
      `Scopes by ${model.version} method and by tool (\`Tool\`: a \`servers/<name>.ts\` \`ToolName\`), for \`createBearerGate\`'s \`scopes\`: a misspelt method or tool does not compile.`,
    ],
    typeParameters: [{ name: "Tool", constraint: "string", default: "never" }],
    type: "ScopeRows<keyof ClientRequests & string, Tool>",
  });
}

/** An era's table, inferred as written (`Handlers`) and checked as the server dispatcher checks its own (`CheckedResults`). */
function checkedTable(table: string): string {
  return `${table} & CheckedResults<Handlers, keyof ClientRequests | keyof ClientNotifications>`;
}

/**
 * The members a high-level declaration types itself (runtime/server/mcp-server.ts `ToolDeclaration` and the
 * others), by the definition it lists as: what is left of each definition is what a declaration may add.
 */
const DECLARED_MEMBERS = {
  Tool: ["name", "inputSchema", "outputSchema"],
  Prompt: ["name", "arguments"],
  Resource: ["uri", "name"],
  ResourceTemplate: ["uriTemplate", "name"],
} as const;

/**
 * The rest of a definition's members, every one readonly, as an object type written out here: through `Omit`
 * (or `Pick`) a consumer's tsc would work it out again at each declaration, per release.
 */
function listingType(model: ProtocolModel, name: keyof typeof DECLARED_MEMBERS): string {
  const own: readonly string[] = DECLARED_MEMBERS[name];
  const schema = model.definitions.get(name)?.schema;
  if (schema === undefined) return "{}";
  const names = new Set(model.definitions.keys());
  const { properties } = new SchemaTypes(names, { qualifier: "T." }).members({
    ...schema,
    properties: (schema.properties ?? []).filter((p) => !own.includes(p.name)),
  });
  const writer = new CodeBlockWriter();
  Writers.objectType({ properties: properties.map((p) => ({ ...p, isReadonly: true })) })(writer);
  // The descriptions link definitions by name; here they are members of the `T` namespace.
  return writer
    .toString()
    .replace(/\{@link (\w+)/g, (link, target: string) => (names.has(target) ? `{@link T.${target}` : link));
}

/**
 * `MCP_RELEASE`: the release as the high-level server (runtime/server/mcp-server.ts `createMcpServer`) serves it, its
 * facts from the model and the types its handlers answer. A release without one (`servesMcpRelease`) gets the
 * rest of its server module as ever.
 */
function addMcpRelease(file: StatementSink, model: ProtocolModel, era: "stateless" | "sessions"): void {
  const levels = model.definitions.get("LoggingLevel")?.schema.enum;
  if (levels === undefined || !servesMcpRelease(model)) return;
  const cache = model.cacheMembers;
  const metaKey = (name: string): string | undefined => model.metaKeys.find((k) => k.name === name)?.key;
  const invalidParams = model.errorCodes.find((e) => e.name === "InvalidParams")?.code ?? -32602;
  const facts = objectLiteral({
    logLevels: JSON.stringify(SYSLOG_SEVERITIES.filter((level) => levels.includes(level))),
    codes: objectLiteral({ invalidParams: String(invalidParams) }),
    invalidArguments: JSON.stringify(model.invalidToolArguments),
    cache: JSON.stringify(cache),
    metaKeys: JSON.stringify(
      era === "stateless"
        ? {
            logLevel: metaKey("logLevel"),
            serverInfo: metaKey("serverInfo"),
            subscriptionId: metaKey("subscriptionId"),
          }
        : {},
    ),
  });
  const rule = model.reservedMetaPrefix;
  const literals = (values: readonly string[]): string =>
    values.length === 0 ? "never" : values.map((v) => JSON.stringify(v)).join(" | ");
  const context = era === "stateless" ? "StatelessServerContext" : "SessionServerContext<McpSessionData>";
  if (era === "sessions")
    file.addImportDeclaration({ isTypeOnly: true, namespaceImport: "T", moduleSpecifier: "./types.js" });
  file.addImportDeclaration({
    isTypeOnly: true,
    namedImports: ["ServerContextOf"],
    moduleSpecifier: "./dispatch.js",
  });
  // answers.ts's results are shaped as handlers write them (resultType left to the dispatcher, cache members to the server).
  file.addImportDeclaration({ isTypeOnly: true, namespaceImport: "A", moduleSpecifier: "./answers.js" });
  const answer = (method: string): string =>
    (model.methods.find((m) => m.name === method)?.results ?? []).map((r) => `A.${r}`).join(" | ");
  file.addImportDeclaration({
    isTypeOnly: true,
    namedImports: ["FormerMetaKey", "MetaKey"],
    moduleSpecifier: "./meta.js",
  });
  file.addImportDeclaration({
    namedImports: [
      ...(era === "sessions" ? ["mcpSessionState", { name: "McpSessionData", isTypeOnly: true }] : []),
      { name: "McpRelease", isTypeOnly: true },
    ],
    moduleSpecifier: runtimeImport("mcp-server", 1),
  });
  file.addTypeAlias({
    name: "McpReleaseTypes",
    isExported: true,
    docs: [
      `What ${model.version}'s handlers take and answer, for \`createMcpServer\` to type a declaration by every release it serves.`,
    ],
    type: objectLiteral({
      era: JSON.stringify(era),
      version: JSON.stringify(model.protocolVersion),
      context: `ServerContextOf<"tools/call", ${context}>`,
      tool: answer("tools/call"),
      prompt: answer("prompts/get"),
      resource: answer("resources/read"),
      params:
        era === "stateless" && model.inputRequired !== null
          ? `{ readonly ${model.inputRequired.responses}?: T.InputResponses | undefined }`
          : "{}",
      toolListing: listingType(model, "Tool"),
      promptListing: listingType(model, "Prompt"),
      resourceListing: listingType(model, "Resource"),
      templateListing: listingType(model, "ResourceTemplate"),
      level: "T.LoggingLevel",
      metaKnown: "MetaKey | FormerMetaKey",
      metaLabels: literals(rule?.labels ?? []),
      metaPosition: JSON.stringify(rule?.position ?? "none"),
      options: era === "stateless" ? "StatelessEraOptions" : 'Omit<SessionEraOptions<McpSessionData>, "sessionState">',
    }),
  });
  const serve =
    era === "stateless"
      ? "(handlers, options) => statelessEra(handlers as StatelessServerHandlers, options)"
      : "(handlers, options) => sessionEra<McpSessionData>(handlers as SessionServerHandlers<McpSessionData>, { ...options, sessionState: mcpSessionState })";
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    isExported: true,
    docs: [
      `${model.version} for \`createMcpServer\`: one declaration of tools, prompts and resources serves it beside other releases.`,
    ],
    declarations: [
      {
        name: "MCP_RELEASE",
        type: "McpRelease<McpReleaseTypes>",
        initializer: objectLiteral({
          era: JSON.stringify(era),
          version: JSON.stringify(model.protocolVersion),
          facts,
          serve,
        }),
      },
    ],
  });
}
