/**
 * An MCP server over Streamable HTTP on node:http, written on the generated bindings alone.
 *
 * One endpoint speaks both eras. A request that carries an `Mcp-Session-Id`, a legacy
 * `MCP-Protocol-Version`, or is an `initialize` without a version header, belongs to a 2025-11-25 session
 * (initialize, sessions, server→client requests on the request's SSE stream); everything else is a
 * stateless 2026-07-28 request (per-request `_meta`, header checks, input_required results).
 *
 *   npm run example:server -- --port 3000      # listens on http://127.0.0.1:3000/mcp
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { checkOrigin, LEGACY_VERSIONS, type OriginPolicy } from "../generated/index.js";
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
  signState,
  STATIC_TOOL_CONTENT,
  text,
  toolsOf,
  verifyState,
} from "./fixture.js";

export interface ExampleServerOptions extends OriginPolicy {
  /** Loopback unless told otherwise: a local server must not be reachable from the network. */
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** Largest request body accepted, in bytes; larger ones get 413. */
  readonly bodyLimit?: number;
  /** Sees what went wrong inside (a handler's throw, a bug); the peer only ever gets a generic -32603. */
  readonly onError?: (error: unknown) => void;
}

export interface ExampleServer {
  readonly url: string;
  close(): Promise<void>;
}

const PATH = "/mcp";
const DEFAULT_BODY_LIMIT = 1024 * 1024;
const LIST_TTL_MS = 300_000;
const LOG_LEVELS: readonly string[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

// ---- One HTTP reply: JSON, or an SSE stream once something has to go out before the response ----------

class Reply {
  private streaming = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly headers: Readonly<Record<string, string>> = {},
  ) {}

  /** A notification or server→client request on this request's stream: the reply turns into SSE. */
  event(message: object): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    if (!this.streaming) {
      this.streaming = true;
      this.res.writeHead(200, { ...this.headers, "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
    }
    this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** The response ends the reply; without one (a notification, a cancelled request) it is 202 Accepted. */
  finish(response: object | undefined, status: number): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    if (this.streaming) {
      if (response !== undefined) this.event(response);
      this.res.end();
    } else if (response === undefined) {
      this.res.writeHead(202, this.headers).end();
    } else {
      sendJson(this.res, status, response, this.headers);
    }
  }
}

function sendJson(res: ServerResponse, status: number, body: object, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { ...headers, "Content-Type": "application/json" }).end(JSON.stringify(body));
}

/** An error outside the dispatchers: with the request's id once the body has been read as a request, else none. */
function sendError(res: ServerResponse, status: number, code: number, message: string, id?: legacy.RequestId): void {
  sendJson(res, status, legacy.errorResponse(id, code, message));
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" ? value : undefined;
}

// ---- Shared by both eras -------------------------------------------------------------------------------

function logAllowed(requested: unknown, level: string): boolean {
  return typeof requested === "string" && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(requested) && LOG_LEVELS.includes(requested);
}

function staticContent(name: string) {
  return Object.hasOwn(STATIC_TOOL_CONTENT, name) ? STATIC_TOOL_CONTENT[name] : undefined;
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
/**
 * The test tools both eras serve alike, given the era's logging, progress and cancellation;
 * `undefined` for the others, which each era's own switch handles.
 */
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
  const content = staticContent(name);
  if (content !== undefined) return { content: [...content] };
  switch (name) {
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
        requestedSchema: { type: "object" as const, properties: { response: { type: "string" as const } }, required: ["response"] },
      }
    : name === "test_elicitation_sep1034_defaults"
      ? DEFAULTS_FORM
      : ENUMS_FORM;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}

// ---- 2026-07-28: stateless ---------------------------------------------------------------------------------

interface ModernContext {
  readonly reply: Reply;
}

interface Listener {
  readonly id: modern.RequestId;
  readonly filter: modern.SubscriptionFilter;
  readonly reply: Reply;
  end(): void;
}

const ELICIT_NAME = {
  method: "elicitation/create",
  params: { message: "What is your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
} satisfies modern.InputRequest;

const ELICIT_CONFIRM = {
  method: "elicitation/create",
  params: { message: "Please confirm", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } },
} satisfies modern.InputRequest;

function sampleRequest(prompt: string, maxTokens: number): modern.InputRequest {
  return { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens } };
}

const LIST_ROOTS = { method: "roots/list", params: {} } satisfies modern.InputRequest;

function inputRequired(inputRequests: Record<string, modern.InputRequest>, state?: Record<string, unknown>): modern.InputRequiredResult {
  return state === undefined ? { resultType: "input_required", inputRequests } : { resultType: "input_required", inputRequests, requestState: signState(state) };
}

/** A field of an accepted elicitation, a sampled text, or a roots count; undefined when the answer is not there. */
function elicited(answer: modern.InputResponse | undefined, field: string): unknown {
  return answer !== undefined && "action" in answer && answer.action === "accept" ? answer.content?.[field] : undefined;
}

function sampledText(answer: modern.InputResponse | undefined): string | undefined {
  if (answer === undefined || !("model" in answer)) return undefined;
  const content = answer.content;
  return !Array.isArray(content) && content.type === "text" ? content.text : undefined;
}

function rootsOf(answer: modern.InputResponse | undefined): modern.Root[] | undefined {
  return answer !== undefined && "roots" in answer ? answer.roots : undefined;
}

function createModernDispatcher(listeners: Set<Listener>) {
  const notifyListeners = (wanted: "toolsListChanged" | "promptsListChanged", method: "notifications/tools/list_changed" | "notifications/prompts/list_changed"): void => {
    for (const listener of listeners) {
      if (listener.filter[wanted] === true) listener.reply.event(modern.notification(method, { _meta: { [modern.MetaKey.subscriptionId]: listener.id } }));
    }
  };

  const callTool = async (
    params: modern.CallToolRequestParams,
    ctx: modern.ServerRequestContext<"tools/call", modern.CallToolRequestParams, ModernContext>,
  ): Promise<modern.HandlerResult<modern.ResultOf<"tools/call">>> => {
    const { name, inputResponses = {} } = params;
    const args = params.arguments ?? {};
    const state = params.requestState === undefined ? undefined : verifyState(params.requestState);
    if (params.requestState !== undefined && (state === undefined || state["tool"] !== name)) {
      throw new modern.RpcError(modern.ErrorCode.InvalidParams, "requestState integrity check failed");
    }
    const logLevel = ctx._meta[modern.MetaKey.logLevel];
    const log = (level: modern.LoggingLevel, data: string): void => {
      if (logAllowed(logLevel, level)) ctx.notify("notifications/message", { level, logger: SERVER_INFO.name, data });
    };
    const shared = await sharedTool(name, args, { log, progress: ctx.progress, progressToken: ctx._meta.progressToken, signal: ctx.signal });
    if (shared !== undefined) return shared;

    switch (name) {
      case "test_sampling": {
        ctx.requireClientCapability("sampling");
        const answer = sampledText(inputResponses["sample"]);
        if (answer !== undefined) return { content: [text(`LLM response: ${answer}`)] };
        return inputRequired({ sample: sampleRequest(stringArg(args, "prompt"), 100) });
      }
      case "test_elicitation":
      case "test_elicitation_sep1034_defaults":
      case "test_elicitation_sep1330_enums": {
        ctx.requireClientCapability("elicitation");
        const answer = inputResponses["form"];
        if (answer !== undefined && "action" in answer) {
          return { content: [text(`User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`)] };
        }
        const form = elicitationForm(name, args);
        return inputRequired({ form: { method: "elicitation/create", params: form } });
      }
      case "test_missing_capability":
        ctx.requireClientCapability("sampling");
        return { content: [text("Success")] };
      case "test_input_required_result_elicitation": {
        const userName = elicited(inputResponses["user_name"], "name");
        return typeof userName === "string" ? { content: [text(`Hello, ${userName}!`)] } : inputRequired({ user_name: ELICIT_NAME });
      }
      case "test_input_required_result_sampling": {
        const answer = sampledText(inputResponses["capital_question"]);
        return answer !== undefined ? { content: [text(`Sampling result: ${answer}`)] } : inputRequired({ capital_question: sampleRequest("What is the capital of France?", 100) });
      }
      case "test_input_required_result_list_roots": {
        const roots = rootsOf(inputResponses["client_roots"]);
        return roots !== undefined ? { content: [text(`Found ${roots.length} root(s)`)] } : inputRequired({ client_roots: LIST_ROOTS });
      }
      case "test_input_required_result_request_state":
      case "test_input_required_result_tampered_state":
        if (state !== undefined && elicited(inputResponses["confirm"], "ok") === true) {
          return { content: [text(name.endsWith("tampered_state") ? "integrity-ok: state verified" : "state-ok: requestState validated")] };
        }
        return inputRequired({ confirm: ELICIT_CONFIRM }, { tool: name });
      case "test_input_required_result_multiple_inputs": {
        const userName = elicited(inputResponses["user_name"], "name");
        const greeting = sampledText(inputResponses["greeting"]);
        const roots = rootsOf(inputResponses["client_roots"]);
        if (state !== undefined && typeof userName === "string" && greeting !== undefined && roots !== undefined) {
          return { content: [text(`Name: ${userName}; Greeting: ${greeting}; Roots: ${roots.length}`)] };
        }
        return inputRequired({ user_name: ELICIT_NAME, greeting: sampleRequest("Generate a greeting", 50), client_roots: LIST_ROOTS }, { tool: name });
      }
      case "test_input_required_result_multi_round": {
        const userName = elicited(inputResponses["step1"], "name");
        if (state?.["round"] === 1 && typeof userName === "string") {
          const ask = { type: "object" as const, properties: { color: { type: "string" as const } }, required: ["color"] };
          return inputRequired(
            { step2: { method: "elicitation/create", params: { message: "Step 2: What is your favorite color?", requestedSchema: ask } } },
            { tool: name, round: 2, name: userName },
          );
        }
        const color = elicited(inputResponses["step2"], "color");
        if (state?.["round"] === 2 && typeof color === "string") return { content: [text(`Multi-round complete for ${String(state["name"])} who likes ${color}`)] };
        const ask = { type: "object" as const, properties: { name: { type: "string" as const } }, required: ["name"] };
        return inputRequired({ step1: { method: "elicitation/create", params: { message: "Step 1: What is your name?", requestedSchema: ask } } }, { tool: name, round: 1 });
      }
      case "test_input_required_result_capabilities": {
        const answered = Object.keys(inputResponses);
        if (answered.length > 0) return { content: [text(`capabilities-ok: received ${answered.join(",")}`)] };
        const declared = ctx._meta[modern.MetaKey.clientCapabilities];
        const requests: Record<string, modern.InputRequest> = {};
        if (declared?.elicitation !== undefined) {
          requests["elicit_input"] = {
            method: "elicitation/create",
            params: { message: "Elicitation input", requestedSchema: { type: "object", properties: { value: { type: "string" } }, required: ["value"] } },
          };
        }
        if (declared?.sampling !== undefined) requests["sample_input"] = sampleRequest("Sample request", 50);
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

  return modern.createServerDispatcher<ModernContext>(
    {
      "server/discover": () => ({
        supportedVersions: [modern.PROTOCOL_VERSION],
        capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: {}, completions: {} },
        ttlMs: LIST_TTL_MS,
        cacheScope: "public",
        _meta: { [modern.MetaKey.serverInfo]: SERVER_INFO },
      }),
      "tools/list": () => ({
        tools: toolsOf("modern").map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
        ttlMs: LIST_TTL_MS,
        cacheScope: "public",
      }),
      "tools/call": callTool,
      "resources/list": () => ({ resources: RESOURCES, ttlMs: LIST_TTL_MS, cacheScope: "public" }),
      "resources/templates/list": () => ({ resourceTemplates: RESOURCE_TEMPLATES, ttlMs: LIST_TTL_MS, cacheScope: "public" }),
      "resources/read": ({ uri }) => ({ contents: readResource(uri) ?? missingResource(uri), ttlMs: LIST_TTL_MS, cacheScope: "private" }),
      "prompts/list": () => ({ prompts: [...PROMPTS, INPUT_REQUIRED_PROMPT], ttlMs: LIST_TTL_MS, cacheScope: "public" }),
      "prompts/get": ({ name, arguments: args, inputResponses = {} }) => {
        if (name !== INPUT_REQUIRED_PROMPT.name) return { messages: promptMessages(name, args) };
        const context = elicited(inputResponses["user_context"], "context");
        if (typeof context === "string") return { messages: [{ role: "user", content: text(`Prompt with context: ${context}`) }] };
        const ask = { type: "object" as const, properties: { context: { type: "string" as const } }, required: ["context"] };
        return inputRequired({ user_context: { method: "elicitation/create", params: { message: "What context should the prompt use?", requestedSchema: ask } } });
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
          const listener: Listener = { id: ctx.id, filter: honoured, reply: ctx.context.reply, end: () => resolve({ _meta: subscription }) };
          listeners.add(listener);
          ctx.signal.addEventListener("abort", () => listeners.delete(listener), { once: true });
        });
      },
    },
    { send: (message, context) => context.reply.event(message) },
  );
}

// ---- 2025-11-25: sessions ----------------------------------------------------------------------------------

interface Session {
  readonly id: string;
  logLevel: string | undefined;
  readonly subscriptions: Set<string>;
  /** Server→client requests in flight, each on the stream of the request that made it. */
  readonly requesters: Set<legacy.ServerRequester>;
  readonly nextId: () => number;
  /** The standalone GET stream, if the client opened one. */
  standalone: ServerResponse | undefined;
}

interface LegacyContext {
  readonly session: Session;
  readonly reply: Reply;
}

/** Sends server→client requests on the reply of the request being handled; answers come back as POSTs. */
async function ask<M extends legacy.ServerRequestMethod>(
  context: LegacyContext,
  method: M,
  params: legacy.ServerRequests[M]["params"],
  signal: AbortSignal,
): Promise<legacy.ServerRequests[M]["result"]> {
  const requester = legacy.createServerRequester((message) => context.reply.event(message), { nextId: context.session.nextId });
  context.session.requesters.add(requester);
  try {
    return await requester.request(method, params, { signal });
  } finally {
    context.session.requesters.delete(requester);
  }
}

function createLegacyDispatcher() {
  const callTool = async (
    params: legacy.CallToolRequestParams,
    ctx: legacy.ServerRequestContext<"tools/call", legacy.CallToolRequestParams, LegacyContext>,
  ): Promise<legacy.CallToolResult> => {
    const { name } = params;
    const args = params.arguments ?? {};
    const log = (level: legacy.LoggingLevel, data: string): void => {
      const wanted = ctx.context.session.logLevel ?? "debug";
      if (logAllowed(wanted, level)) ctx.notify("notifications/message", { level, logger: SERVER_INFO.name, data });
    };
    const shared = await sharedTool(name, args, { log, progress: ctx.progress, progressToken: ctx._meta?.progressToken, signal: ctx.signal });
    if (shared !== undefined) return shared;
    switch (name) {
      case "test_sampling": {
        const result = await ask(
          ctx.context,
          "sampling/createMessage",
          { messages: [{ role: "user", content: { type: "text", text: stringArg(args, "prompt") } }], maxTokens: 100 },
          ctx.signal,
        );
        // A client may answer with a task instead (task-augmented requests); this server never asks for one.
        const answer = "content" in result && !Array.isArray(result.content) && result.content.type === "text" ? result.content.text : "No response";
        return { content: [text(`LLM response: ${answer}`)] };
      }
      case "test_elicitation":
      case "test_elicitation_sep1034_defaults":
      case "test_elicitation_sep1330_enums": {
        const form = elicitationForm(name, args);
        const result = await ask(ctx.context, "elicitation/create", form, ctx.signal);
        if (!("action" in result)) return { content: [text("The client answered with a task, which this server never asks for")], isError: true };
        return { content: [text(`User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`)] };
      }
    }
    throw new legacy.RpcError(legacy.ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  };

  return legacy.createServerDispatcher<LegacyContext>(
    {
      initialize: () => ({
        protocolVersion: legacy.PROTOCOL_VERSION,
        capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { subscribe: true }, logging: {}, completions: {} },
        serverInfo: SERVER_INFO,
      }),
      ping: () => ({}),
      "tools/list": () => ({ tools: toolsOf("legacy").map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) }),
      "tools/call": callTool,
      "resources/list": () => ({ resources: RESOURCES }),
      "resources/templates/list": () => ({ resourceTemplates: RESOURCE_TEMPLATES }),
      "resources/read": ({ uri }) => ({ contents: readResource(uri) ?? missingResource(uri) }),
      "resources/subscribe": ({ uri }, ctx) => (ctx.context.session.subscriptions.add(uri), {}),
      "resources/unsubscribe": ({ uri }, ctx) => (ctx.context.session.subscriptions.delete(uri), {}),
      "prompts/list": () => ({ prompts: PROMPTS }),
      "prompts/get": ({ name, arguments: args }) => ({ messages: promptMessages(name, args) }),
      "logging/setLevel": ({ level }, ctx) => ((ctx.context.session.logLevel = level), {}),
      "completion/complete": () => ({ completion: { values: [], total: 0, hasMore: false } }),
      "notifications/initialized": () => undefined,
    },
    // One dispatcher serves every session; request ids are unique per session only.
    { send: (message, context) => context.reply.event(message), peerOf: (context) => context.session },
  );
}

// ---- HTTP ------------------------------------------------------------------------------------------------------

/** Reads the body up to `limit` bytes; undefined once it has answered 413 itself. */
function readBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const declared = Number(header(req, "content-length") ?? 0);
    const tooLarge = (): void => {
      res.setHeader("Connection", "close");
      sendError(res, 413, modern.ErrorCode.InvalidRequest, `Request body exceeds ${limit} bytes`);
      req.destroy();
      resolve(undefined);
    };
    if (declared > limit) return tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return tooLarge();
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(undefined));
  });
}

function acceptsReplies(req: IncomingMessage): boolean {
  const accept = header(req, "accept");
  return accept === undefined || /application\/json|text\/event-stream|\*\/\*/.test(accept);
}

export async function startServer(options: ExampleServerOptions = {}): Promise<ExampleServer> {
  const host = options.host ?? "127.0.0.1";
  const limit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const policy: OriginPolicy = {
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
  };
  const listeners = new Set<Listener>();
  const sessions = new Map<string, Session>();
  const modernDispatcher = createModernDispatcher(listeners);
  const legacyDispatcher = createLegacyDispatcher();

  const serveModern = async (req: IncomingMessage, res: ServerResponse, body: string): Promise<void> => {
    const parsed = modern.parse(body);
    if (!parsed.ok) return sendJson(res, 400, modern.errorResponse(parsed.id, parsed.error.code, parsed.error.message));
    const message = parsed.message;
    if (message.kind === "result" || message.kind === "error") {
      // A stateless server never asks the client anything, so there is nothing a response could answer.
      return sendJson(res, 400, modern.errorResponse(undefined, modern.ErrorCode.InvalidRequest, "Unexpected response: this server sends no requests"));
    }
    const tool = message.kind === "request" && message.method === "tools/call" ? toolsOf("modern").find((entry) => entry.name === message.params?.name) : undefined;
    const checked = modern.checkHttpHeaders(req.headers, message, tool === undefined ? {} : { tool });
    if (!checked.ok) return sendJson(res, checked.status, checked.response);
    const reply = new Reply(res);
    const gone = new AbortController();
    res.on("close", () => gone.abort());
    const response = await modernDispatcher.handle(message, { reply }, gone.signal);
    reply.finish(response, modern.httpStatusOf(response));
  };

  const serveLegacy = async (req: IncomingMessage, res: ServerResponse, body: string, sessionId: string | undefined): Promise<void> => {
    const parsed = legacy.parse(body);
    if (!parsed.ok) return sendJson(res, 400, legacy.errorResponse(parsed.id, parsed.error.code, parsed.error.message));
    const message = parsed.message;
    const id = message.kind === "request" ? message.id : undefined;
    let session = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (sessionId !== undefined && session === undefined) return sendError(res, 404, legacy.ErrorCode.InvalidRequest, "Session not found", id);
    const version = header(req, "mcp-protocol-version");
    if (session !== undefined && version !== undefined && version !== legacy.PROTOCOL_VERSION) {
      return sendError(res, 400, legacy.ErrorCode.InvalidRequest, `Unsupported MCP-Protocol-Version: ${version}`, id);
    }
    if (session === undefined) {
      if (message.kind !== "request" || message.method !== "initialize")
        return sendError(res, 400, legacy.ErrorCode.InvalidRequest, "Missing Mcp-Session-Id: initialize first", id);
      let counter = 0;
      session = { id: randomUUID(), logLevel: undefined, subscriptions: new Set(), requesters: new Set(), nextId: () => ++counter, standalone: undefined };
      const response = await legacyDispatcher.handle(message, { session, reply: new Reply(res) });
      if (response !== undefined && "result" in response) sessions.set(session.id, session);
      const headers = response !== undefined && "result" in response ? { "Mcp-Session-Id": session.id } : {};
      return sendJson(res, response !== undefined && "error" in response ? 400 : 200, response ?? {}, headers);
    }
    if (message.kind === "result" || message.kind === "error") {
      for (const requester of session.requesters) if (requester.receive(message)) break;
      return void res.writeHead(202).end();
    }
    const reply = new Reply(res);
    const gone = new AbortController();
    res.on("close", () => gone.abort());
    const response = await legacyDispatcher.handle(message, { session, reply }, gone.signal);
    reply.finish(response, 200);
  };

  const openStandalone = (res: ServerResponse, session: Session): void => {
    if (session.standalone !== undefined) return sendError(res, 409, legacy.ErrorCode.InvalidRequest, "A standalone stream is already open for this session");
    session.standalone = res;
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
    res.write(": stream open\n\n");
    res.on("close", () => {
      if (session.standalone === res) session.standalone = undefined;
    });
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const origin = checkOrigin(req.headers, policy);
    if (!origin.ok) return sendError(res, origin.status, modern.ErrorCode.InvalidRequest, origin.message);
    if (new URL(req.url ?? "/", "http://localhost").pathname !== PATH) return sendError(res, 404, modern.ErrorCode.InvalidRequest, `Not found: the endpoint is ${PATH}`);
    const sessionId = header(req, "mcp-session-id");
    const session = sessionId === undefined ? undefined : sessions.get(sessionId);

    if (req.method === "GET") {
      // 2026-07-28 has no GET stream (subscriptions/listen replaces it); a legacy session may open one.
      if (session !== undefined) return openStandalone(res, session);
      res.setHeader("Allow", "POST, DELETE");
      return sendError(res, sessionId === undefined ? 405 : 404, modern.ErrorCode.InvalidRequest, sessionId === undefined ? "Method not allowed" : "Session not found");
    }
    if (req.method === "DELETE") {
      if (session === undefined) return sendError(res, sessionId === undefined ? 400 : 404, legacy.ErrorCode.InvalidRequest, "Session not found");
      sessions.delete(session.id);
      session.standalone?.end();
      for (const requester of session.requesters) requester.close(new Error("Session terminated"));
      return void res.writeHead(204).end();
    }
    if (req.method !== "POST") {
      res.setHeader("Allow", "GET, POST, DELETE");
      return sendError(res, 405, modern.ErrorCode.InvalidRequest, "Method not allowed");
    }
    if (!/^application\/json\s*(;|$)/i.test(header(req, "content-type") ?? ""))
      return sendError(res, 415, modern.ErrorCode.InvalidRequest, "Content-Type must be application/json");
    if (!acceptsReplies(req)) return sendError(res, 406, modern.ErrorCode.InvalidRequest, "Accept must allow application/json or text/event-stream");
    const body = await readBody(req, res, limit);
    if (body === undefined) return;

    const version = header(req, "mcp-protocol-version");
    const isLegacy = sessionId !== undefined || LEGACY_VERSIONS.some((legacyVersion) => legacyVersion === version) || (version === undefined && isInitialize(body));
    return isLegacy ? serveLegacy(req, res, body, sessionId) : serveModern(req, res, body);
  };

  const onError = options.onError ?? ((error: unknown) => console.error(error));
  const server: Server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      onError(error);
      // Every path above answers on its own; this only keeps a bug from taking the process down.
      if (!res.headersSent) sendError(res, 500, modern.ErrorCode.InternalError, "Internal error");
      else res.end();
    });
  });
  server.on("clientError", (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}${PATH}`,
    close: async () => {
      for (const listener of listeners) listener.end();
      for (const session of sessions.values()) session.standalone?.end();
      sessions.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function isInitialize(body: string): boolean {
  const parsed = legacy.parse(body);
  return parsed.ok && parsed.message.kind === "request" && parsed.message.method === "initialize";
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { port: { type: "string", default: "3000" }, host: { type: "string", default: "127.0.0.1" } } });
  const server = await startServer({ port: Number(values.port), host: values.host });
  console.log(`MCP example server on ${server.url}`);
  const stop = (): void => void server.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
