import { BindgenError } from "../common/failures.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import type { VersionEmitter } from "./emitted.ts";
import { runtimeImport } from "./runtime-files.ts";
import { buildSourceFile } from "./source-file.ts";

/** The request that opens a session release's session; the model tells eras apart by it too (model/build.ts `eraEvidence`). */
const INITIALIZE = "initialize";

/**
 * `<version>/server.ts`: the release's side of the shipped server transports (runtime/server-eras.ts).
 * A stateless release gets `statelessEra(handlers)`, its header check, status mapping and
 * `input_required` facts bound in; a session release gets `sessionEra(handlers)`, whose handlers
 * send typed requests to the client through `ctx.context.request`. Either goes to
 * `createHttpHandler` or `serveStdio`.
 */
export const emitServer: VersionEmitter = (model: ProtocolModel) => {
  const path = `${model.version}/server.ts`;
  const code = (name: string): number => {
    const found = model.errorCodes.find((e) => e.name === name)?.code;
    if (found === undefined)
      throw new BindgenError(
        model.file,
        model.schema.definitionsPointer,
        `the error code ${name} (schema/facts.json)`,
        "the server transports answer with it",
      );
    return found;
  };
  const codes = `{ invalidRequest: ${code("InvalidRequest")}, invalidParams: ${code("InvalidParams")}, internalError: ${code("InternalError")} }`;
  const eras = runtimeImport("server-eras", 1);
  const dispatcher = runtimeImport("dispatcher", 1);
  const version = JSON.stringify(model.protocolVersion);
  const lines =
    model.era === "modern"
      ? statelessLines(model, codes, eras, dispatcher, version)
      : sessionLines(model, codes, eras, dispatcher, version);
  const content = buildSourceFile(path, (file) => file.addStatements(lines.join("\n")));
  return { path, content };
};

function statelessLines(
  model: ProtocolModel,
  codes: string,
  eras: string,
  dispatcher: string,
  version: string,
): string[] {
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
  });
  const inputResults = model.methods
    .filter((m) => m.kind === "input")
    .map((m) => `${JSON.stringify(m.name)}: ${JSON.stringify(m.results[0])}`);
  return [
    `import type * as T from "./types.js";`,
    `import type { InputRequestMethod, InputRequestTable } from "./methods.js";`,
    `import { validate, type DefinitionName } from "./validate.js";`,
    `import { own } from "${runtimeImport("json", 1)}";`,
    `import { createServerDispatcher, type ServerDispatchHandlers } from "./dispatch.js";`,
    `import { checkHttpHeaders, httpStatusOf } from "./http.js";`,
    `import type { DispatcherOptions } from "${dispatcher}";`,
    `import { createStatelessEra, type StatelessContext, type StatelessEra, type StatelessEraOptions as EraOptions } from "${eras}";`,
    `export type { StatelessEra } from "${eras}";`,
    ``,
    `/** \`ctx.context\` of a ${model.version} handler behind a transport: the request's headers, \`send\`, the verified \`state\` and \`inputRequired\`. */`,
    `export type StatelessServerContext = StatelessContext<T.InputRequests, T.InputRequiredResult>;`,
    `/** The handler table \`statelessEra\` serves. */`,
    `export type StatelessServerHandlers = ServerDispatchHandlers<StatelessServerContext>;`,
    ``,
    `export interface StatelessEraOptions extends Omit<DispatcherOptions<StatelessServerContext>, "send" | "peerOf">, EraOptions {`,
    `  /** The tool a \`tools/call\` names, so that its \`Mcp-Param-*\` headers (\`x-mcp-header\`) are checked too. */`,
    `  readonly toolOf?: (name: string) => T.Tool | undefined;`,
    `}`,
    ``,
    `/** Serves ${model.version} requests with \`handlers\` on \`createHttpHandler\` or \`serveStdio\`: headers checked (-32020), \`requestState\` verified, notifications and progress streamed. */`,
    `export function statelessEra(handlers: StatelessServerHandlers, options: StatelessEraOptions = {}): StatelessEra {`,
    `  const { toolOf, requestState, ...dispatcherOptions } = options;`,
    `  const dispatcher = createServerDispatcher<StatelessServerContext>(handlers, { ...dispatcherOptions, send: (message, context) => context.send(message) });`,
    `  return createStatelessEra(`,
    `    {`,
    `      versions: options.supportedVersions ?? [${version}],`,
    `      codes: ${codes},`,
    `      inputRequired: ${inputSpec},`,
    `      checkHeaders: (headers, message, name) => {`,
    `        const tool = name === undefined ? undefined : toolOf?.(name);`,
    `        return checkHttpHeaders(headers, message, tool === undefined ? {} : { tool });`,
    `      },`,
    `      statusOf: httpStatusOf,`,
    `    },`,
    `    dispatcher.handle,`,
    `    requestState === undefined ? {} : { requestState },`,
    `  );`,
    `}`,
    ``,
    `const INPUT_RESULTS: { readonly [M in InputRequestMethod]: DefinitionName } = { ${inputResults.join(", ")} };`,
    ``,
    `/** The answer a retried request brought for \`key\` (its \`${input.responses}\`), when it is a valid result of \`method\`; undefined when it is missing or of another kind. */`,
    `export function inputResponse<M extends InputRequestMethod>(params: { readonly ${input.responses}?: T.InputResponses | undefined }, key: string, method: M): InputRequestTable[M]["result"] | undefined {`,
    `  const answers = params.${input.responses};`,
    `  const answer: unknown = answers !== undefined && own(answers, key) ? answers[key] : undefined;`,
    `  return answer !== undefined && validate(INPUT_RESULTS[method], answer).ok ? (answer as InputRequestTable[M]["result"]) : undefined;`,
    `}`,
  ];
}

function sessionLines(
  model: ProtocolModel,
  codes: string,
  eras: string,
  dispatcher: string,
  version: string,
): string[] {
  if (!model.methods.some((m) => m.name === INITIALIZE && m.kind === "request"))
    throw new BindgenError(
      model.file,
      model.schema.definitionsPointer,
      `the ${INITIALIZE} request`,
      "sessionEra opens sessions with it",
    );
  return [
    `import { createServerDispatcher, type ServerDispatchHandlers } from "./dispatch.js";`,
    `import { createServerRequester, type ServerRequester } from "./requester.js";`,
    `import type { DispatcherOptions } from "${dispatcher}";`,
    `import { createSessionEra, type SessionContext, type SessionEra, type SessionEraOptions as EraOptions } from "${eras}";`,
    `export type { SessionEra, SessionInfo } from "${eras}";`,
    ``,
    `/** \`ctx.context\` of a ${model.version} handler behind a transport: the request's headers, \`send\`, the session, and typed requests to the client. */`,
    `export type SessionServerContext<S = undefined> = SessionContext<ServerRequester["request"], S>;`,
    `/** The handler table \`sessionEra\` serves; \`S\` is the per-session state \`sessionState\` makes. */`,
    `export type SessionServerHandlers<S = undefined> = ServerDispatchHandlers<SessionServerContext<S>>;`,
    ``,
    `export interface SessionEraOptions<S> extends Omit<DispatcherOptions<SessionServerContext<S>>, "send" | "peerOf">, EraOptions<S> {`,
    `  /** The \`MCP-Protocol-Version\` headers routed to this era. Default: ${model.version}; pass \`LEGACY_VERSIONS\` to route every older client here. */`,
    `  readonly versions?: readonly string[];`,
    `}`,
    ``,
    `/** Serves ${model.version} sessions with \`handlers\` on \`createHttpHandler\` or \`serveStdio\`: initialize, notifications, progress and requests to the client on the request's stream. */`,
    `export function sessionEra<S = undefined>(handlers: SessionServerHandlers<S>, options: SessionEraOptions<S> = {}): SessionEra {`,
    `  const { versions, sessionState, requestTimeoutMs, ...dispatcherOptions } = options;`,
    `  const dispatcher = createServerDispatcher<SessionServerContext<S>>(handlers, {`,
    `    ...dispatcherOptions,`,
    `    send: (message, context) => context.send(message),`,
    `    peerOf: (context) => context.session,`,
    `  });`,
    `  return createSessionEra<S>(`,
    `    { versions: versions ?? [${version}], codes: ${codes}, initialize: ${JSON.stringify(INITIALIZE)}, createRequester: createServerRequester },`,
    `    dispatcher.handle,`,
    `    { ...(sessionState === undefined ? {} : { sessionState }), ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }) },`,
    `  );`,
    `}`,
  ];
}
