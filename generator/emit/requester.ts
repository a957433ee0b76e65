import { BindgenError } from "../common/failures.ts";
import type { Direction, ProtocolModel } from "../model/protocol-model.ts";
import type { EmittedFile } from "./emitted.ts";
import { buildRequestCall } from "./envelope.ts";
import { inputRequiredSpec } from "./runtime-data.ts";
import { runtimeImport } from "./runtime-files.ts";
import { buildSourceFile } from "./source-file.ts";

/**
 * `<version>/requester.ts`: the sending side, runtime/requester.ts typed by this release's tables.
 * `createRequester` sends what a client sends (with this release's `_meta` from the options);
 * `createServerRequester` exists where a server sends JSON-RPC requests (legacy sessions). Modern
 * releases add the `input_required` options: their servers ask through results, not requests.
 */
export function emitRequester(model: ProtocolModel): EmittedFile {
  const path = `${model.version}/requester.ts`;
  const internalError = model.errorCodes.find((e) => e.name === "InternalError")?.code;
  if (internalError === undefined)
    throw new BindgenError(
      model.file,
      model.schema.definitionsPointer,
      "the error code InternalError (schema/facts.json)",
      "requesters raise it",
    );
  const modern = model.era === "modern";
  const serverRequests = model.methods.some((m) => m.kind === "request" && m.directions.includes("server-to-client"));
  const runtime = runtimeImport("requester", 1);

  /** The cancel notification where this side may send it, else null (the call then only fails locally). */
  const cancelFor = (direction: Direction): string => {
    const cancel = model.dispatch.cancel;
    const sendable =
      cancel !== null &&
      model.methods.some(
        (m) => m.name === cancel.method && m.kind === "notification" && m.directions.includes(direction),
      );
    return sendable ? JSON.stringify(cancel) : "null";
  };
  const cancelType = (direction: Direction): string => {
    const cancel = model.dispatch.cancel;
    return cancelFor(direction) === "null" || cancel === null
      ? ""
      : ` | NotificationEnvelope<${JSON.stringify(cancel.method)}>`;
  };

  const batchNote = model.envelope.batches ? " (one by one, or in a JSON-RPC batch: an array)" : "";
  // Only a client's calls may be answered with an `input_required` result.
  const inputRequired = (direction: Direction): string =>
    direction === "client-to-server" ? JSON.stringify(inputRequiredSpec(model)) : "null";
  const spec = (direction: Direction): string =>
    `{ cancel: ${cancelFor(direction)}, internalErrorCode: ${internalError}, batches: ${model.envelope.batches}, inputRequired: ${inputRequired(direction)} }`;
  const lines = [
    `import type { ClientRequestMethod, ClientRequests${serverRequests ? ", ServerRequestMethod, ServerRequests" : ""} } from "./methods.js";`,
    `import type { CheckedExtraMeta, NotificationEnvelope, RequestEnvelope, RequestOptions, RequestParamsInput } from "./envelope.js";`,
    `import { MetaKey } from "./meta.js";`,
    model.tasks === null ? "" : `import type { ${model.tasks.result} } from "./types.js";`,
    `import { ${modern ? "statelessRequest" : "sessionRequest"} } from "${runtimeImport("builders", 1)}";`,
    modern ? `const VERSION = ${JSON.stringify(model.protocolVersion)};` : "",
    `import { createRequesterCore, type CallOptions, type ${modern ? "RequesterOptions as Behaviour" : "RequesterBehaviour"}, type RequesterLifecycle } from "${runtime}";`,
    `export type { CallOptions${modern ? ", InputHandler" : ""} } from "${runtime}";`,
    ``,
    `/** What a client's requester hands to \`send\`: its requests and, when a call is abandoned, the cancel notification. */`,
    `export type ClientOutgoing = RequestEnvelope<ClientRequestMethod>${cancelType("client-to-server")};`,
    `/** The \`_meta\` options of \`request\` (written into every request), and how the requester behaves. */`,
    `export type RequesterOptions = Omit<RequestOptions, "id"> & ${modern ? "Behaviour" : "RequesterBehaviour"};`,
    `/** A ${model.version} client's typed requests: the result type follows the method; an error response rejects with an \`RpcError\`. */`,
    `export interface Requester extends RequesterLifecycle {`,
    ...requestSignatures(model, "client-to-server", "ClientRequestMethod", "ClientRequests"),
    `}`,
    ``,
    `/** Sends ${model.version} client requests through \`send\` (any transport) and correlates the responses fed to \`receive\`${batchNote}; ids, timeouts and cancellation included. */`,
    `export function createRequester<Extra = {}>(send: (message: ClientOutgoing) => void | Promise<void>, options: RequesterOptions & CheckedExtraMeta<Extra>${modern ? "" : " = {}"}): Requester {`,
    `  const build = (method: string, params: object | undefined, id: string | number) => ${buildRequestCall(model, "{ ...options, id }")};`,
    `  return createRequesterCore<Requester>(${spec("client-to-server")}, build, send, options);`,
    `}`,
  ];

  if (serverRequests) {
    lines.push(
      ``,
      `/** What a server's requester hands to \`send\`. */`,
      `export type ServerOutgoing = RequestEnvelope<ServerRequestMethod>${cancelType("server-to-client")};`,
      `export type ServerRequesterOptions = RequesterBehaviour;`,
      `/** A ${model.version} server's typed requests to its client (sampling, elicitation, roots, …) on a session. */`,
      `export interface ServerRequester extends RequesterLifecycle {`,
      ...requestSignatures(model, "server-to-client", "ServerRequestMethod", "ServerRequests"),
      `}`,
      ``,
      `/** Sends ${model.version} server→client requests through \`send\` and correlates the client's responses fed to \`receive\`${batchNote}. */`,
      `export function createServerRequester(send: (message: ServerOutgoing) => void | Promise<void>, options: ServerRequesterOptions = {}): ServerRequester {`,
      `  const build = (method: string, params: object | undefined, id: string | number) => ${buildRequestCall(model, "{ id }")};`,
      `  return createRequesterCore<ServerRequester>(${spec("server-to-client")}, build, send, options);`,
      `}`,
    );
  }
  const content = buildSourceFile(path, (file) =>
    file.addStatements(lines.filter((line, i) => line !== "" || lines[i - 1] !== "").join("\n")),
  );
  return { path, content };
}

/**
 * `request`'s signatures on one side. Where a method may answer a task-augmented request with a task (model.tasks), the answer
 * follows the params: with the task member the task result is possible, without it never (the caller need not narrow), and
 * params of a type that may or may not carry one keep both.
 */
function requestSignatures(model: ProtocolModel, direction: Direction, methods: string, table: string): string[] {
  const general = `  request<M extends ${methods}, Meta = {}>(method: M, params: RequestParamsInput<M, Meta>, options?: CallOptions): Promise<${table}[M]["result"]>;`;
  const tasks = model.tasks;
  const augmentable = model.methods.filter(
    (m) =>
      m.kind === "request" && m.directions.includes(direction) && tasks !== null && m.results.includes(tasks.result),
  );
  if (tasks === null || augmentable.length === 0) return [general];
  const param = JSON.stringify(tasks.param);
  return [
    `  /** With \`${tasks.param}\`: the peer may answer with a \`${tasks.result}\` to poll. */`,
    `  request<M extends ${augmentable.map((m) => JSON.stringify(m.name)).join(" | ")}, Meta = {}>(method: M, params: RequestParamsInput<M, Meta> & { readonly ${param}: object }, options?: CallOptions): Promise<${table}[M]["result"]>;`,
    `  /** Without \`${tasks.param}\`: the result itself, never a \`${tasks.result}\`. */`,
    `  request<M extends ${methods}, Meta = {}>(method: M, params: RequestParamsInput<M, Meta> & { readonly ${param}?: never }, options?: CallOptions): Promise<Exclude<${table}[M]["result"], ${tasks.result}>>;`,
    general,
  ];
}
