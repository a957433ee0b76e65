import { BindgenError } from "../common/failures.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import type { EmittedFile } from "./emitted.ts";
import { runtimeImport } from "./runtime-files.ts";
import { buildSourceFile } from "./source-file.ts";

/**
 * `<version>/client.ts`: this release as `connect` (runtime/connect.ts) sees it. `clientRelease()` hands
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
  const code = (name: string): number => {
    const found = model.errorCodes.find((e) => e.name === name)?.code;
    if (found === undefined)
      throw new BindgenError(model.file, where, `the error code ${name} (schema/facts.json)`, "connect reads it");
    return found;
  };
  const modern = model.era === "modern";
  const version = JSON.stringify(model.protocolVersion);
  const discover = modern ? method("server/discover") : "";
  const initialize = modern ? "" : method("initialize");
  const serverType = `ClientRequests[${modern ? discover : initialize}]["result"]`;
  const http = model.http;
  const lines = [
    `import type { ClientRequests } from "./methods.js";`,
    `import type { ClientCapabilities } from "./types.js";`,
    `import { createRequester, type Requester } from "./requester.js";`,
    `import type { ClientDispatcher } from "./dispatch.js";`,
    http === null ? "" : `import { httpHeaders, toolHeaderParams, type HeaderTool } from "./http.js";`,
    modern ? "" : `import { sessionEra } from "${runtimeImport("session-era", 1)}";`,
    `import type { ClientRelease, ClientSession } from "${runtimeImport("connect", 1)}";`,
    `export { connect } from "${runtimeImport("connect", 1)}";`,
    `export { httpTransport } from "${runtimeImport("http-client", 1)}";`,
    `export { stdioTransport } from "${runtimeImport("stdio-client", 1)}";`,
    ``,
    `/** A ${model.version} session, as \`connect\` returns it when this release is agreed on. */`,
    `export type Session = ClientSession<${version}, Requester, ${serverType}>;`,
    `/** This release for \`connect\`. */`,
    `export type Release = ClientRelease<${version}, Requester, ${serverType}>;`,
    ``,
    `export interface ClientReleaseOptions {`,
    `  /** What the client declares${modern ? " in every request's `_meta`" : " in `initialize`"}. Defaults to none. */`,
    `  readonly capabilities?: ClientCapabilities;`,
    `  /** Answers what the server asks of the client${modern ? " (the input requests of an `input_required` result)" : ""} and takes its notifications: \`createClientDispatcher(handlers)\`. */`,
    `  readonly dispatcher?: ClientDispatcher<undefined>;`,
    `}`,
    ``,
    `/** ${model.version} for \`connect(transport, { releases: [clientRelease(), …] })\`. */`,
    `export function clientRelease(options: ClientReleaseOptions = {}): Release {`,
    `  const capabilities = options.capabilities ?? {};`,
    `  const dispatcher = options.dispatcher;`,
    `  return {`,
    `    version: ${version},`,
    modern
      ? `    era: { kind: "stateless", discover: ${discover}, unsupportedVersion: ${code("UnsupportedProtocolVersion")}, signals: ${JSON.stringify(model.modernSignalCodes)} },`
      : `    era: sessionEra({ initialize: ${initialize}, initialized: ${method("notifications/initialized")}, initializeParams: (protocolVersion, clientInfo) => ({ protocolVersion, capabilities, clientInfo }), agreedVersion: (result) => (result as ${serverType}).protocolVersion }),`,
    modern
      ? `    requester: (send, common) => createRequester(send, { ...common, clientCapabilities: capabilities, ...(dispatcher === undefined ? {} : { inputHandler: dispatcher }) }),`
      : `    requester: (send, common) => createRequester(send, common.timeoutMs === undefined ? {} : { timeoutMs: common.timeoutMs }),`,
    `    dispatcher,`,
    `    methodNotFound: ${code("MethodNotFound")},`,
    http === null
      ? `    http: undefined,`
      : `    http: { listTools: ${method("tools/list")}, callTool: ${JSON.stringify(http.toolCallMethod)}, headers: (message, tool) => httpHeaders(message as Parameters<typeof httpHeaders>[0], tool === undefined ? {} : { tool: tool as HeaderTool }), usable: (tool) => toolHeaderParams(tool as HeaderTool).ok },`,
    `  };`,
    `}`,
  ];
  const content = buildSourceFile(path, (file) => file.addStatements(lines.filter((line) => line !== "").join("\n")));
  return { path, content };
}
