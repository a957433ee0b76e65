import { BindgenError } from "../errors.ts";
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
  // The number, not `ErrorCode.${name}`: a property read in a top-level initialiser counts as a side
  // effect to bundlers, which then kept the dispatch specs, parse and the whole validator in every
  // program importing a release's index, builders alone included.
  const code = (name: string): string => {
    const found = model.errorCodes.find((e) => e.name === name);
    if (found === undefined) throw new BindgenError(model.file, model.schema.definitionsPointer, `the error code ${name} (schema/facts.json)`, "dispatchers answer with it");
    return String(found.code);
  };
  const metaKey = (name: string): string => {
    const key = model.metaKeys.find((k) => k.name === name)?.key;
    if (key === undefined) throw new BindgenError(model.file, model.schema.definitionsPointer, `a reserved _meta key "${name}"`, "dispatchers read it");
    return key;
  };
  const { cancel, progress, resultTypeDefault } = model.dispatch;
  const requestMeta = modern
    ? `{ protocolVersion: ${JSON.stringify(metaKey("protocolVersion"))}, clientCapabilities: ${JSON.stringify(metaKey("clientCapabilities"))}, required: ${JSON.stringify(
        model.metaKeys.filter((k) => k.requiredIn.includes("request")).map((k) => k.key),
      )}, unsupportedProtocolVersion: ${code("UnsupportedProtocolVersion")}, missingRequiredClientCapability: ${code("MissingRequiredClientCapability")} }`
    : "null";
  const spec = (side: "server" | "client"): string => {
    const [requests, notifications] = side === "server" ? ["CLIENT_REQUEST_METHODS", "CLIENT_NOTIFICATION_METHODS"] : ["SERVER_REQUEST_METHODS", "SERVER_NOTIFICATION_METHODS"];
    return `{
      version: ${JSON.stringify(model.version)},
      requests: ${requests},
      notifications: ${notifications},
      codes: CODES,
      cancel: ${cancel === null ? "null" : JSON.stringify(cancel)},
      progress: ${progress === null ? "null" : JSON.stringify(progress)},
      requestMeta: ${side === "server" ? requestMeta : "null"},
      resultType: ${side === "server" && resultTypeDefault !== null ? JSON.stringify({ key: resultTypeDefault.property, complete: resultTypeDefault.value }) : "null"},
      unreadableId: ${JSON.stringify(model.envelope.errorIdOptional ? "omit" : "null")},
      parse: (text) => parse(text),
      validate: (message) => validateMessage(message),
    }`;
  };
  const inputParams = model.methods
    .filter((m): m is MethodModel & { params: NonNullable<MethodModel["params"]> } => m.kind === "input" && m.params !== null && m.params.path.length === 0)
    .map((m) => `${JSON.stringify(m.name)}: ${JSON.stringify(m.params.definition)}`);
  const progressUpdate = (table: string) =>
    progress === null
      ? "never"
      : `${JSON.stringify(progress.method)} extends keyof ${table} ? Omit<NonNullable<ParamsIn<${table}, ${JSON.stringify(progress.method)}>>, ${JSON.stringify(progress.tokenParam)} | "_meta"> : never`;
  const resultTypeProperty = resultTypeDefault?.property;

  const content = buildSourceFile(path, (file) => {
    file.addStatements(
      [
        `import type * as T from "./types.js";`,
        `import type { ClientNotifications, ClientRequests, ServerNotifications, ServerRequests${hasInputs ? ", InputRequestTable" : ""} } from "./methods.js";`,
        `import { CLIENT_NOTIFICATION_METHODS, CLIENT_REQUEST_METHODS, SERVER_NOTIFICATION_METHODS, SERVER_REQUEST_METHODS${hasInputs ? ", INPUT_REQUEST_METHODS" : ""} } from "./methods.js";`,
        `import { parse } from "./envelope.js";`,
        `import { validateMessage${hasInputs ? ", validate, type DefinitionName" : ""} } from "./validate.js";`,
        `import { createDispatcher, type AnyHandler, type Dispatcher, type DispatcherOptions, type DispatchSpec } from "${runtimeImport("dispatcher", 1)}";`,
        hasInputs ? `import { answerInputRequests, type InputAnswers, type InputSpec } from "${runtimeImport("input-requests", 1)}";` : "",
        `export { RpcError } from "${runtimeImport("rpc-error", 1)}";`,
        `export type { Dispatcher, DispatcherOptions, DispatchResponse } from "${runtimeImport("dispatcher", 1)}";`,
        hasInputs ? `export type { InputAnswers } from "${runtimeImport("input-requests", 1)}";` : "",
        ``,
        `type ParamsIn<Table, M extends keyof Table> = Table[M] extends { params: infer P } ? P : undefined;`,
        `type ResultIn<Table, M extends keyof Table> = Table[M] extends { result: infer R } ? R : never;`,
        `/** The \`_meta\` a params type declares. */`,
        `type MetaIn<P> = NonNullable<P> extends { _meta?: infer X } ? X : undefined;`,
        modern
          ? [
              `/** A request's \`_meta\` as a handler sees it: always there where the params type requires it, since the dispatcher answers -32602 before any handler runs when it is missing. */`,
              `type RequestMetaIn<P> = NonNullable<P> extends { _meta: infer X } ? X : MetaIn<P> | undefined;`,
            ].join("\n")
          : "",
        `/** Sends one of the notifications in \`Table\`, typed by it. */`,
        `export type Notify<Table> = <N extends keyof Table & string>(method: N, ...params: undefined extends ParamsIn<Table, N> ? [params?: ParamsIn<Table, N>] : [params: ParamsIn<Table, N>]) => void;`,
        `/** What \`ctx.progress\` takes: the progress notification's params without the token, which the dispatcher adds. */`,
        `export type ProgressUpdate<Table> = ${progressUpdate("Table")};`,
        ``,
        `/** What a request handler gets beside the params. \`Sends\` is the table of notifications this side may send. */`,
        `export interface RequestContext<M extends string, P, Sends, C> {`,
        `  readonly id: T.RequestId;`,
        `  readonly method: M;`,
        `  /** The request's \`params._meta\`. */`,
        `  readonly _meta: ${modern ? "RequestMetaIn<P>" : "MetaIn<P> | undefined"};`,
        `  /** Aborted when the peer cancels the request (or the signal given to \`handle\` aborts): stop work, the answer is dropped. */`,
        `  readonly signal: AbortSignal;`,
        `  /** The value given to \`handle\`. */`,
        `  readonly context: C;`,
        `  /** Sent through \`options.send\` with the same context; dropped once the request is answered. */`,
        `  readonly notify: Notify<Sends>;`,
        `  /** Present when the request carried a progress token. */`,
        `  readonly progress: ((update: ProgressUpdate<Sends>) => void) | undefined;`,
        `}`,
        modern
          ? [
              `/** A server's request context: also \`requireClientCapability\`, which answers -32021 naming what the request's \`clientCapabilities\` lack. */`,
              `export interface ServerRequestContext<M extends string, P, C> extends RequestContext<M, P, ServerNotifications, C> {`,
              `  requireClientCapability(required: (keyof T.ClientCapabilities & string) | T.ClientCapabilities): void;`,
              `}`,
            ].join("\n")
          : `export type ServerRequestContext<M extends string, P, C> = RequestContext<M, P, ServerNotifications, C>;`,
        `export interface NotificationContext<M extends string, P, C> {`,
        `  readonly method: M;`,
        `  readonly _meta: MetaIn<P> | undefined;`,
        `  readonly context: C;`,
        `}`,
        modern && resultTypeProperty !== undefined
          ? [
              `/** A handler's result: \`${resultTypeProperty}\` may be left out where it may be ${JSON.stringify(resultTypeDefault!.value)}, which the dispatcher writes. */`,
              `export type HandlerResult<R> = R extends { ${resultTypeProperty}: infer X } ? (${JSON.stringify(resultTypeDefault!.value)} extends X ? Omit<R, "${resultTypeProperty}"> & { ${resultTypeProperty}?: X } : R) : R;`,
            ].join("\n")
          : `export type HandlerResult<R> = R;`,
        `type Answer<R> = HandlerResult<R> | Promise<HandlerResult<R>>;`,
        ``,
        `/** What a server receives: a partial table of client requests and notifications, \`(params, ctx) => result\`. */`,
        `export type ServerDispatchHandlers<C = undefined> = {`,
        `  readonly [M in keyof ClientRequests]?: (params: ParamsIn<ClientRequests, M>, ctx: ServerRequestContext<M, ParamsIn<ClientRequests, M>, C>) => Answer<ResultIn<ClientRequests, M>>;`,
        `} & {`,
        `  readonly [M in keyof ClientNotifications]?: (params: ParamsIn<ClientNotifications, M>, ctx: NotificationContext<M, ParamsIn<ClientNotifications, M>, C>) => void | Promise<void>;`,
        `};`,
        hasInputs
          ? [
              `export interface InputContext<M extends string, P, C> {`,
              `  /** The key the server gave this input request. */`,
              `  readonly key: string;`,
              `  readonly method: M;`,
              `  readonly _meta: MetaIn<P> | undefined;`,
              `  readonly signal: AbortSignal;`,
              `  readonly context: C;`,
              `}`,
            ].join("\n")
          : "",
        `/** What a client receives: server requests${hasInputs ? ", the input requests of an `input_required` result," : ""} and server notifications, each optional. */`,
        `export type ClientDispatchHandlers<C = undefined> = {`,
        `  readonly [M in keyof ServerRequests]?: (params: ParamsIn<ServerRequests, M>, ctx: RequestContext<M, ParamsIn<ServerRequests, M>, ClientNotifications, C>) => Answer<ResultIn<ServerRequests, M>>;`,
        `} & {`,
        `  readonly [M in keyof ServerNotifications]?: (params: ParamsIn<ServerNotifications, M>, ctx: NotificationContext<M, ParamsIn<ServerNotifications, M>, C>) => void | Promise<void>;`,
        hasInputs
          ? `} & {\n  readonly [M in keyof InputRequestTable]?: (params: ParamsIn<InputRequestTable, M>, ctx: InputContext<M, ParamsIn<InputRequestTable, M>, C>) => ResultIn<InputRequestTable, M> | Promise<ResultIn<InputRequestTable, M>>;`
          : "",
        `};`,
        hasInputs
          ? [
              `export interface ClientDispatcher<C> extends Dispatcher<C> {`,
              `  /** Answers the \`inputRequests\` of an \`input_required\` result with the input handlers: send \`inputResponses\` with the retried request. Never rejects. */`,
              `  answerInputRequests(inputRequests: T.InputRequests | undefined, context?: C, signal?: AbortSignal): Promise<InputAnswers & { readonly inputResponses: T.InputResponses }>;`,
              `}`,
            ].join("\n")
          : `export type ClientDispatcher<C> = Dispatcher<C>;`,
        ``,
        `const CODES = { invalidRequest: ${code("InvalidRequest")}, methodNotFound: ${code("MethodNotFound")}, invalidParams: ${code("InvalidParams")}, internalError: ${code("InternalError")} };`,
        `const SERVER_SIDE: DispatchSpec = ${spec("server")};`,
        `const CLIENT_SIDE: DispatchSpec = ${spec("client")};`,
        hasInputs ? `const INPUT_PARAMS: { readonly [method: string]: DefinitionName } = { ${inputParams.join(", ")} };` : "",
        hasInputs
          ? `const INPUTS: InputSpec = { version: ${JSON.stringify(model.version)}, inputs: INPUT_REQUEST_METHODS, codes: CODES, validateInput: (method, params) => { const name = INPUT_PARAMS[method]; return name === undefined ? { ok: true } : validate(name, params); } };`
          : "",
        ``,
        `/** Routes what a server receives to \`handlers\`; \`handle\` answers every request exactly once and never throws. */`,
        `export function createServerDispatcher<C = undefined>(handlers: ServerDispatchHandlers<C>, options: DispatcherOptions<C> = {}): Dispatcher<C> {`,
        `  return createDispatcher(SERVER_SIDE, handlers as unknown as { readonly [method: string]: AnyHandler | undefined }, options);`,
        `}`,
        ``,
        `/** Routes what a client receives to \`handlers\`${hasInputs ? "; `answerInputRequests` answers an `input_required` result's input requests" : ""}. */`,
        `export function createClientDispatcher<C = undefined>(handlers: ClientDispatchHandlers<C>, options: DispatcherOptions<C> = {}): ClientDispatcher<C> {`,
        `  const table = handlers as unknown as { readonly [method: string]: AnyHandler | undefined };`,
        hasInputs
          ? [
              `  const core = createDispatcher(CLIENT_SIDE, table, options);`,
              `  return {`,
              `    handle: (message, context, signal) => core.handle(message, context, signal),`,
              `    answerInputRequests: (inputRequests, context, signal) =>`,
              `      answerInputRequests(INPUTS, table, inputRequests, context as C, { ...(options.validate === undefined ? {} : { validate: options.validate }), ...(signal === undefined ? {} : { signal }), onError: (error, info) => options.onError?.(error, { method: info.method, id: undefined, context: info.context }) }) as Promise<InputAnswers & { readonly inputResponses: T.InputResponses }>,`,
              `  };`,
            ].join("\n")
          : `  return createDispatcher(CLIENT_SIDE, table, options);`,
        `}`,
      ]
        .filter((s) => s !== "")
        .join("\n"),
    );
  });
  return { path, content };
};
