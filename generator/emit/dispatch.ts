import { VariableDeclarationKind } from "../common/ts-morph.ts";
import { BindgenError } from "../common/failures.ts";
import type { MethodModel } from "../model/protocol-model.ts";
import type { VersionEmitter } from "./emitted.ts";
import { methodsIn } from "./methods.ts";
import { traceContextKeys } from "../model/runtime-data.ts";
import { runtimeImport } from "./runtime-files.ts";
import { buildSourceFile, objectLiteral } from "./source-file.ts";

/**
 * `<version>/dispatch.ts`: `createServerDispatcher` and `createClientDispatcher`, the shared
 * dispatcher core (runtime/core/dispatcher.ts) typed by this release's method tables and handed this
 * release's data: which methods each side answers, the error codes, the cancel and progress
 * notifications, and in modern releases the `_meta` rules and the default `resultType`.
 */
export const emitDispatch: VersionEmitter = (model) => {
  const path = `${model.version}/dispatch.ts`;
  const modern = model.era === "modern";
  const hasInputs = model.methods.some((m) => m.kind === "input");
  // Batch releases' `handle` also answers arrays, so their dispatchers have the wider type. The
  // model's batch rules exist exactly where its schema admits batches (envelope.batches).
  const { batch } = model.dispatch;
  const batches = batch !== null;
  const dispatcherType = batches ? "BatchDispatcher" : "Dispatcher";
  // The number, not `ErrorCode.${name}`: a property read in a top-level initialiser counts as a side
  // effect to bundlers, which then kept the dispatch specs, parse and the whole validator in every
  // program importing a release's index, builders alone included.
  const code = (name: string): string => {
    const found = model.errorCodes.find((e) => e.name === name);
    if (found === undefined)
      throw new BindgenError(
        model.file,
        model.schema.definitionsPointer,
        `the error code ${name} (schema/facts.json)`,
        "dispatchers answer with it",
      );
    return String(found.code);
  };
  const metaKey = (name: string): string => {
    const key = model.metaKeys.find((k) => k.name === name)?.key;
    if (key === undefined)
      throw new BindgenError(
        model.file,
        model.schema.definitionsPointer,
        `a reserved _meta key "${name}"`,
        "dispatchers read it",
      );
    return key;
  };
  const { cancel, progress, resultTypeDefault } = model.dispatch;
  const trace = traceContextKeys(model);
  const requestMeta = modern
    ? objectLiteral({
        protocolVersion: JSON.stringify(metaKey("protocolVersion")),
        clientCapabilities: JSON.stringify(metaKey("clientCapabilities")),
        required: JSON.stringify(model.metaKeys.filter((k) => k.requiredIn.includes("request")).map((k) => k.key)),
        unsupportedProtocolVersion: code("UnsupportedProtocolVersion"),
        missingRequiredClientCapability: code("MissingRequiredClientCapability"),
      })
    : "null";
  /** The release's data and what one side answers, as the spec the runtime's dispatcher takes. */
  const sideSpec = (side: "server" | "client"): Record<string, string> => ({
    "...RELEASE": "...RELEASE",
    requests: side === "server" ? "CLIENT_REQUEST_METHODS" : "SERVER_REQUEST_METHODS",
    notifications: side === "server" ? "CLIENT_NOTIFICATION_METHODS" : "SERVER_NOTIFICATION_METHODS",
    requestMeta: side === "server" ? requestMeta : "null",
    resultType:
      side === "server" && resultTypeDefault !== null
        ? JSON.stringify({ key: resultTypeDefault.property, complete: resultTypeDefault.value })
        : "null",
  });
  const inputParams = Object.fromEntries(
    model.methods
      .filter(
        (m): m is MethodModel & { params: NonNullable<MethodModel["params"]> } =>
          m.kind === "input" && m.params !== null && m.params.path.length === 0,
      )
      .map((m) => [JSON.stringify(m.name), JSON.stringify(m.params.definition)]),
  );
  const defaulted = modern && resultTypeDefault !== null ? resultTypeDefault : null;
  const progressUpdate =
    progress === null
      ? "never"
      : `ProgressParams<Table, ${JSON.stringify(progress.method)}, ${JSON.stringify(progress.tokenParam)}>`;
  const handlerTypes = [
    "Answer",
    "ReadonlyAnswer",
    ...(progress === null ? [] : ["ProgressParams"]),
    ...(modern ? ["CapabilityCheck"] : []),
    ...(defaulted === null ? [] : ["DefaultedResult"]),
    "HandlerContext",
    "NotificationHandlers",
    ...(hasInputs ? ["InputContext"] : []),
  ];
  const answerArguments =
    defaulted === null ? "" : `, ${JSON.stringify(defaulted.property)}, ${JSON.stringify(defaulted.value)}`;
  const contextParameters = [{ name: "M", constraint: "string" }, { name: "P" }];
  const handlerParameters = (methods: string) => [
    { name: "M", constraint: `(${methods}) & string` },
    { name: "C", default: "undefined" },
  ];
  // The table is inferred as written (`Handlers`, through CheckedResults) so that its results' `_meta` keys and its
  // method names can be checked; parameters stay typed by the release's table. Unconstrained and the same in every
  // release, so that a union of release modules still has one callable signature.
  const dispatcherTypeParameters = [
    { name: "C", default: "undefined" },
    { name: "Handlers", default: "unknown" },
  ];
  const received = {
    ServerDispatchHandlers: "keyof ClientRequests | keyof ClientNotifications",
    ClientDispatchHandlers: `keyof ServerRequests | keyof ServerNotifications${hasInputs ? " | keyof InputRequestTable" : ""}`,
  };
  const dispatcherParameters = (handlers: keyof typeof received) => [
    { name: "handlers", type: `${handlers}<C> & CheckedResults<Handlers, ${received[handlers]}>` },
    { name: "options", type: "DispatcherOptions<C>", initializer: "{}" },
  ];

  const content = buildSourceFile((file) => {
    if (modern) file.addImportDeclaration({ isTypeOnly: true, namespaceImport: "T", moduleSpecifier: "./types.js" });
    file.addImportDeclaration({
      isTypeOnly: true,
      namedImports: [
        "ClientNotifications",
        "ClientRequests",
        "ServerNotifications",
        "ServerRequests",
        ...(hasInputs ? ["InputRequestTable"] : []),
        "ParamsOf",
        "ResultOf",
        ...(hasInputs ? ["InputParamsOf", "InputResultOf"] : []),
      ],
      moduleSpecifier: "./methods.js",
    });
    file.addImportDeclaration({
      namedImports: [
        "CLIENT_NOTIFICATION_METHODS",
        "CLIENT_REQUEST_METHODS",
        "SERVER_NOTIFICATION_METHODS",
        "SERVER_REQUEST_METHODS",
        ...(hasInputs ? ["INPUT_REQUEST_METHODS"] : []),
      ],
      moduleSpecifier: "./methods.js",
    });
    file.addImportDeclaration({
      namedImports: [
        "validateMessage",
        ...(hasInputs ? ["validate", { name: "DefinitionName", isTypeOnly: true }] : []),
      ],
      moduleSpecifier: "./validate.js",
    });
    file.addImportDeclaration({
      namedImports: [
        "createDispatcher",
        { name: dispatcherType, isTypeOnly: true },
        { name: "DispatcherOptions", isTypeOnly: true },
        { name: "DispatchRelease", isTypeOnly: true },
      ],
      moduleSpecifier: runtimeImport("dispatcher", 1),
    });
    if (hasInputs)
      file.addImportDeclaration({
        namedImports: ["createInputDispatcher", { name: "InputDispatcher", isTypeOnly: true }],
        moduleSpecifier: runtimeImport("input-requests", 1),
      });
    file.addImportDeclaration({
      isTypeOnly: true,
      namedImports: handlerTypes,
      moduleSpecifier: runtimeImport("handlers", 1),
    });
    file.addImportDeclaration({
      namedImports: [
        { name: "RpcError", alias: "AnyRpcError" },
        { name: "ReleaseRpcError", isTypeOnly: true },
      ],
      moduleSpecifier: runtimeImport("rpc-error", 1),
    });
    file.addImportDeclaration({ isTypeOnly: true, namedImports: ["ErrorCode"], moduleSpecifier: "./errors.js" });
    file.addImportDeclaration({ isTypeOnly: true, namedImports: ["CheckedResults"], moduleSpecifier: "./meta.js" });
    file.addExportDeclaration({
      isTypeOnly: true,
      namedExports: [...(batches ? ["BatchDispatcher"] : []), "Dispatcher", "DispatcherOptions", "DispatchResponse"],
      moduleSpecifier: runtimeImport("dispatcher", 1),
    });
    if (hasInputs)
      file.addExportDeclaration({
        isTypeOnly: true,
        namedExports: ["InputAnswers"],
        moduleSpecifier: runtimeImport("input-requests", 1),
      });
    file.addExportDeclaration({
      isTypeOnly: true,
      namedExports: ["Notify", "NotificationContext", ...(hasInputs ? ["InputContext"] : [])],
      moduleSpecifier: runtimeImport("handlers", 1),
    });

    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      docs: [
        "A handler answers with an error by `throw new RpcError(ErrorCode.X, message, data?)`; an application's own code goes through `RpcError.custom(code, message, data?)`.",
      ],
      declarations: [{ name: "RpcError", type: "ReleaseRpcError<ErrorCode>", initializer: "AnyRpcError" }],
    });
    file.addTypeAlias({ name: "RpcError", isExported: true, type: "AnyRpcError" });
    file.addTypeAlias({
      name: "ProgressUpdate",
      isExported: true,
      docs: [
        "What `ctx.progress` takes: the progress notification's params without the token, which the dispatcher adds.",
      ],
      typeParameters: ["Table"],
      type: progressUpdate,
    });
    file.addTypeAlias({
      name: "RequestContext",
      isExported: true,
      docs: [
        `What a ${model.version} request handler gets beside the params. \`Sends\` is the table of notifications this side may send.`,
      ],
      typeParameters: [...contextParameters, "Sends", "C"],
      type: "HandlerContext<M, P, Sends, ProgressUpdate<Sends>, C>",
    });
    // Interfaces, like the tables below: tsc instantiates an interface reference as one type, an alias's intersection
    // as each of its parts, and a dispatcher's table is instantiated again for every contextual type it gives.
    file.addInterface({
      name: "ServerRequestContext",
      isExported: true,
      ...(modern
        ? {
            docs: [
              "A server's request context: also `requireClientCapability`, which answers -32021 naming what the request's `clientCapabilities` lack.",
            ],
          }
        : {}),
      typeParameters: [...contextParameters, "C"],
      extends: [
        "RequestContext<M, P, ServerNotifications, C>",
        ...(modern ? ["CapabilityCheck<T.ClientCapabilities>"] : []),
      ],
    });
    file.addTypeAlias({
      name: "HandlerResult",
      isExported: true,
      ...(defaulted === null
        ? {}
        : {
            docs: [
              `A handler's result: \`${defaulted.property}\` may be left out where it may be ${JSON.stringify(defaulted.value)}, which the dispatcher writes.`,
            ],
          }),
      typeParameters: ["R"],
      type: defaulted === null ? "R" : `DefaultedResult<R${answerArguments}>`,
    });
    // Per side, a request handler's context and answer by method, so a table member reads `(params: ParamsOf<"m">,
    // ctx: ServerContextOf<"m", C>) => ServerAnswerOf<"m">`: an interface and an alias applied to a method name cost tsc
    // next to nothing, and the members stay short text for prettier.
    const sides = [
      {
        side: "Server",
        table: "ClientRequests",
        context: "ServerRequestContext<M, ParamsOf<M>, C>",
        answer: answerArguments,
      },
      {
        side: "Client",
        table: "ServerRequests",
        context: "RequestContext<M, ParamsOf<M>, ClientNotifications, C>",
        answer: "",
      },
    ] as const;
    for (const { side, table, context, answer } of sides) {
      file.addInterface({
        name: `${side}ContextOf`,
        isExported: true,
        docs: [`What a ${side.toLowerCase()}'s handler of the request \`M\` gets beside the params.`],
        typeParameters: [{ name: "M", constraint: `keyof ${table}` }, "C"],
        extends: [context],
      });
      file.addTypeAlias({
        name: `${side}AnswerOf`,
        isExported: true,
        docs: [
          `What a ${side.toLowerCase()}'s handler of the request \`M\` answers, or resolves to: the method's result, readonly data fitting${answer === "" ? "" : `, \`${defaulted?.property}\` optional`}.`,
        ],
        typeParameters: [{ name: "M", constraint: `keyof ${table}` }],
        type: `ReadonlyAnswer<ResultOf<M>${answer}>`,
      });
    }
    file.addInterface({
      name: "ServerDispatchHandlers",
      isExported: true,
      docs: [
        `What a ${model.version} server receives: a partial table of client requests and notifications, \`(params, ctx) => result\`.`,
      ],
      typeParameters: [{ name: "C", default: "undefined" }],
      extends: ["NotificationHandlers<ClientNotifications, C>"],
      properties: methodsIn(model, "ClientRequests").map((m) => handlerMember(m, "Server")),
    });
    file.addInterface({
      name: "ClientDispatchHandlers",
      isExported: true,
      docs: [
        `What a ${model.version} client receives: server requests${hasInputs ? ", the input requests of an `input_required` result," : ""} and server notifications, each optional.`,
      ],
      typeParameters: [{ name: "C", default: "undefined" }],
      extends: ["NotificationHandlers<ServerNotifications, C>"],
      properties: [
        ...methodsIn(model, "ServerRequests").map((m) => handlerMember(m, "Client")),
        ...methodsIn(model, "InputRequestTable").map((m) => handlerMember(m, "Input")),
      ],
    });
    file.addTypeAlias({
      name: "ServerHandler",
      isExported: true,
      docs: [
        'One server handler written on its own, typed as the table types it: `const callTool: ServerHandler<"tools/call", Ctx> = async (params, ctx) => …`.',
      ],
      typeParameters: handlerParameters("keyof ClientRequests | keyof ClientNotifications"),
      type: "NonNullable<ServerDispatchHandlers<C>[M]>",
    });
    file.addTypeAlias({
      name: "ClientHandler",
      isExported: true,
      docs: [
        `One client handler written on its own, typed as the table types it: \`ClientHandler<"${hasInputs ? "elicitation/create" : "roots/list"}", Ctx>\`.`,
      ],
      typeParameters: handlerParameters(
        `keyof ServerRequests | keyof ServerNotifications${hasInputs ? " | keyof InputRequestTable" : ""}`,
      ),
      type: "NonNullable<ClientDispatchHandlers<C>[M]>",
    });
    file.addTypeAlias({
      name: "ClientDispatcher",
      isExported: true,
      ...(hasInputs
        ? {
            docs: [
              "`answerInputRequests` answers the `inputRequests` of an `input_required` result with the input handlers.",
            ],
          }
        : {}),
      typeParameters: ["C"],
      type: hasInputs ? "InputDispatcher<C, T.InputRequests, T.InputResponses>" : `${dispatcherType}<C>`,
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      declarations: [
        {
          name: "RELEASE",
          type: `DispatchRelease<${batches}>`,
          initializer: objectLiteral({
            version: JSON.stringify(model.protocolVersion),
            batches: batch === null ? "false" : JSON.stringify({ notBatchable: batch.notBatchable }),
            codes: objectLiteral({
              invalidRequest: code("InvalidRequest"),
              methodNotFound: code("MethodNotFound"),
              invalidParams: code("InvalidParams"),
              internalError: code("InternalError"),
            }),
            cancel: JSON.stringify(cancel),
            progress: JSON.stringify(progress),
            unreadableId: JSON.stringify(model.envelope.errorIdOptional ? "omit" : "null"),
            validate: "(message) => validateMessage(message)",
            ...(trace === null ? {} : { traceContext: JSON.stringify(trace) }),
          }),
        },
      ],
    });
    if (hasInputs)
      file.addVariableStatement({
        declarationKind: VariableDeclarationKind.Const,
        declarations: [
          {
            name: "INPUT_PARAMS",
            type: "{ readonly [method: string]: DefinitionName }",
            initializer: objectLiteral(inputParams),
          },
        ],
      });
    file.addFunction({
      name: "createServerDispatcher",
      isExported: true,
      docs: [
        `Routes what a ${model.version} server receives to \`handlers\`; \`handle\` answers every request exactly once${batches ? " (a batch with an array)" : ""} and never throws.`,
      ],
      typeParameters: dispatcherTypeParameters,
      parameters: dispatcherParameters("ServerDispatchHandlers"),
      returnType: `${dispatcherType}<C>`,
      statements: [`return createDispatcher(${objectLiteral(sideSpec("server"))}, handlers, options);`],
    });
    file.addFunction({
      name: "createClientDispatcher",
      isExported: true,
      docs: [
        `Routes what a ${model.version} client receives to \`handlers\`${hasInputs ? "; `answerInputRequests` answers an `input_required` result's input requests, and as a requester's `inputHandler` it completes such results (`settleInput`)" : ""}.`,
      ],
      typeParameters: dispatcherTypeParameters,
      parameters: dispatcherParameters("ClientDispatchHandlers"),
      returnType: "ClientDispatcher<C>",
      statements: hasInputs
        ? [
            `const spec = ${objectLiteral({ ...sideSpec("client"), inputs: "INPUT_REQUEST_METHODS", inputParams: "INPUT_PARAMS", validateDefinition: "validate" })};`,
            "return createInputDispatcher<C, T.InputRequests, T.InputResponses>(spec, handlers, options);",
          ]
        : [`return createDispatcher(${objectLiteral(sideSpec("client"))}, handlers, options);`],
    });
  });
  return { path, content };
};

/**
 * One request member of a dispatcher table, the handler type written out with the method's name: `C` is the only type
 * variable left in it, so tsc instantiates little when it types an inline table by context (the generic mapped table
 * it replaces was most of the bench consumer's cost). Notifications stay a mapped table (`NotificationHandlers`): they
 * are most of a table's methods, and written out they were text for prettier to format and no faster to check.
 */
function handlerMember(
  m: MethodModel,
  side: "Server" | "Client" | "Input",
): { name: string; isReadonly: true; hasQuestionToken: true; type: string } {
  const key = JSON.stringify(m.name);
  const type =
    side === "Input"
      ? `(params: InputParamsOf<${key}>, ctx: InputContext<${key}, InputParamsOf<${key}>, C>) => Answer<ReadonlyAnswer<InputResultOf<${key}>>>`
      : `(params: ParamsOf<${key}>, ctx: ${side}ContextOf<${key}, C>) => Answer<${side}AnswerOf<${key}>>`;
  return { name: key, isReadonly: true, hasQuestionToken: true, type };
}
