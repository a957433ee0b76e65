import { VariableDeclarationKind } from "../common/ts-morph.ts";
import { BindgenError } from "../common/failures.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import type { EmittedFile } from "./emitted.ts";
import { requestHeaderSpec } from "../model/http-spec.ts";
import { clientApiFacts, resultTypeFacts, traceContextKeys } from "../model/runtime-data.ts";
import { runtimeImport } from "./runtime-files.ts";
import { buildSourceFile, objectLiteral, type StatementSink } from "./source-file.ts";
import type { ClientApiFacts } from "../runtime/client/mcp-client.ts";

/**
 * `<version>/client.ts`: this release as `connect` (runtime/client/connect.ts) sees it. `clientRelease()` hands
 * the runtime the release's requester, its era's lifecycle (the discovery request and the modern error
 * signals, or `initialize` and `notifications/initialized`), its Streamable HTTP header functions where
 * it has them, and the caller's dispatcher; `Session` is the session `connect` returns for it.
 */
export function emitClient(model: ProtocolModel): EmittedFile {
  const path = `${model.version}/client.ts`;
  const where = model.schema.definitionsPointer;
  const method = (name: string): string => {
    if (!model.methods.some((m) => m.name === name))
      throw new BindgenError(model.file, where, `the method ${name}`, "connect reaches the release through it");
    return JSON.stringify(name);
  };
  const code = (name: string): string => {
    const found = model.errorCodes.find((e) => e.name === name)?.code;
    if (found === undefined)
      throw new BindgenError(model.file, where, `the error code ${name} (schema/facts.json)`, "connect reads it");
    return String(found);
  };
  const modern = model.era === "modern";
  const version = JSON.stringify(model.protocolVersion);
  const opening = modern ? method("server/discover") : method("initialize");
  const serverType = `ClientRequests[${opening}]["result"]`;
  const http = model.http;
  const era = modern
    ? objectLiteral({
        kind: '"stateless"',
        discover: opening,
        unsupportedVersion: code("UnsupportedProtocolVersion"),
        signals: JSON.stringify(model.modernSignalCodes),
      })
    : // The session era's handshake and HTTP session live in runtime/client/session-era.ts, so a program
      // offering stateless releases alone bundles none of it.
      `sessionEra(${objectLiteral({
        initialize: opening,
        initialized: method("notifications/initialized"),
        initializeParams: "(protocolVersion, clientInfo) => ({ protocolVersion, capabilities, clientInfo })",
        agreedVersion: `(result) => (result as ${serverType}).protocolVersion`,
      })})`;
  const requester = modern
    ? "(send, common) => createRequester(send, { ...common, clientCapabilities: capabilities, ...(dispatcher === undefined ? {} : { inputHandler: dispatcher }) })"
    : "(send, common) => createRequester(send, common.timeoutMs === undefined ? {} : { timeoutMs: common.timeoutMs })";
  const httpFunctions =
    http === null
      ? "undefined"
      : objectLiteral({
          listTools: method("tools/list"),
          headers:
            "(message, params) => requestHeaders(REQUEST_HEADERS, message as Parameters<typeof requestHeaders>[1], params)",
          params: "(tool) => listedToolParams(REQUEST_HEADERS, tool)",
        });
  const trace = traceContextKeys(model);
  const release = objectLiteral({
    version,
    era,
    requester,
    dispatcher: "dispatcher",
    methodNotFound: code("MethodNotFound"),
    http: httpFunctions,
    // The release's MetaKey table holds the keys under these names, and the requester bundles it already.
    ...(trace === null ? {} : { traceContext: "MetaKey" }),
  });
  const content = buildSourceFile((file) => {
    file.addImportDeclaration({ isTypeOnly: true, namedImports: ["ClientRequests"], moduleSpecifier: "./methods.js" });
    file.addImportDeclaration({
      isTypeOnly: true,
      namedImports: ["ClientCapabilities"],
      moduleSpecifier: "./types.js",
    });
    file.addImportDeclaration({
      namedImports: ["createRequester", { name: "Requester", isTypeOnly: true }],
      moduleSpecifier: "./requester.js",
    });
    if (trace !== null) file.addImportDeclaration({ namedImports: ["MetaKey"], moduleSpecifier: "./meta.js" });
    file.addImportDeclaration({
      isTypeOnly: true,
      namedImports: ["ClientDispatcher"],
      moduleSpecifier: "./dispatch.js",
    });
    if (http !== null) {
      file.addImportDeclaration({
        namedImports: ["listedToolParams", "requestHeaders", { name: "RequestHeaderSpec", isTypeOnly: true }],
        moduleSpecifier: runtimeImport("http-headers", 1),
      });
      file.addVariableStatement({
        declarationKind: VariableDeclarationKind.Const,
        docs: ["The request side of `HTTP` (http.ts), alone so that a client bundles none of the server's statuses."],
        declarations: [
          {
            name: "REQUEST_HEADERS",
            type: "RequestHeaderSpec",
            initializer: JSON.stringify(requestHeaderSpec(model)),
          },
        ],
      });
    }
    if (!modern)
      file.addImportDeclaration({ namedImports: ["sessionEra"], moduleSpecifier: runtimeImport("session-era", 1) });
    if (model.clientAuth !== null) {
      file.addImportDeclaration({
        isTypeOnly: true,
        namedImports: ["ClientAuthFacts"],
        moduleSpecifier: runtimeImport("client-auth", 1),
      });
      file.addVariableStatement({
        declarationKind: VariableDeclarationKind.Const,
        isExported: true,
        docs: [
          `What ${model.version}'s authorization page asks of a client where releases differ, for \`oauthClient({ facts: CLIENT_AUTH, … })\` (${model.clientAuth.source}).`,
        ],
        declarations: [{ name: "CLIENT_AUTH", type: "ClientAuthFacts", initializer: JSON.stringify(model.clientAuth) }],
      });
    }
    file.addImportDeclaration({
      isTypeOnly: true,
      namedImports: ["ClientSession"],
      moduleSpecifier: runtimeImport("connect", 1),
    });
    file.addExportDeclaration({ namedExports: ["connect"], moduleSpecifier: runtimeImport("connect", 1) });
    file.addExportDeclaration({ namedExports: ["httpTransport"], moduleSpecifier: runtimeImport("http-client", 1) });
    file.addExportDeclaration({ namedExports: ["stdioTransport"], moduleSpecifier: runtimeImport("stdio-client", 1) });
    if (trace !== null)
      file.addExportDeclaration({
        namedExports: ["traceContextFrom", { name: "TraceContext", isTypeOnly: true }],
        moduleSpecifier: runtimeImport("trace-context", 1),
      });
    file.addTypeAlias({
      name: "Session",
      isExported: true,
      docs: [`A ${model.version} session, as \`connect\` returns it when this release is agreed on.`],
      type: `ClientSession<${version}, Requester, ${serverType}>`,
    });
    file.addTypeAlias({
      name: "Release",
      isExported: true,
      docs: ["This release for `connect`."],
      type: `ClientRelease<${version}, Requester, ${serverType}, ClientRequests>`,
    });
    file.addInterface({
      name: "ClientReleaseOptions",
      isExported: true,
      properties: [
        {
          name: "capabilities",
          isReadonly: true,
          hasQuestionToken: true,
          type: "ClientCapabilities",
          docs: [
            `What the client declares${modern ? " in every request's `_meta`" : " in `initialize`"}. Defaults to none.`,
          ],
        },
        {
          name: "dispatcher",
          isReadonly: true,
          hasQuestionToken: true,
          type: "ClientDispatcher<undefined>",
          docs: [
            `Answers what the server asks of the client${modern ? " (the input requests of an `input_required` result)" : ""} and takes its notifications: \`createClientDispatcher(handlers)\`.`,
          ],
        },
      ],
    });
    const facts = clientApiFacts(model, resultTypeFacts(model));
    if (facts !== undefined) addConnectClient(file, facts, 1);
    file.addFunction({
      name: "clientRelease",
      isExported: true,
      docs: [`${model.version} for \`connect(transport, { releases: [clientRelease(), …] })\`.`],
      parameters: [{ name: "options", type: "ClientReleaseOptions", initializer: "{}" }],
      returnType: "Release",
      statements: [
        "const capabilities = options.capabilities ?? {};",
        "const dispatcher = options.dispatcher;",
        `return ${release};`,
      ],
    });
  });
  return { path, content };
}

/**
 * `connectClient`, the one-call client (runtime/client/mcp-client.ts) bound to `facts`, with its error class and types;
 * `depth` is the module's from the output root. A program that does not call it bundles none of it.
 */
export function addConnectClient(file: StatementSink, facts: ClientApiFacts, depth: 0 | 1): void {
  const module = runtimeImport("mcp-client", depth);
  file.addImportDeclaration({
    namedImports: [
      "connectClientWith",
      { name: "AnyTools", isTypeOnly: true },
      { name: "ClientApiFacts", isTypeOnly: true },
      { name: "ClientOptions", isTypeOnly: true },
      { name: "McpClient", isTypeOnly: true },
      { name: "ToolTable", isTypeOnly: true },
    ],
    moduleSpecifier: module,
  });
  file.addImportDeclaration({
    isTypeOnly: true,
    namedImports: ["ClientRelease"],
    moduleSpecifier: runtimeImport("connect", depth),
  });
  file.addImportDeclaration({
    isTypeOnly: true,
    namedImports: ["TransportFactory"],
    moduleSpecifier: runtimeImport("client-transport", depth),
  });
  file.addImportDeclaration({
    isTypeOnly: true,
    namedImports: ["HttpSessionFactory"],
    moduleSpecifier: runtimeImport("http-client", depth),
  });
  file.addExportDeclaration({ namedExports: ["ToolValidationError"], moduleSpecifier: module });
  file.addExportDeclaration({
    isTypeOnly: true,
    namedExports: [
      "AnyTools",
      "ClientCallOptions",
      "ClientOptions",
      "McpClient",
      "Paged",
      "ProgressParams",
      "ToolCallOptions",
      "ToolResultIn",
      "ToolTable",
      "ToolTypes",
    ],
    moduleSpecifier: module,
  });
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    docs: ["The method names, progress facts and `resultType` the one-call client uses."],
    declarations: [{ name: "CLIENT_API", type: "ClientApiFacts", initializer: JSON.stringify(facts) }],
  });
  file.addFunction({
    name: "connectClient",
    isExported: true,
    docs: [
      "Connects as `connect` does and returns the one-call client: `callTool` (arguments checked against the listed `inputSchema`, `structuredContent` against the `outputSchema`), the paged lists, `getPrompt`, `readResource`, `complete`, progress per call; each typed for every release offered.",
    ],
    // Named unlike the runtime's own, so that no line of the runtime reappears here (test/emit/output-layout.test.ts).
    typeParameters: [
      { name: "const Offered", constraint: "readonly ClientRelease[]" },
      { name: "Tools", constraint: "ToolTable", default: "AnyTools" },
    ],
    parameters: [
      { name: "transport", type: "TransportFactory<HttpSessionFactory>" },
      { name: "options", type: "ClientOptions<Offered, Tools>" },
    ],
    returnType: "Promise<McpClient<Offered[number], Tools>>",
    statements: ["return connectClientWith(CLIENT_API, transport, options);"],
  });
}
