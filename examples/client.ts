/**
 * A dual-era MCP client over Streamable HTTP, written on the generated bindings alone.
 *
 * It tries 2026-07-28 first (server/discover with per-request `_meta`). A modern error signal
 * (-32020/-32021/-32022) proves the server modern; any other answer means a legacy server, reached with
 * `initialize` at `bestLegacyVersion` of what it supports. Then it lists the tools (dropping those whose
 * `x-mcp-header` annotations are invalid), calls them, reads a resource and gets a prompt. Requests the
 * server makes of the client (sampling, elicitation, roots) are answered by one client dispatcher, whether
 * they come as input_required results (modern) or as requests on an SSE stream (legacy).
 *
 *   npm run example:client -- http://127.0.0.1:3000/mcp
 *
 * It also follows the conformance suite's client contract: the server URL is the last argument,
 * MCP_CONFORMANCE_PROTOCOL_VERSION names the protocol to speak and MCP_CONFORMANCE_CONTEXT may list the
 * tool calls to make.
 */
import { pathToFileURL } from "node:url";
import { bestLegacyVersion, isModernSignal, LEGACY_VERSIONS } from "../generated/index.js";
import * as legacy from "../generated/2025-11-25/index.js";
import * as modern from "../generated/2026-07-28/index.js";

const CLIENT_INFO = { name: "mcp-bindgen-example-client", version: "0.1.0" };
const CLIENT_CAPABILITIES = { elicitation: {}, sampling: {}, roots: {} };
const RECONNECT_ATTEMPTS = 3;

export interface ToolCall {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
}

export interface ClientOptions {
  /** The protocol version to speak; defaults to modern first with a legacy fallback. */
  readonly protocolVersion?: string;
  /** The calls to make; defaults to one call of every listed tool with arguments made up from its schema. */
  readonly toolCalls?: readonly ToolCall[];
  readonly log?: (line: string) => void;
}

// ---- Answers to what a server asks of the client -----------------------------------------------------------

/** A value for each field of a form: its default, else its first choice, else something of its type. */
function fillForm(schema: { readonly properties: Readonly<Record<string, modern.PrimitiveSchemaDefinition>> }): Record<string, string | number | boolean | string[]> {
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const [key, field] of Object.entries(schema.properties)) {
    if ("default" in field && field.default !== undefined) content[key] = field.default;
    else if ("enum" in field && field.enum.length > 0 && field.type === "string") content[key] = field.enum[0]!;
    else if ("oneOf" in field && field.oneOf.length > 0) content[key] = field.oneOf[0]!.const;
    else if (field.type === "array") content[key] = [];
    else if (field.type === "boolean") content[key] = true;
    else if (field.type === "number" || field.type === "integer") content[key] = 1;
    else content[key] = "example";
  }
  return content;
}

const ROOTS = [{ uri: "file:///tmp/mcp-bindgen-example", name: "Example root" }];

function createAnswers() {
  const handlers = {
    "sampling/createMessage": () => ({
      role: "assistant" as const,
      content: { type: "text" as const, text: "An answer from the example client." },
      model: "example-model",
      stopReason: "endTurn",
    }),
    "elicitation/create": (params: modern.ElicitRequestParams) =>
      "requestedSchema" in params ? { action: "accept" as const, content: fillForm(params.requestedSchema) } : { action: "decline" as const },
    "roots/list": () => ({ roots: ROOTS }),
  };
  return { modern: modern.createClientDispatcher(handlers), legacy: legacy.createClientDispatcher(handlers) };
}

// ---- HTTP: one POST, its JSON or SSE reply, and SSE resumption ------------------------------------------------

interface SseEvent {
  readonly id: string | undefined;
  readonly data: string;
}

/** Splits an SSE body into events, keeping the last event id and the server's `retry:` advice. */
async function* sseEvents(body: ReadableStream<Uint8Array>, stream: { lastEventId: string | undefined; retryMs: number }): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let id: string | undefined;
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
      if (line === "") {
        if (id !== undefined) stream.lastEventId = id;
        if (data.length > 0) yield { id, data: data.join("\n") };
        data = [];
        id = undefined;
        continue;
      }
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "data") data.push(value);
      else if (field === "id") id = value;
      else if (field === "retry" && /^\d+$/.test(value)) stream.retryMs = Number(value);
    }
  }
}

class HttpChannel {
  sessionId: string | undefined;
  /** Legacy sessions send the negotiated version on every request after initialize. */
  protocolVersion: string | undefined;

  constructor(
    private readonly url: string,
    private readonly onMessage: (message: unknown) => void,
  ) {}

  private headers(extra: Readonly<Record<string, string>>): Record<string, string> {
    const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...extra };
    if (this.sessionId !== undefined) headers["Mcp-Session-Id"] = this.sessionId;
    if (this.protocolVersion !== undefined) headers["MCP-Protocol-Version"] = this.protocolVersion;
    return headers;
  }

  /** POSTs one message and hands every message of the reply to onMessage; rejects on an HTTP error without a JSON-RPC body. */
  async post(message: object, extraHeaders: Readonly<Record<string, string>> = {}): Promise<void> {
    const res = await fetch(this.url, { method: "POST", headers: this.headers(extraHeaders), body: JSON.stringify(message) });
    this.sessionId = res.headers.get("mcp-session-id") ?? this.sessionId;
    const type = res.headers.get("content-type") ?? "";
    if (type.includes("text/event-stream") && res.body !== null) return this.readStream(res.body, "id" in message ? message.id : undefined);
    const text = await res.text();
    const parsed = text === "" ? undefined : modern.parse(text);
    // An error whose id the server could not read (id null) still answers this POST: it fails the request sent.
    if (parsed?.ok === true && parsed.message.kind === "error" && parsed.message.id === null) {
      const { code, message: reason, data } = parsed.message.error;
      throw modern.RpcError.custom(code, reason, data);
    }
    if (parsed?.ok === true) return this.onMessage(parsed.message);
    if (!res.ok) throw new Error(`HTTP ${res.status} from ${this.url}${text === "" ? "" : `: ${text.slice(0, 200)}`}`);
  }

  /** Reads an SSE reply; if it ends before the response to `awaited`, resumes with GET and Last-Event-ID after the server's retry delay. */
  private async readStream(body: ReadableStream<Uint8Array>, awaited: unknown): Promise<void> {
    const stream = { lastEventId: undefined as string | undefined, retryMs: 1000 };
    let answered = false;
    let current: ReadableStream<Uint8Array> | null = body;
    for (let attempt = 0; current !== null; attempt++) {
      for await (const event of sseEvents(current, stream)) {
        const parsed = modern.parse(event.data);
        if (!parsed.ok) continue;
        if ((parsed.message.kind === "result" || parsed.message.kind === "error") && parsed.message.id === awaited) answered = true;
        this.onMessage(parsed.message);
        if (answered) return;
      }
      if (awaited === undefined || stream.lastEventId === undefined || attempt >= RECONNECT_ATTEMPTS) return;
      await new Promise((resolve) => setTimeout(resolve, stream.retryMs));
      const res = await fetch(this.url, { method: "GET", headers: { ...this.headers({ Accept: "text/event-stream" }), "Last-Event-ID": stream.lastEventId } });
      current = res.ok ? res.body : null;
    }
  }

  /**
   * Legacy sessions: the standalone GET stream, where a server sends what belongs to no request of ours
   * (SDK servers put server→client requests there). A 405 means the server offers none.
   */
  listen(signal: AbortSignal): void {
    void (async () => {
      const res = await fetch(this.url, { method: "GET", headers: this.headers({ Accept: "text/event-stream" }), signal });
      if (!res.ok || res.body === null) return;
      for await (const event of sseEvents(res.body, { lastEventId: undefined, retryMs: 0 })) {
        const parsed = modern.parse(event.data);
        if (parsed.ok) this.onMessage(parsed.message);
      }
    })().catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.sessionId === undefined) return;
    await fetch(this.url, { method: "DELETE", headers: this.headers({}) }).catch(() => undefined);
  }
}

// ---- The two eras behind one interface ------------------------------------------------------------------------

interface Connection {
  readonly era: "modern" | "legacy";
  listTools(): Promise<modern.Tool[] | legacy.Tool[]>;
  callTool(call: ToolCall): Promise<unknown>;
  readFirstResource(): Promise<unknown>;
  getFirstPrompt(): Promise<unknown>;
  close(): Promise<void>;
}

class ModernConnection implements Connection {
  readonly era = "modern";
  private readonly tools = new Map<string, modern.Tool>();
  private readonly channel: HttpChannel;
  private readonly requester: modern.Requester;

  constructor(url: string, answers: ReturnType<typeof createAnswers>, log: (line: string) => void) {
    this.channel = new HttpChannel(url, (message) => {
      if (!this.requester.receive(message)) log(`server said: ${JSON.stringify(message)}`);
    });
    this.requester = modern.createRequester(
      (message) => {
        const tool = message.method === "tools/call" ? this.tools.get(message.params.name) : undefined;
        return this.channel.post(message, modern.httpHeaders(message, tool === undefined ? {} : { tool }));
      },
      { protocolVersion: modern.PROTOCOL_VERSION, clientInfo: CLIENT_INFO, clientCapabilities: CLIENT_CAPABILITIES, inputHandler: answers.modern },
    );
  }

  /** server/discover, retried once when the server's -32022 lists our version (it may have wanted a fresh choice). */
  async discover(): Promise<modern.DiscoverResult> {
    try {
      return await this.requester.request("server/discover", {});
    } catch (error) {
      if (!(error instanceof modern.RpcError) || error.code !== modern.ErrorCode.UnsupportedProtocolVersion || !supportedOf(error).includes(modern.PROTOCOL_VERSION)) throw error;
      return this.requester.request("server/discover", {});
    }
  }

  async listTools(): Promise<modern.Tool[]> {
    const { tools } = await this.requester.request("tools/list", {});
    this.tools.clear();
    const usable = tools.filter((tool) => modern.toolHeaderParams(tool).ok);
    for (const tool of usable) this.tools.set(tool.name, tool);
    return usable;
  }

  callTool(call: ToolCall): Promise<modern.CallToolResult | modern.InputRequiredResult> {
    return this.requester.request("tools/call", { name: call.name, arguments: call.arguments ?? {} });
  }

  async readFirstResource(): Promise<unknown> {
    const { resources } = await this.requester.request("resources/list", {});
    return resources[0] === undefined ? undefined : this.requester.request("resources/read", { uri: resources[0].uri });
  }

  async getFirstPrompt(): Promise<unknown> {
    const { prompts } = await this.requester.request("prompts/list", {});
    const prompt = prompts[0];
    return prompt === undefined ? undefined : this.requester.request("prompts/get", { name: prompt.name, arguments: promptArguments(prompt) });
  }

  async close(): Promise<void> {
    this.requester.close();
  }
}

class LegacyConnection implements Connection {
  readonly era = "legacy";
  private readonly channel: HttpChannel;
  private readonly requester: legacy.Requester;
  private readonly standalone = new AbortController();
  capabilities: legacy.ServerCapabilities = {};

  constructor(url: string, answers: ReturnType<typeof createAnswers>, log: (line: string) => void) {
    this.channel = new HttpChannel(url, (message) => {
      if (this.requester.receive(message)) return;
      // A request from the server on one of our streams: answer it with a POST of its own.
      void answers.legacy
        .handle(message)
        .then(async (response) => {
          if (response !== undefined) await this.channel.post(response);
        })
        .catch((error: unknown) => log(String(error)));
    });
    this.requester = legacy.createRequester((message) => this.channel.post(message));
  }

  async initialize(version: string): Promise<legacy.InitializeResult> {
    const result = await this.requester.request("initialize", { protocolVersion: version, capabilities: CLIENT_CAPABILITIES, clientInfo: CLIENT_INFO });
    this.capabilities = result.capabilities;
    this.channel.protocolVersion = result.protocolVersion;
    await this.channel.post(legacy.notification("notifications/initialized"));
    this.channel.listen(this.standalone.signal);
    return result;
  }

  async listTools(): Promise<legacy.Tool[]> {
    return (await this.requester.request("tools/list", {})).tools;
  }

  callTool(call: ToolCall): Promise<legacy.CallToolResult | legacy.CreateTaskResult> {
    return this.requester.request("tools/call", { name: call.name, arguments: call.arguments ?? {} });
  }

  async readFirstResource(): Promise<unknown> {
    if (this.capabilities.resources === undefined) return undefined;
    const { resources } = await this.requester.request("resources/list", {});
    return resources[0] === undefined ? undefined : this.requester.request("resources/read", { uri: resources[0].uri });
  }

  async getFirstPrompt(): Promise<unknown> {
    if (this.capabilities.prompts === undefined) return undefined;
    const { prompts } = await this.requester.request("prompts/list", {});
    const prompt = prompts[0];
    return prompt === undefined ? undefined : this.requester.request("prompts/get", { name: prompt.name, arguments: promptArguments(prompt) });
  }

  async close(): Promise<void> {
    this.standalone.abort();
    this.requester.close();
    await this.channel.close();
  }
}

function supportedOf(error: modern.RpcError): string[] {
  const data: unknown = error.data;
  if (typeof data !== "object" || data === null || !("supported" in data) || !Array.isArray(data.supported)) return [];
  return data.supported.filter((version): version is string => typeof version === "string");
}

function promptArguments(prompt: { readonly arguments?: readonly { readonly name: string; readonly required?: boolean }[] }): Record<string, string> {
  return Object.fromEntries((prompt.arguments ?? []).map((argument) => [argument.name, "example"]));
}

/** Arguments for a tool nobody told us how to call: each required property gets a value of its type. */
export function sampleArguments(schema: object): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const required = "required" in schema && Array.isArray(schema.required) ? schema.required : [];
  const properties = "properties" in schema && typeof schema.properties === "object" && schema.properties !== null ? schema.properties : {};
  for (const name of required) {
    if (typeof name !== "string") continue;
    const property: unknown = name in properties ? Object.getOwnPropertyDescriptor(properties, name)?.value : undefined;
    const type = typeof property === "object" && property !== null && "type" in property ? property.type : undefined;
    args[name] = type === "number" || type === "integer" ? 1 : type === "boolean" ? true : type === "object" ? {} : type === "array" ? [] : "example";
  }
  return args;
}

/** Modern first; legacy when the server shows no modern signal, or right away when told to speak a legacy version. */
export async function connect(url: string, options: ClientOptions = {}): Promise<Connection> {
  const log = options.log ?? (() => undefined);
  const answers = createAnswers();
  const legacyWanted = LEGACY_VERSIONS.find((version) => version === options.protocolVersion);
  let supported: readonly string[] = LEGACY_VERSIONS;
  if (legacyWanted === undefined) {
    const connection = new ModernConnection(url, answers, log);
    try {
      await connection.discover();
      return connection;
    } catch (error) {
      if (error instanceof modern.RpcError && isModernSignal(error.code)) {
        supported = supportedOf(error);
        if (supported.includes(modern.PROTOCOL_VERSION) || !LEGACY_VERSIONS.some((version) => supported.includes(version))) throw error;
      }
      log(`no modern server at ${url} (${error instanceof Error ? error.message : String(error)}); trying initialize`);
    }
  }
  const connection = new LegacyConnection(url, answers, log);
  await connection.initialize(legacyWanted ?? bestLegacyVersion(supported));
  return connection;
}

/** Everything the example does with a server; failures of single calls are logged, not fatal. */
export async function run(url: string, options: ClientOptions = {}): Promise<void> {
  const log = options.log ?? (() => undefined);
  const connection = await connect(url, options);
  log(`connected (${connection.era})`);
  try {
    const tools = await connection.listTools();
    log(`tools: ${tools.map((tool) => tool.name).join(", ")}`);
    const calls = options.toolCalls ?? tools.map((tool) => ({ name: tool.name, arguments: sampleArguments(tool.inputSchema) }));
    for (const call of calls) {
      const result = await connection.callTool(call).catch((error: unknown) => error);
      log(`${call.name}: ${result instanceof Error ? `error: ${result.message}` : JSON.stringify(result)}`);
    }
    for (const step of [() => connection.readFirstResource(), () => connection.getFirstPrompt()]) {
      const result = await step().catch((error: unknown) => error);
      if (result !== undefined) log(result instanceof Error ? `error: ${result.message}` : JSON.stringify(result));
    }
  } finally {
    await connection.close();
  }
}

/** MCP_CONFORMANCE_CONTEXT, when it lists tool calls (`toolCalls: [{ name, arguments }]`). */
function contextToolCalls(text: string | undefined): ToolCall[] | undefined {
  if (text === undefined) return undefined;
  const context: unknown = JSON.parse(text);
  if (typeof context !== "object" || context === null || !("toolCalls" in context) || !Array.isArray(context.toolCalls)) return undefined;
  const calls: unknown[] = context.toolCalls;
  return calls.filter(isToolCall);
}

function isToolCall(call: unknown): call is ToolCall {
  return typeof call === "object" && call !== null && "name" in call && typeof call.name === "string";
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const url = process.argv.at(-1);
  if (url === undefined || !URL.canParse(url)) {
    console.error("usage: npm run example:client -- <server url>");
    process.exit(2);
  }
  const toolCalls = contextToolCalls(process.env["MCP_CONFORMANCE_CONTEXT"]);
  const protocolVersion = process.env["MCP_CONFORMANCE_PROTOCOL_VERSION"];
  run(url, { ...(toolCalls ? { toolCalls } : {}), ...(protocolVersion ? { protocolVersion } : {}), log: (line) => console.log(line) }).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
}
