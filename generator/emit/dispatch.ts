import { BindgenError } from "../common/failures.ts";
import type { MethodModel } from "../model/protocol-model.ts";
import type { VersionEmitter } from "./emitted.ts";
import { runtimeImport } from "./runtime-files.ts";
import { buildSourceFile } from "./source-file.ts";

/**
 * `<version>/dispatch.ts`: `createServerDispatcher` and `createClientDispatcher`, the shared
 * dispatcher core (runtime/dispatcher.ts) typed by this release's method tables and handed this
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
  const requestMeta = modern
    ? `{ protocolVersion: ${JSON.stringify(metaKey("protocolVersion"))}, clientCapabilities: ${JSON.stringify(metaKey("clientCapabilities"))}, required: ${JSON.stringify(
        model.metaKeys.filter((k) => k.requiredIn.includes("request")).map((k) => k.key),
      )}, unsupportedProtocolVersion: ${code("UnsupportedProtocolVersion")}, missingRequiredClientCapability: ${code("MissingRequiredClientCapability")} }`
    : "null";
  const side = (side: "server" | "client"): string => {
    const [requests, notifications] =
      side === "server"
        ? ["CLIENT_REQUEST_METHODS", "CLIENT_NOTIFICATION_METHODS"]
        : ["SERVER_REQUEST_METHODS", "SERVER_NOTIFICATION_METHODS"];
    const resultType =
      side === "server" && resultTypeDefault !== null
        ? JSON.stringify({ key: resultTypeDefault.property, complete: resultTypeDefault.value })
        : "null";
    return `requests: ${requests}, notifications: ${notifications}, requestMeta: ${side === "server" ? requestMeta : "null"}, resultType: ${resultType}`;
  };
  const inputParams = model.methods
    .filter(
      (m): m is MethodModel & { params: NonNullable<MethodModel["params"]> } =>
        m.kind === "input" && m.params !== null && m.params.path.length === 0,
    )
    .map((m) => `${JSON.stringify(m.name)}: ${JSON.stringify(m.params.definition)}`);
  const handlerResult =
    modern && resultTypeDefault !== null
      ? [
          `/** A handler's result: \`${resultTypeDefault.property}\` may be left out where it may be ${JSON.stringify(resultTypeDefault.value)}, which the dispatcher writes. */`,
          `export type HandlerResult<R> = DefaultedResult<R, ${JSON.stringify(resultTypeDefault.property)}, ${JSON.stringify(resultTypeDefault.value)}>;`,
        ]
      : [`export type HandlerResult<R> = R;`];
  const defaulted =
    modern && resultTypeDefault !== null
      ? `, ${JSON.stringify(resultTypeDefault.property)}, ${JSON.stringify(resultTypeDefault.value)}`
      : "";
  const serverExtra = modern ? ", CapabilityCheck<T.ClientCapabilities>" : "";
  const progressUpdate =
    progress === null
      ? "never"
      : `ProgressParams<Table, ${JSON.stringify(progress.method)}, ${JSON.stringify(progress.tokenParam)}>`;
  const handlerTypes = [
    "HandlerTable",
    progress === null ? "" : "ProgressParams",
    hasInputs ? "InputHandlerTable" : "",
    modern ? "CapabilityCheck" : "",
    defaulted === "" ? "" : "DefaultedResult",
    "HandlerContext",
  ]
    .filter((t) => t !== "")
    .join(", ");

  const content = buildSourceFile(path, (file) => {
    file.addStatements(
      [
        modern ? `import type * as T from "./types.js";` : "",
        `import type { ClientNotifications, ClientRequests, ServerNotifications, ServerRequests${hasInputs ? ", InputRequestTable" : ""} } from "./methods.js";`,
        `import { CLIENT_NOTIFICATION_METHODS, CLIENT_REQUEST_METHODS, SERVER_NOTIFICATION_METHODS, SERVER_REQUEST_METHODS${hasInputs ? ", INPUT_REQUEST_METHODS" : ""} } from "./methods.js";`,
        `import { validateMessage${hasInputs ? ", validate, type DefinitionName" : ""} } from "./validate.js";`,
        `import { createDispatcher, type ${dispatcherType}, type DispatcherOptions, type DispatchRelease } from "${runtimeImport("dispatcher", 1)}";`,
        hasInputs
          ? `import { createInputDispatcher, type InputDispatcher } from "${runtimeImport("input-requests", 1)}";`
          : "",
        `import type { ${handlerTypes} } from "${runtimeImport("handlers", 1)}";`,
        `import { RpcError as AnyRpcError, type ReleaseRpcError } from "${runtimeImport("rpc-error", 1)}";`,
        `import type { ErrorCode } from "./errors.js";`,
        `export type { ${batches ? "BatchDispatcher, " : ""}Dispatcher, DispatcherOptions, DispatchResponse } from "${runtimeImport("dispatcher", 1)}";`,
        hasInputs ? `export type { InputAnswers } from "${runtimeImport("input-requests", 1)}";` : "",
        `export type { Notify, NotificationContext${hasInputs ? ", InputContext" : ""} } from "${runtimeImport("handlers", 1)}";`,
        ``,
        `/** A handler answers with an error by \`throw new RpcError(ErrorCode.X, message, data?)\`; an application's own code goes through \`RpcError.custom(code, message, data?)\`. */`,
        `export const RpcError: ReleaseRpcError<ErrorCode> = AnyRpcError;`,
        `export type RpcError = AnyRpcError;`,
        `/** What \`ctx.progress\` takes: the progress notification's params without the token, which the dispatcher adds. */`,
        `export type ProgressUpdate<Table> = ${progressUpdate};`,
        `/** What a ${model.version} request handler gets beside the params. \`Sends\` is the table of notifications this side may send. */`,
        `export type RequestContext<M extends string, P, Sends, C> = HandlerContext<M, P, Sends, ProgressUpdate<Sends>, C>;`,
        modern
          ? `/** A server's request context: also \`requireClientCapability\`, which answers -32021 naming what the request's \`clientCapabilities\` lack. */`
          : "",
        `export type ServerRequestContext<M extends string, P, C> = RequestContext<M, P, ServerNotifications, C>${modern ? ` & CapabilityCheck<T.ClientCapabilities>` : ""};`,
        ...handlerResult,
        `/** What a ${model.version} server receives: a partial table of client requests and notifications, \`(params, ctx) => result\`. */`,
        `export type ServerDispatchHandlers<C = undefined> = HandlerTable<ClientRequests, ClientNotifications, ServerNotifications, ProgressUpdate<ServerNotifications>, C${serverExtra}${defaulted}>;`,
        `/** What a ${model.version} client receives: server requests${hasInputs ? ", the input requests of an `input_required` result," : ""} and server notifications, each optional. */`,
        `export type ClientDispatchHandlers<C = undefined> = HandlerTable<ServerRequests, ServerNotifications, ClientNotifications, ProgressUpdate<ClientNotifications>, C>${hasInputs ? " & InputHandlerTable<InputRequestTable, C>" : ""};`,
        `/** One server handler written on its own, typed as the table types it: \`const callTool: ServerHandler<"tools/call", Ctx> = async (params, ctx) => …\`. */`,
        `export type ServerHandler<M extends (keyof ClientRequests | keyof ClientNotifications) & string, C = undefined> = NonNullable<ServerDispatchHandlers<C>[M]>;`,
        `/** One client handler written on its own, typed as the table types it: \`ClientHandler<"${hasInputs ? "elicitation/create" : "roots/list"}", Ctx>\`. */`,
        `export type ClientHandler<M extends (keyof ServerRequests | keyof ServerNotifications${hasInputs ? " | keyof InputRequestTable" : ""}) & string, C = undefined> = NonNullable<ClientDispatchHandlers<C>[M]>;`,
        hasInputs
          ? `/** \`answerInputRequests\` answers the \`inputRequests\` of an \`input_required\` result with the input handlers. */\nexport type ClientDispatcher<C> = InputDispatcher<C, T.InputRequests, T.InputResponses>;`
          : `export type ClientDispatcher<C> = ${dispatcherType}<C>;`,
        ``,
        `const RELEASE: DispatchRelease<${batches}> = {`,
        `  version: ${JSON.stringify(model.protocolVersion)},`,
        `  batches: ${batch === null ? "false" : JSON.stringify({ notBatchable: batch.notBatchable })},`,
        `  codes: { invalidRequest: ${code("InvalidRequest")}, methodNotFound: ${code("MethodNotFound")}, invalidParams: ${code("InvalidParams")}, internalError: ${code("InternalError")} },`,
        `  cancel: ${cancel === null ? "null" : JSON.stringify(cancel)},`,
        `  progress: ${progress === null ? "null" : JSON.stringify(progress)},`,
        `  unreadableId: ${JSON.stringify(model.envelope.errorIdOptional ? "omit" : "null")},`,
        `  validate: (message) => validateMessage(message),`,
        `};`,
        hasInputs
          ? `const INPUT_PARAMS: { readonly [method: string]: DefinitionName } = { ${inputParams.join(", ")} };`
          : "",
        ``,
        `/** Routes what a ${model.version} server receives to \`handlers\`; \`handle\` answers every request exactly once${batches ? " (a batch with an array)" : ""} and never throws. */`,
        `export function createServerDispatcher<C = undefined>(handlers: ServerDispatchHandlers<C>, options: DispatcherOptions<C> = {}): ${dispatcherType}<C> {`,
        `  return createDispatcher({ ...RELEASE, ${side("server")} }, handlers, options);`,
        `}`,
        ``,
        `/** Routes what a ${model.version} client receives to \`handlers\`${hasInputs ? "; `answerInputRequests` answers an `input_required` result's input requests" : ""}. */`,
        `export function createClientDispatcher<C = undefined>(handlers: ClientDispatchHandlers<C>, options: DispatcherOptions<C> = {}): ClientDispatcher<C> {`,
        hasInputs
          ? [
              `  const spec = { ...RELEASE, ${side("client")}, inputs: INPUT_REQUEST_METHODS, inputParams: INPUT_PARAMS, validateDefinition: validate };`,
              `  return createInputDispatcher<C, T.InputRequests, T.InputResponses>(spec, handlers, options);`,
            ].join("\n")
          : `  return createDispatcher({ ...RELEASE, ${side("client")} }, handlers, options);`,
        `}`,
      ]
        .filter((s) => s !== "")
        .join("\n"),
    );
  });
  return { path, content };
};
