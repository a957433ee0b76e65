import type { MethodSignatureStructure, OptionalKind } from "ts-morph";
import { VariableDeclarationKind } from "../common/ts-morph.ts";
import { BindgenError } from "../common/failures.ts";
import type { Direction, ProtocolModel } from "../model/protocol-model.ts";
import type { EmittedFile } from "./emitted.ts";
import { buildRequestCall } from "./envelope.ts";
import { inputRequiredSpec } from "../model/runtime-data.ts";
import { runtimeImport } from "./runtime-files.ts";
import { buildSourceFile, objectLiteral } from "./source-file.ts";

/**
 * `<version>/requester.ts`: the sending side, runtime/core/requester.ts typed by this release's tables.
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
    objectLiteral({
      cancel: cancelFor(direction),
      internalErrorCode: String(internalError),
      batches: model.envelope.batches ? "receiveBatch" : "null",
      inputRequired: inputRequired(direction),
    });
  const build = (options: string): string =>
    `(method: string, params: object | undefined, id: string | number) => ${buildRequestCall(model, options)}`;
  const content = buildSourceFile((file) => {
    file.addImportDeclaration({
      isTypeOnly: true,
      namedImports: [
        "ClientRequestMethod",
        "ClientRequests",
        ...(serverRequests ? ["ServerRequestMethod", "ServerRequests"] : []),
      ],
      moduleSpecifier: "./methods.js",
    });
    file.addImportDeclaration({
      isTypeOnly: true,
      namedImports: [
        "CheckedExtraMeta",
        "NotificationEnvelope",
        "RequestEnvelope",
        "RequestOptions",
        "RequestParamsInput",
      ],
      moduleSpecifier: "./envelope.js",
    });
    file.addImportDeclaration({ namedImports: ["MetaKey"], moduleSpecifier: "./meta.js" });
    if (model.tasks !== null)
      file.addImportDeclaration({
        isTypeOnly: true,
        namedImports: [model.tasks.result],
        moduleSpecifier: "./types.js",
      });
    file.addImportDeclaration({
      namedImports: [modern ? "statelessRequest" : "sessionRequest"],
      moduleSpecifier: runtimeImport("builders", 1),
    });
    file.addImportDeclaration({
      namedImports: [
        "createRequesterCore",
        ...(model.envelope.batches ? ["receiveBatch"] : []),
        { name: "CallOptions", isTypeOnly: true },
        modern
          ? { name: "RequesterOptions", alias: "Behaviour", isTypeOnly: true }
          : { name: "RequesterBehaviour", isTypeOnly: true },
        { name: "RequesterLifecycle", isTypeOnly: true },
      ],
      moduleSpecifier: runtime,
    });
    file.addExportDeclaration({
      isTypeOnly: true,
      namedExports: ["CallOptions", ...(modern ? ["InputAnswerer", "InputHandler"] : [])],
      moduleSpecifier: runtime,
    });
    // Any `answerInputRequests` (not only a dispatcher's) can complete a modern requester's calls through it.
    if (modern) file.addExportDeclaration({ namedExports: ["inputHandlerFor"], moduleSpecifier: runtime });
    if (modern)
      file.addVariableStatement({
        declarationKind: VariableDeclarationKind.Const,
        declarations: [{ name: "VERSION", initializer: JSON.stringify(model.protocolVersion) }],
      });
    file.addTypeAlias({
      name: "ClientOutgoing",
      isExported: true,
      docs: [
        "What a client's requester hands to `send`: its requests and, when a call is abandoned, the cancel notification.",
      ],
      type: `RequestEnvelope<ClientRequestMethod>${cancelType("client-to-server")}`,
    });
    file.addTypeAlias({
      name: "RequesterOptions",
      isExported: true,
      docs: ["The `_meta` options of `request` (written into every request), and how the requester behaves."],
      type: `Omit<RequestOptions, "id"> & ${modern ? "Behaviour" : "RequesterBehaviour"}`,
    });
    file.addInterface({
      name: "Requester",
      isExported: true,
      docs: [
        `A ${model.version} client's typed requests: the result type follows the method; an error response rejects with an \`RpcError\`.`,
      ],
      extends: ["RequesterLifecycle"],
      methods: requestSignatures(model, "client-to-server", "ClientRequestMethod", "ClientRequests"),
    });
    file.addFunction({
      name: "createRequester",
      isExported: true,
      docs: [
        `Sends ${model.version} client requests through \`send\` (any transport) and correlates the responses fed to \`receive\`${batchNote}; ids, timeouts and cancellation included.`,
      ],
      // `Extra` is the caller's `extraMeta`, checked against the reserved `_meta` keys.
      typeParameters: [{ name: "Extra", default: "{}" }],
      parameters: [
        { name: "send", type: "(message: ClientOutgoing) => void | Promise<void>" },
        {
          name: "options",
          type: "RequesterOptions & CheckedExtraMeta<Extra>",
          ...(modern ? {} : { initializer: "{}" }),
        },
      ],
      returnType: "Requester",
      statements: [
        `const build = ${build("{ ...options, id }")};`,
        `return createRequesterCore<Requester>(${spec("client-to-server")}, build, send, options);`,
      ],
    });
    if (!serverRequests) return;
    file.addTypeAlias({
      name: "ServerOutgoing",
      isExported: true,
      docs: ["What a server's requester hands to `send`."],
      type: `RequestEnvelope<ServerRequestMethod>${cancelType("server-to-client")}`,
    });
    file.addTypeAlias({ name: "ServerRequesterOptions", isExported: true, type: "RequesterBehaviour" });
    file.addInterface({
      name: "ServerRequester",
      isExported: true,
      docs: [
        `A ${model.version} server's typed requests to its client (sampling, elicitation, roots, …) on a session.`,
      ],
      extends: ["RequesterLifecycle"],
      methods: requestSignatures(model, "server-to-client", "ServerRequestMethod", "ServerRequests"),
    });
    file.addFunction({
      name: "createServerRequester",
      isExported: true,
      docs: [
        `Sends ${model.version} server→client requests through \`send\` and correlates the client's responses fed to \`receive\`${batchNote}.`,
      ],
      parameters: [
        { name: "send", type: "(message: ServerOutgoing) => void | Promise<void>" },
        { name: "options", type: "ServerRequesterOptions", initializer: "{}" },
      ],
      returnType: "ServerRequester",
      statements: [
        `const build = ${build("{ id }")};`,
        `return createRequesterCore<ServerRequester>(${spec("server-to-client")}, build, send, options);`,
      ],
    });
  });
  return { path, content };
}

/**
 * `request`'s signatures on one side. Where a method may answer a task-augmented request with a task (model.tasks), the answer
 * follows the params: with the task member the task result is possible, without it never (the caller need not narrow), and
 * params of a type that may or may not carry one keep both.
 */
function requestSignatures(
  model: ProtocolModel,
  direction: Direction,
  methods: string,
  table: string,
): OptionalKind<MethodSignatureStructure>[] {
  const signature = (
    constraint: string,
    params: string,
    result: string,
    doc?: string,
  ): OptionalKind<MethodSignatureStructure> => ({
    name: "request",
    ...(doc === undefined ? {} : { docs: [doc] }),
    typeParameters: [
      { name: "M", constraint },
      { name: "Meta", default: "{}" },
    ],
    parameters: [
      { name: "method", type: "M" },
      { name: "params", type: params },
      { name: "options", type: "CallOptions", hasQuestionToken: true },
    ],
    returnType: `Promise<${result}>`,
  });
  const general = signature(methods, "RequestParamsInput<M, Meta>", `${table}[M]["result"]`);
  const tasks = model.tasks;
  const augmentable = model.methods.filter(
    (m) =>
      m.kind === "request" && m.directions.includes(direction) && tasks !== null && m.results.includes(tasks.result),
  );
  if (tasks === null || augmentable.length === 0) return [general];
  const param = JSON.stringify(tasks.param);
  return [
    signature(
      augmentable.map((m) => JSON.stringify(m.name)).join(" | "),
      `RequestParamsInput<M, Meta> & { readonly ${param}: object }`,
      `${table}[M]["result"]`,
      `With \`${tasks.param}\`: the peer may answer with a \`${tasks.result}\` to poll.`,
    ),
    signature(
      methods,
      `RequestParamsInput<M, Meta> & { readonly ${param}?: never }`,
      `Exclude<${table}[M]["result"], ${tasks.result}>`,
      `Without \`${tasks.param}\`: the result itself, never a \`${tasks.result}\`.`,
    ),
    general,
  ];
}
