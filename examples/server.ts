/**
 * An MCP server on the high-level API: its tools, prompts and resources declared once, served to
 * 2026-07-28 (stateless) and 2025 (sessions) clients alike on one endpoint (`createHttpHandler`
 * routes each request to its era) or over stdio (`serveStdio`).
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
  createMcpServer,
  LEGACY_VERSIONS,
  serveStdio,
  toNodeListener,
  type HttpHandler,
  type ListKind,
  type McpContext,
  type McpServer,
  type OriginPolicy,
} from "../generated/index.js";
import * as legacy from "../generated/2025-11-25/index.js";
import * as modern from "../generated/2026-07-28/index.js";
import {
  DEFAULTS_FORM,
  ENUMS_FORM,
  ERROR_TOOL_TEXT,
  INPUT_REQUIRED_PROMPT,
  JSON_SCHEMA_2020_12,
  LOG_LINES,
  PROMPTS,
  readResource,
  renderPrompt,
  RESOURCE_TEMPLATES,
  RESOURCES,
  SERVER_INFO,
  STATIC_TOOL_CONTENT,
  text,
} from "./fixture.js";
import { exampleAuth } from "./auth.js";
import { joinFleet } from "./redis-fleet.js";

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
const NO_RESPONSE = "No response";

/** A pause in a handler that a cancelled request cuts short. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
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

type Answers = { readonly inputResponses?: modern.InputResponses | undefined };

/** A field of an accepted elicitation, or undefined. */
function elicited(params: Answers, key: string, field: string): unknown {
  const answer = modern.inputResponse(params, key, "elicitation/create");
  return answer?.action === "accept" ? answer.content?.[field] : undefined;
}

function sampledText(params: Answers, key: string): string | undefined {
  const content = modern.inputResponse(params, key, "sampling/createMessage")?.content;
  return content !== undefined && !Array.isArray(content) && content.type === "text" ? content.text : undefined;
}

const userResponse = (action: string, content: object | undefined) =>
  ({ content: [text(`User response: action=${action}, content=${JSON.stringify(content ?? {})}`)] }) as const;

const PROMPT_ARGS = { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] } as const;
const MESSAGE_ARGS = { type: "object", properties: { message: { type: "string" } }, required: ["message"] } as const;

/** Everything the server serves, declared once for both eras. */
/**
 * The example's server. `announce` tells subscribers that a list changed: by default this instance's own; in a fleet
 * every instance's, through the bus (each then calls `listChanged` for the listeners and session streams it holds).
 */
function declareServer(announce?: (kind: ListKind) => void) {
  const server = createMcpServer([modern.MCP_RELEASE, legacy.MCP_RELEASE], { info: SERVER_INFO });
  const changed = announce ?? ((kind: ListKind) => server.listChanged(kind));

  for (const [name, content] of Object.entries(STATIC_TOOL_CONTENT))
    server.tool({ name, description: `Returns ${name.slice(5).replaceAll("_", " ")}` }, () => ({
      content: [...content],
    }));
  server
    .tool(
      {
        name: "echo",
        description: "Returns the text it is given",
        inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      },
      ({ text: value }) => ({ content: [text(value)] }),
    )
    .tool({ name: "test_error_handling", description: "Always fails with isError: true" }, () => ({
      content: [text(ERROR_TOOL_TEXT)],
      isError: true,
    }))
    .tool({ name: "test_tool_with_logging", description: "Logs three messages while it runs" }, async (_args, ctx) => {
      for (const line of LOG_LINES) {
        ctx.log("info", line);
        await sleep(20, ctx.signal);
      }
      return { content: [text("Tool with logging executed successfully")] };
    })
    .tool(
      { name: "test_tool_with_progress", description: "Reports progress 0, 50 and 100 of 100" },
      async (_args, ctx) => {
        for (const progress of [0, 50, 100]) {
          ctx.progress(progress, 100, `Completed step ${progress} of 100`);
          await sleep(20, ctx.signal);
        }
        return { content: [text(String(ctx.raw._meta?.progressToken ?? "no progress token"))] };
      },
    )
    .tool(
      {
        name: "json_schema_2020_12_tool",
        description: "Declares its arguments with JSON Schema 2020-12 keywords",
        inputSchema: JSON_SCHEMA_2020_12,
      },
      (args) => ({ content: [text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`)] }),
    );

  declareSessionsOnly(server.only("sessions"));
  declareStatelessOnly(server.only("stateless"), changed);

  for (const resource of RESOURCES) server.resource(resource, (uri) => ({ contents: readResource(uri) ?? [] }));
  for (const template of RESOURCE_TEMPLATES)
    server.resourceTemplate(template, (uri) => ({ contents: readResource(uri) ?? [] }));

  for (const prompt of PROMPTS)
    server.prompt(prompt, (args) => {
      const messages = renderPrompt(prompt.name, args);
      if (typeof messages === "string") throw new modern.RpcError(modern.ErrorCode.InvalidParams, messages);
      return { messages };
    });
  server.only("stateless").prompt(INPUT_REQUIRED_PROMPT, (_args, ctx) => {
    const context = elicited(ctx.params, "user_context", "context");
    if (typeof context === "string")
      return { messages: [{ role: "user", content: text(`Prompt with context: ${context}`) }] };
    return ctx.raw.context.inputRequired({ user_context: askFor("context", "What context should the prompt use?") });
  });
  return server;
}

const SAMPLING = {
  name: "test_sampling",
  description: "Asks the client's LLM for a completion",
  inputSchema: PROMPT_ARGS,
};
const ELICITATION = { name: "test_elicitation", description: "Asks the user for input", inputSchema: MESSAGE_ARGS };
const ENUMS = { name: "test_elicitation_sep1330_enums", description: "Elicits single- and multi-select enums" };
const messageForm = (message: string) => ({
  message,
  requestedSchema: {
    type: "object" as const,
    properties: { response: { type: "string" as const } },
    required: ["response"],
  },
});

/** The tools that ask the client something, in a 2025 session: a request to the client on the request's stream. */
function declareSessionsOnly(server: McpServer<typeof legacy.MCP_RELEASE>): void {
  const elicit = async (form: legacy.ElicitRequestParams, ctx: McpContext<typeof legacy.MCP_RELEASE>) => {
    const result = await ctx.raw.context.request("elicitation/create", form, { signal: ctx.signal });
    return "action" in result
      ? userResponse(result.action, result.content)
      : { content: [text(NO_RESPONSE)], isError: true };
  };
  server
    .tool(SAMPLING, async ({ prompt }, ctx) => {
      const messages = [{ role: "user" as const, content: { type: "text" as const, text: prompt } }];
      const result = await ctx.raw.context.request(
        "sampling/createMessage",
        { messages, maxTokens: 100 },
        { signal: ctx.signal },
      );
      // A client may answer with a task instead (task-augmented requests); this server never asks for one.
      const content = "content" in result ? result.content : undefined;
      const answer =
        content !== undefined && !Array.isArray(content) && content.type === "text" ? content.text : NO_RESPONSE;
      return { content: [text(`LLM response: ${answer}`)] };
    })
    .tool(ELICITATION, ({ message }, ctx) => elicit(messageForm(message), ctx))
    .tool(ENUMS, (_args, ctx) => elicit(ENUMS_FORM, ctx))
    // 2026-07-28's ElicitResult admits no fractional number, so a form defaulting to 95.5 is a 2025 tool alone.
    .tool(
      { name: "test_elicitation_sep1034_defaults", description: "Elicits a form whose fields have defaults" },
      (_args, ctx) => elicit(DEFAULTS_FORM, ctx),
    );
}

/** What only 2026-07-28 has: `input_required` rounds, signed request state, subscriptions, Mcp-Param headers. */
function declareStatelessOnly(server: McpServer<typeof modern.MCP_RELEASE>, changed: (kind: ListKind) => void): void {
  const answer = (value: string) => ({ content: [text(value)] });
  const elicit = (form: modern.ElicitRequestParams, ctx: McpContext<typeof modern.MCP_RELEASE>) => {
    ctx.raw.requireClientCapability("elicitation");
    const reply = modern.inputResponse(ctx.params, "form", "elicitation/create");
    if (reply !== undefined) return userResponse(reply.action, reply.content);
    return ctx.raw.context.inputRequired({ form: { method: "elicitation/create", params: form } });
  };
  server
    .tool(SAMPLING, ({ prompt }, ctx) => {
      ctx.raw.requireClientCapability("sampling");
      const reply = sampledText(ctx.params, "sample");
      return reply === undefined
        ? ctx.raw.context.inputRequired({ sample: sampleRequest(prompt, 100) })
        : answer(`LLM response: ${reply}`);
    })
    .tool(ELICITATION, ({ message }, ctx) => elicit(messageForm(message), ctx))
    .tool(ENUMS, (_args, ctx) => elicit(ENUMS_FORM, ctx))
    .tool({ name: "test_missing_capability", description: "Needs the client's sampling capability" }, (_args, ctx) => {
      ctx.raw.requireClientCapability("sampling");
      return answer("Success");
    })
    .tool(
      { name: "test_input_required_result_elicitation", description: "Asks for the user's name, then greets" },
      (_args, ctx) => {
        const userName = elicited(ctx.params, "user_name", "name");
        return typeof userName === "string"
          ? answer(`Hello, ${userName}!`)
          : ctx.raw.context.inputRequired({ user_name: ELICIT_NAME });
      },
    )
    .tool(
      { name: "test_input_required_result_sampling", description: "Asks the client's LLM a question" },
      (_args, ctx) => {
        const reply = sampledText(ctx.params, "capital_question");
        return reply !== undefined
          ? answer(`Sampling result: ${reply}`)
          : ctx.raw.context.inputRequired({ capital_question: sampleRequest("What is the capital of France?", 100) });
      },
    )
    .tool(
      { name: "test_input_required_result_list_roots", description: "Asks for the client's roots" },
      (_args, ctx) => {
        const roots = modern.inputResponse(ctx.params, "client_roots", "roots/list")?.roots;
        return roots !== undefined
          ? answer(`Found ${roots.length} root(s)`)
          : ctx.raw.context.inputRequired({ client_roots: LIST_ROOTS });
      },
    );
  for (const [name, ok] of [
    ["test_input_required_result_request_state", "state-ok: requestState validated"],
    ["test_input_required_result_tampered_state", "integrity-ok: state verified"],
  ] as const)
    server.tool({ name, description: "Asks for a confirmation and checks its requestState" }, (_args, ctx) =>
      ctx.raw.context.state !== undefined && elicited(ctx.params, "confirm", "ok") === true
        ? answer(ok)
        : ctx.raw.context.inputRequired({ confirm: ELICIT_CONFIRM }, { tool: name }),
    );
  server
    .tool(
      {
        name: "test_input_required_result_multiple_inputs",
        description: "Asks for a name, a greeting and the roots at once",
      },
      (_args, ctx) => {
        const userName = elicited(ctx.params, "user_name", "name");
        const greeting = sampledText(ctx.params, "greeting");
        const roots = modern.inputResponse(ctx.params, "client_roots", "roots/list")?.roots;
        if (
          ctx.raw.context.state !== undefined &&
          typeof userName === "string" &&
          greeting !== undefined &&
          roots !== undefined
        )
          return answer(`Name: ${userName}; Greeting: ${greeting}; Roots: ${roots.length}`);
        return ctx.raw.context.inputRequired(
          { user_name: ELICIT_NAME, greeting: sampleRequest("Generate a greeting", 50), client_roots: LIST_ROOTS },
          { tool: "multiple_inputs" },
        );
      },
    )
    .tool(
      { name: "test_input_required_result_multi_round", description: "Asks two questions, one round each" },
      (_args, ctx) => {
        const { state, inputRequired } = ctx.raw.context;
        const userName = elicited(ctx.params, "step1", "name");
        if (state?.["round"] === 1 && typeof userName === "string")
          return inputRequired(
            { step2: askFor("color", "Step 2: What is your favorite color?") },
            { round: 2, name: userName },
          );
        const color = elicited(ctx.params, "step2", "color");
        if (state?.["round"] === 2 && typeof color === "string")
          return answer(`Multi-round complete for ${String(state["name"])} who likes ${color}`);
        return inputRequired({ step1: askFor("name", "Step 1: What is your name?") }, { round: 1 });
      },
    )
    .tool(
      { name: "test_input_required_result_capabilities", description: "Asks only for what the client declared" },
      (_args, ctx) => {
        const answered = Object.keys(ctx.params.inputResponses ?? {});
        if (answered.length > 0) return answer(`capabilities-ok: received ${answered.join(",")}`);
        const declared = ctx.raw._meta[modern.MetaKey.clientCapabilities];
        const requests: Record<string, modern.InputRequest> = {};
        if (declared.elicitation !== undefined) requests["elicit_input"] = askFor("value", "Elicitation input");
        if (declared.sampling !== undefined) requests["sample_input"] = sampleRequest("Sample request", 50);
        if (Object.keys(requests).length === 0) return answer("No supported capabilities declared");
        return ctx.raw.context.inputRequired(requests, { tool: "capabilities" });
      },
    )
    .tool(
      { name: "test_streaming_elicitation", description: "Streams a progress notification before its result" },
      () => answer("Streaming complete"),
    )
    .tool(
      { name: "test_logging_tool", description: "Logs only when the request asked for a log level" },
      (_args, ctx) => {
        ctx.log("info", "Diagnostic trace logging activated");
        return answer("Logging evaluated");
      },
    )
    .tool({ name: "test_trigger_tool_change", description: "Announces a tools/list change to subscribers" }, () => {
      changed("tools");
      return answer("Mutation triggered");
    })
    .tool({ name: "test_trigger_prompt_change", description: "Announces a prompts/list change to subscribers" }, () => {
      changed("prompts");
      return answer("Mutation triggered");
    })
    // Mirrored into an Mcp-Param-Region header by clients; the era checks that header against the body.
    .tool(
      {
        name: "test_header_param",
        description: "Echoes a region that also travels as an Mcp-Param header",
        inputSchema: {
          type: "object",
          properties: { region: { type: "string", description: "Where to run", "x-mcp-header": "Region" } },
          required: ["region"],
        },
      },
      ({ region }) => answer(`Region: ${region}`),
    );
}

// ---- Transports ---------------------------------------------------------------------------------------------

export async function startServer(options: ExampleServerOptions = {}): Promise<ExampleServer> {
  const host = options.host ?? "127.0.0.1";
  const onError = options.onError ?? ((error: unknown) => console.error(error));
  const fleet =
    options.redis === undefined
      ? undefined
      : await joinFleet(options.redis, options.requestStateSecret ?? process.env["MCP_REQUEST_STATE_SECRET"], onError);
  const mcp = declareServer(fleet === undefined ? undefined : (kind) => fleet.announce({ kind }));
  await fleet?.hear((change) => mcp.listChanged(change["kind"] as ListKind));
  const auth = options.authIssuer === undefined ? undefined : exampleAuth(options.authIssuer);
  const handler = createHttpHandler({
    ...fleet?.transport,
    ...auth?.transport,
    ...mcp.eras({
      sessions: { versions: LEGACY_VERSIONS },
      ...(fleet === undefined ? {} : { stateless: { requestState: fleet.requestState } }),
    }),
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
      mcp.close();
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
      ...declareServer().eras({ sessions: { versions: LEGACY_VERSIONS } }),
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
