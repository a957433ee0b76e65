/**
 * An MCP server on the shipped transports: scenario logic only. One endpoint speaks both eras
 * (2026-07-28 stateless, 2025-11-25 sessions); `createHttpHandler` routes each request to its era,
 * and `serveStdio` serves the same handlers over stdin/stdout.
 *
 *   npm run example:server -- --port 3000      # listens on http://127.0.0.1:3000/mcp
 *   npm run example:server -- --stdio          # newline-delimited JSON-RPC on stdin/stdout
 *   npm run example:server -- --redis <url>    # one of many instances sharing a Redis (redis-fleet.ts)
 *   npm run example:server -- --auth-issuer https://as.example   # JWT access tokens from that issuer (auth.ts)
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  createHttpHandler,
  LEGACY_VERSIONS,
  serveStdio,
  toNodeListener,
  type HttpHandler,
  type OriginPolicy,
} from "../generated/index.js";
import * as legacy from "../generated/2025-11-25/index.js";
import * as modern from "../generated/2026-07-28/index.js";
import {
  DEFAULTS_FORM,
  ENUMS_FORM,
  ERROR_TOOL_TEXT,
  INPUT_REQUIRED_PROMPT,
  LOG_LINES,
  PROMPTS,
  readResource,
  renderPrompt,
  RESOURCE_TEMPLATES,
  RESOURCES,
  SERVER_INFO,
  STATIC_TOOL_CONTENT,
  text,
  toolsOf,
} from "./fixture.js";
import { exampleAuth } from "./auth.js";
import { joinFleet, type Fleet } from "./redis-fleet.js";

export interface ExampleServerOptions extends OriginPolicy {
  /** Loopback unless told otherwise: a local server must not be reachable from the network. */
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** Largest request body accepted, in bytes; larger ones get 413. */
  readonly bodyLimit?: number;
  /** How long a 2025 request outlives its client's disconnect, waiting for a resume (0: abort at once). */
  readonly resumeWindowMs?: number;
  /** Sees what went wrong inside (a handler's throw, a bug); the peer only ever gets a generic -32603. */
  readonly onError?: (error: unknown) => void;
  /** A Redis URL: serve as one of many instances sharing it (sessions, streams, list changes); needs `requestStateSecret`. */
  readonly redis?: string;
  /** The fleet's requestState key (32 characters or more); default `MCP_REQUEST_STATE_SECRET`. */
  readonly requestStateSecret?: string;
  /** Take only JWT access tokens from this issuer, for this server's URL (auth.ts). Default: no auth. */
  readonly authIssuer?: string;
}

export interface ExampleServer {
  readonly url: string;
  readonly handler: HttpHandler;
  close(): Promise<void>;
}

const PATH = "/mcp";
const LIST_TTL_MS = 300_000;
const LOG_LEVELS: readonly string[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

// ---- Shared by both eras -------------------------------------------------------------------------------

function logAllowed(requested: unknown, level: string): boolean {
  return (
    typeof requested === "string" &&
    LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(requested) &&
    LOG_LEVELS.includes(requested)
  );
}

function missingResource(uri: string): never {
  throw new modern.RpcError(modern.ErrorCode.InvalidParams, "Resource not found", { uri });
}

function promptMessages(name: string, args: Readonly<Record<string, string>> | undefined) {
  const messages = renderPrompt(name, args ?? {});
  if (typeof messages === "string") throw new modern.RpcError(modern.ErrorCode.InvalidParams, messages);
  return messages;
}

/** A string argument, or "" when the caller sent something else. */
function stringArg(args: Readonly<Record<string, unknown>>, name: string): string {
  const value = args[name];
  return typeof value === "string" ? value : "";
}

/** A pause in a handler that a cancelled request cuts short. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/** The tools both eras serve alike, given the era's logging and progress; `undefined` for the others. */
async function sharedTool(
  name: string,
  args: Readonly<Record<string, unknown>>,
  io: {
    readonly log: (level: "info", data: string) => void;
    readonly progress: ((update: { progress: number; total: number; message: string }) => void) | undefined;
    readonly progressToken: string | number | undefined;
    readonly signal: AbortSignal;
  },
): Promise<{ content: ReturnType<typeof text>[]; isError?: true } | undefined> {
  const content = Object.hasOwn(STATIC_TOOL_CONTENT, name) ? STATIC_TOOL_CONTENT[name] : undefined;
  if (content !== undefined) return { content: [...content] };
  switch (name) {
    case "echo":
      return { content: [text(stringArg(args, "text"))] };
    case "test_error_handling":
      return { content: [text(ERROR_TOOL_TEXT)], isError: true };
    case "test_tool_with_logging":
      for (const line of LOG_LINES) {
        io.log("info", line);
        await sleep(20, io.signal);
      }
      return { content: [text("Tool with logging executed successfully")] };
    case "test_tool_with_progress":
      for (const progress of [0, 50, 100]) {
        io.progress?.({ progress, total: 100, message: `Completed step ${progress} of 100` });
        await sleep(20, io.signal);
      }
      return { content: [text(String(io.progressToken ?? "no progress token"))] };
    case "json_schema_2020_12_tool":
      return { content: [text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`)] };
  }
  return undefined;
}

/** The form each elicitation test tool asks for. */
function elicitationForm(name: string, args: Readonly<Record<string, unknown>>) {
  return name === "test_elicitation"
    ? {
        message: stringArg(args, "message"),
        requestedSchema: {
          type: "object" as const,
          properties: { response: { type: "string" as const } },
          required: ["response"],
        },
      }
    : name === "test_elicitation_sep1034_defaults"
      ? DEFAULTS_FORM
      : ENUMS_FORM;
}

function askFor(field: string, message: string): modern.InputRequest {
  return {
    method: "elicitation/create",
    params: {
      message,
      requestedSchema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] },
    },
  };
}

function sampleRequest(prompt: string, maxTokens: number): modern.InputRequest {
  return {
    method: "sampling/createMessage",
    params: { messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens },
  };
}

const ELICIT_NAME = askFor("name", "What is your name?");
const ELICIT_CONFIRM = {
  method: "elicitation/create",
  params: {
    message: "Please confirm",
    requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
  },
} satisfies modern.InputRequest;
const LIST_ROOTS = { method: "roots/list", params: {} } satisfies modern.InputRequest;

// ---- 2026-07-28: stateless ---------------------------------------------------------------------------------

type Answers = { readonly inputResponses?: modern.InputResponses };

/** A field of an accepted elicitation, or undefined. */
function elicited(params: Answers, key: string, field: string): unknown {
  const answer = modern.inputResponse(params, key, "elicitation/create");
  return answer?.action === "accept" ? answer.content?.[field] : undefined;
}

function sampledText(params: Answers, key: string): string | undefined {
  const content = modern.inputResponse(params, key, "sampling/createMessage")?.content;
  return content !== undefined && !Array.isArray(content) && content.type === "text" ? content.text : undefined;
}

interface Listener {
  readonly filter: modern.SubscriptionFilter;
  readonly notify: (
    method: "notifications/tools/list_changed" | "notifications/prompts/list_changed",
    subscription: modern.RequestId,
  ) => void;
  readonly id: modern.RequestId;
  end(): void;
}

type ListChange = {
  readonly wanted: "toolsListChanged" | "promptsListChanged";
  readonly method: "notifications/tools/list_changed" | "notifications/prompts/list_changed";
};

function notifyHere(listeners: Set<Listener>, { wanted, method }: ListChange): void {
  for (const listener of listeners) if (listener.filter[wanted] === true) listener.notify(method, listener.id);
}

function modernEra(listeners: Set<Listener>, fleet?: Fleet): modern.StatelessEra {
  // In a fleet the change goes to every instance, each telling the listeners it holds (startServer).
  const notifyListeners = (wanted: ListChange["wanted"], method: ListChange["method"]): void =>
    fleet === undefined ? notifyHere(listeners, { wanted, method }) : fleet.announce({ wanted, method });
  const tools = toolsOf("modern");

  const callTool: NonNullable<modern.StatelessServerHandlers["tools/call"]> = async (params, ctx) => {
    const { name } = params;
    const args = params.arguments ?? {};
    // A state comes back only on the request it was issued for (the runtime binds it to the method and params).
    const { state, inputRequired } = ctx.context;
    const logLevel = ctx._meta[modern.MetaKey.logLevel];
    const log = (level: modern.LoggingLevel, data: string): void => {
      if (logAllowed(logLevel, level)) ctx.notify("notifications/message", { level, logger: SERVER_INFO.name, data });
    };
    const shared = await sharedTool(name, args, {
      log,
      progress: ctx.progress,
      progressToken: ctx._meta.progressToken,
      signal: ctx.signal,
    });
    if (shared !== undefined) return shared;

    switch (name) {
      case "test_sampling": {
        ctx.requireClientCapability("sampling");
        const answer = sampledText(params, "sample");
        return answer !== undefined
          ? { content: [text(`LLM response: ${answer}`)] }
          : inputRequired({ sample: sampleRequest(stringArg(args, "prompt"), 100) });
      }
      case "test_elicitation":
      case "test_elicitation_sep1034_defaults":
      case "test_elicitation_sep1330_enums": {
        ctx.requireClientCapability("elicitation");
        const answer = modern.inputResponse(params, "form", "elicitation/create");
        if (answer !== undefined)
          return {
            content: [text(`User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`)],
          };
        return inputRequired({ form: { method: "elicitation/create", params: elicitationForm(name, args) } });
      }
      case "test_missing_capability":
        ctx.requireClientCapability("sampling");
        return { content: [text("Success")] };
      case "test_input_required_result_elicitation": {
        const userName = elicited(params, "user_name", "name");
        return typeof userName === "string"
          ? { content: [text(`Hello, ${userName}!`)] }
          : inputRequired({ user_name: ELICIT_NAME });
      }
      case "test_input_required_result_sampling": {
        const answer = sampledText(params, "capital_question");
        return answer !== undefined
          ? { content: [text(`Sampling result: ${answer}`)] }
          : inputRequired({ capital_question: sampleRequest("What is the capital of France?", 100) });
      }
      case "test_input_required_result_list_roots": {
        const roots = modern.inputResponse(params, "client_roots", "roots/list")?.roots;
        return roots !== undefined
          ? { content: [text(`Found ${roots.length} root(s)`)] }
          : inputRequired({ client_roots: LIST_ROOTS });
      }
      case "test_input_required_result_request_state":
      case "test_input_required_result_tampered_state":
        if (state !== undefined && elicited(params, "confirm", "ok") === true) {
          return {
            content: [
              text(
                name.endsWith("tampered_state") ? "integrity-ok: state verified" : "state-ok: requestState validated",
              ),
            ],
          };
        }
        return inputRequired({ confirm: ELICIT_CONFIRM }, { tool: name });
      case "test_input_required_result_multiple_inputs": {
        const userName = elicited(params, "user_name", "name");
        const greeting = sampledText(params, "greeting");
        const roots = modern.inputResponse(params, "client_roots", "roots/list")?.roots;
        if (state !== undefined && typeof userName === "string" && greeting !== undefined && roots !== undefined) {
          return { content: [text(`Name: ${userName}; Greeting: ${greeting}; Roots: ${roots.length}`)] };
        }
        return inputRequired(
          { user_name: ELICIT_NAME, greeting: sampleRequest("Generate a greeting", 50), client_roots: LIST_ROOTS },
          { tool: name },
        );
      }
      case "test_input_required_result_multi_round": {
        const userName = elicited(params, "step1", "name");
        if (state?.["round"] === 1 && typeof userName === "string") {
          return inputRequired(
            { step2: askFor("color", "Step 2: What is your favorite color?") },
            { tool: name, round: 2, name: userName },
          );
        }
        const color = elicited(params, "step2", "color");
        if (state?.["round"] === 2 && typeof color === "string")
          return { content: [text(`Multi-round complete for ${String(state["name"])} who likes ${color}`)] };
        return inputRequired({ step1: askFor("name", "Step 1: What is your name?") }, { tool: name, round: 1 });
      }
      case "test_input_required_result_capabilities": {
        const answered = Object.keys(params.inputResponses ?? {});
        if (answered.length > 0) return { content: [text(`capabilities-ok: received ${answered.join(",")}`)] };
        const declared = ctx._meta[modern.MetaKey.clientCapabilities];
        const requests: Record<string, modern.InputRequest> = {};
        if (declared.elicitation !== undefined) requests["elicit_input"] = askFor("value", "Elicitation input");
        if (declared.sampling !== undefined) requests["sample_input"] = sampleRequest("Sample request", 50);
        if (Object.keys(requests).length === 0) return { content: [text("No supported capabilities declared")] };
        return inputRequired(requests, { tool: name });
      }
      case "test_streaming_elicitation":
        return { content: [text("Streaming complete")] };
      case "test_logging_tool":
        log("info", "Diagnostic trace logging activated");
        return { content: [text("Logging evaluated")] };
      case "test_trigger_tool_change":
        notifyListeners("toolsListChanged", "notifications/tools/list_changed");
        return { content: [text("Mutation triggered")] };
      case "test_header_param":
        return { content: [text(`Region: ${stringArg(args, "region")}`)] };
      case "test_trigger_prompt_change":
        notifyListeners("promptsListChanged", "notifications/prompts/list_changed");
        return { content: [text("Mutation triggered")] };
    }
    throw new modern.RpcError(modern.ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  };

  return modern.statelessEra(
    {
      "server/discover": () => ({
        supportedVersions: [modern.PROTOCOL_VERSION],
        capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: {}, completions: {} },
        ttlMs: LIST_TTL_MS,
        cacheScope: "public",
        _meta: { [modern.MetaKey.serverInfo]: SERVER_INFO },
      }),
      "tools/list": () => ({
        tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
        ttlMs: LIST_TTL_MS,
        cacheScope: "public",
      }),
      "tools/call": callTool,
      "resources/list": () => ({ resources: RESOURCES, ttlMs: LIST_TTL_MS, cacheScope: "public" }),
      "resources/templates/list": () => ({
        resourceTemplates: RESOURCE_TEMPLATES,
        ttlMs: LIST_TTL_MS,
        cacheScope: "public",
      }),
      "resources/read": ({ uri }) => ({
        contents: readResource(uri) ?? missingResource(uri),
        ttlMs: LIST_TTL_MS,
        cacheScope: "private",
      }),
      "prompts/list": () => ({
        prompts: [...PROMPTS, INPUT_REQUIRED_PROMPT],
        ttlMs: LIST_TTL_MS,
        cacheScope: "public",
      }),
      "prompts/get": (params, ctx) => {
        if (params.name !== INPUT_REQUIRED_PROMPT.name)
          return { messages: promptMessages(params.name, params.arguments) };
        const context = elicited(params, "user_context", "context");
        if (typeof context === "string")
          return { messages: [{ role: "user", content: text(`Prompt with context: ${context}`) }] };
        return ctx.context.inputRequired({ user_context: askFor("context", "What context should the prompt use?") });
      },
      "completion/complete": () => ({ completion: { values: [], total: 0, hasMore: false } }),
      // The stream stays open until the client goes away (the signal) or the server shuts down (end()).
      "subscriptions/listen": ({ notifications }, ctx) => {
        const honoured: modern.SubscriptionFilter = {};
        if (notifications.toolsListChanged === true) honoured.toolsListChanged = true;
        if (notifications.promptsListChanged === true) honoured.promptsListChanged = true;
        const subscription = { [modern.MetaKey.subscriptionId]: ctx.id };
        ctx.notify("notifications/subscriptions/acknowledged", { _meta: subscription, notifications: honoured });
        return new Promise<modern.HandlerResult<modern.SubscriptionsListenResult>>((resolve) => {
          const listener: Listener = {
            id: ctx.id,
            filter: honoured,
            notify: (method, id) => ctx.notify(method, { _meta: { [modern.MetaKey.subscriptionId]: id } }),
            end: () => resolve({ _meta: subscription }),
          };
          listeners.add(listener);
          ctx.signal.addEventListener("abort", () => listeners.delete(listener), { once: true });
        });
      },
    },
    {
      toolOf: (name) => tools.find((tool) => tool.name === name),
      ...(fleet === undefined ? {} : { requestState: fleet.requestState }),
    },
  );
}

// ---- 2025-11-25: sessions ----------------------------------------------------------------------------------

interface SessionData {
  logLevel: string | undefined;
  readonly subscriptions: Set<string>;
}

function legacyEra(): legacy.SessionEra {
  const callTool: NonNullable<legacy.SessionServerHandlers<SessionData>["tools/call"]> = async (
    { name, arguments: args = {} },
    ctx,
  ) => {
    const session = ctx.context.session.state;
    const log = (level: legacy.LoggingLevel, data: string): void => {
      if (logAllowed(session.logLevel ?? "debug", level))
        ctx.notify("notifications/message", { level, logger: SERVER_INFO.name, data });
    };
    const shared = await sharedTool(name, args, {
      log,
      progress: ctx.progress,
      progressToken: ctx._meta?.progressToken,
      signal: ctx.signal,
    });
    if (shared !== undefined) return shared;
    switch (name) {
      case "test_sampling": {
        const messages = [
          { role: "user" as const, content: { type: "text" as const, text: stringArg(args, "prompt") } },
        ];
        const result = await ctx.context.request(
          "sampling/createMessage",
          { messages, maxTokens: 100 },
          { signal: ctx.signal },
        );
        // A client may answer with a task instead (task-augmented requests); this server never asks for one.
        const answer =
          "content" in result && !Array.isArray(result.content) && result.content.type === "text"
            ? result.content.text
            : "No response";
        return { content: [text(`LLM response: ${answer}`)] };
      }
      case "test_elicitation":
      case "test_elicitation_sep1034_defaults":
      case "test_elicitation_sep1330_enums": {
        const result = await ctx.context.request("elicitation/create", elicitationForm(name, args), {
          signal: ctx.signal,
        });
        if (!("action" in result))
          return {
            content: [text("The client answered with a task, which this server never asks for")],
            isError: true,
          };
        return {
          content: [text(`User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`)],
        };
      }
    }
    throw new legacy.RpcError(legacy.ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  };

  return legacy.sessionEra<SessionData>(
    {
      initialize: () => ({
        protocolVersion: legacy.PROTOCOL_VERSION,
        capabilities: {
          tools: { listChanged: true },
          prompts: { listChanged: true },
          resources: { subscribe: true },
          logging: {},
          completions: {},
        },
        serverInfo: SERVER_INFO,
      }),
      ping: () => ({}),
      "tools/list": () => ({
        tools: toolsOf("legacy").map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
      }),
      "tools/call": callTool,
      "resources/list": () => ({ resources: RESOURCES }),
      "resources/templates/list": () => ({ resourceTemplates: RESOURCE_TEMPLATES }),
      "resources/read": ({ uri }) => ({ contents: readResource(uri) ?? missingResource(uri) }),
      "resources/subscribe": ({ uri }, ctx) => (ctx.context.session.state.subscriptions.add(uri), {}),
      "resources/unsubscribe": ({ uri }, ctx) => (ctx.context.session.state.subscriptions.delete(uri), {}),
      "prompts/list": () => ({ prompts: PROMPTS }),
      "prompts/get": ({ name, arguments: args }) => ({ messages: promptMessages(name, args) }),
      "logging/setLevel": ({ level }, ctx) => ((ctx.context.session.state.logLevel = level), {}),
      "completion/complete": () => ({ completion: { values: [], total: 0, hasMore: false } }),
      "notifications/initialized": () => undefined,
    },
    { sessionState: () => ({ logLevel: undefined, subscriptions: new Set() }), versions: LEGACY_VERSIONS },
  );
}

// ---- Transports ---------------------------------------------------------------------------------------------

export async function startServer(options: ExampleServerOptions = {}): Promise<ExampleServer> {
  const host = options.host ?? "127.0.0.1";
  const listeners = new Set<Listener>();
  const onError = options.onError ?? ((error: unknown) => console.error(error));
  const fleet =
    options.redis === undefined
      ? undefined
      : await joinFleet(options.redis, options.requestStateSecret ?? process.env["MCP_REQUEST_STATE_SECRET"], onError);
  await fleet?.hear((change) => notifyHere(listeners, change as ListChange));
  const auth = options.authIssuer === undefined ? undefined : exampleAuth(options.authIssuer);
  const handler = createHttpHandler({
    ...fleet?.transport,
    ...auth?.transport,
    stateless: modernEra(listeners, fleet),
    sessions: legacyEra(),
    path: PATH,
    onError,
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    ...(options.resumeWindowMs === undefined ? {} : { resumeWindowMs: options.resumeWindowMs }),
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
  });
  const server: Server = createServer(toNodeListener(auth?.serve(handler) ?? handler));
  server.on("clientError", (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}${PATH}`;
  auth?.listening(url);
  return {
    url,
    handler,
    close: async () => {
      for (const listener of listeners) listener.end();
      handler.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await fleet?.close();
    },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "3000" },
      host: { type: "string", default: "127.0.0.1" },
      stdio: { type: "boolean", default: false },
      redis: { type: "string" },
      "auth-issuer": { type: "string" },
    },
  });
  if (values.stdio) {
    // stdout carries messages only; everything else goes to stderr.
    const log = (line: string): void => void process.stderr.write(`${line}\n`);
    await serveStdio({
      stateless: modernEra(new Set()),
      sessions: legacyEra(),
      input: process.stdin,
      output: process.stdout,
      log,
    }).done;
  } else {
    const server = await startServer({
      port: Number(values.port),
      host: values.host,
      ...(values.redis === undefined ? {} : { redis: values.redis }),
      ...(values["auth-issuer"] === undefined ? {} : { authIssuer: values["auth-issuer"] }),
    });
    console.log(`MCP example server on ${server.url}`);
    const stop = (): void => void server.close().then(() => process.exit(0));
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  }
}
