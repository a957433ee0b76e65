/**
 * An MCP client on the shipped one-call API: `connectClient` agrees on an era (2026-07-28 first, `initialize`
 * at 2025-11-25 when the server only speaks the session era), over Streamable HTTP or stdio, and each call
 * after it is written once for both eras (tool arguments checked against the listed schema before they go).
 * What is left here is the scenario: list the tools, call them, read a resource, get a prompt, and answer what
 * the server asks of the client (sampling, elicitation, roots) with one set of handlers.
 *
 *   npm run -s example:client -- http://127.0.0.1:3000/mcp
 *   npm run -s example:client -- http://127.0.0.1:3000/mcp --call echo '{"text":"hi"}'
 *   npm run -s example:client -- --stdio 'node server.js' --call echo '{}'
 *
 * It also follows the conformance suite's client contract: the server URL is the last argument,
 * MCP_CONFORMANCE_SCENARIO names the scenario (an entry of `SCENARIOS`), MCP_CONFORMANCE_PROTOCOL_VERSION the
 * protocol to speak, and MCP_CONFORMANCE_CONTEXT may list the tool calls to make.
 */
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { connectClient, httpTransport, stdioTransport } from "../generated/index.js";
import * as legacy from "../generated/2025-11-25/index.js";
import * as modern from "../generated/2026-07-28/index.js";
import { exampleAuth } from "./client-auth.js";

const CLIENT_INFO = { name: "mcp-bindgen-example-client", version: "0.1.0" };
const CAPABILITIES = { elicitation: {}, sampling: {}, roots: {} };
const ROOTS = [{ uri: "file:///tmp/mcp-bindgen-example", name: "Example root" }];

export interface ToolCall {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
}

export interface ClientOptions {
  /** The protocol version to speak; by default the newest both sides do. */
  readonly protocolVersion?: string;
  /** The calls to make; defaults to one call of every listed tool with arguments made up from its schema. */
  readonly toolCalls?: readonly ToolCall[];
  /** The conformance suite's scenario name: picks the entry of `SCENARIOS` to run. */
  readonly scenario?: string;
  readonly log?: (line: string) => void;
}

/** Where the server is: a URL, or a command to start it with over stdio. */
export type Target = { readonly url: string } | { readonly command: string };

/** A value for each field of a form: its default, else its first choice, else something of its type. */
function fillForm(schema: {
  readonly properties: Readonly<Record<string, modern.PrimitiveSchemaDefinition>>;
}): Record<string, string | number | boolean | string[]> {
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

/** The same answers for either era: the server asks through input_required results (2026) or requests (2025). */
const handlers = {
  "sampling/createMessage": () => ({
    role: "assistant" as const,
    content: { type: "text" as const, text: "An answer from the example client." },
    model: "example-model",
    stopReason: "endTurn",
  }),
  "elicitation/create": (params: modern.ElicitRequestParams) =>
    "requestedSchema" in params
      ? { action: "accept" as const, content: fillForm(params.requestedSchema) }
      : { action: "decline" as const },
  "roots/list": () => ({ roots: ROOTS }),
};

async function transportFor(target: Target, log: (line: string) => void, protocolVersion?: string) {
  if ("url" in target) return httpTransport(target.url, { auth: await exampleAuth(target.url, protocolVersion) });
  // The server's stderr is its log: each line goes to ours.
  return stdioTransport({
    spawn: () => spawn(target.command, { shell: true, stdio: ["pipe", "pipe", "pipe"] }),
    onStderr: (line) => log(`server: ${line}`),
  });
}

/** Connects with both eras on offer: the same calls work whichever the server agrees to. */
export async function connectTo(target: Target, options: ClientOptions = {}) {
  const log = options.log ?? (() => undefined);
  const client = await connectClient(await transportFor(target, log, options.protocolVersion), {
    releases: [
      modern.clientRelease({ capabilities: CAPABILITIES, dispatcher: modern.createClientDispatcher(handlers) }),
      legacy.clientRelease({ capabilities: CAPABILITIES, dispatcher: legacy.createClientDispatcher(handlers) }),
    ],
    clientInfo: CLIENT_INFO,
    ...(options.protocolVersion === undefined ? {} : { protocolVersion: options.protocolVersion }),
    onFallback: log,
  });
  log(`connected: ${client.version}`);
  return client;
}

type Client = Awaited<ReturnType<typeof connectTo>>;

/** What a scenario is given besides the client: the calls asked for (the suite's context), and where to say what happened. */
interface ScenarioContext {
  readonly toolCalls: readonly ToolCall[] | undefined;
  readonly log: (line: string) => void;
}

/** One thing a scenario does; a failure is logged, not fatal, so the steps after it still run. */
async function step(log: (line: string) => void, what: string, action: () => Promise<unknown>): Promise<void> {
  const result = await action().catch((error: unknown) => error);
  if (result !== undefined)
    log(`${what}: ${result instanceof Error ? `error: ${result.message}` : JSON.stringify(result)}`);
}

/** List the tools, call each (or the calls given), read the first resource, get the first prompt. */
async function everything(client: Client, { toolCalls, log }: ScenarioContext): Promise<void> {
  const tools = await client.listTools();
  log(`tools: ${tools.map((tool) => tool.name).join(", ")}`);
  // Calls the suite lists go out as given: some arguments are off-schema on purpose, to test what reaches the wire.
  const options = { validate: toolCalls === undefined };
  const calls = toolCalls ?? tools.map((tool) => ({ name: tool.name, arguments: sampleArguments(tool.inputSchema) }));
  for (const call of calls) await step(log, call.name, () => client.callTool(call.name, call.arguments ?? {}, options));
  const capabilities = client.server.capabilities;
  if (capabilities.resources !== undefined)
    await step(log, "resource", async () => {
      const [first] = await client.listResources();
      return first && client.readResource(first.uri);
    });
  if (capabilities.prompts !== undefined)
    await step(log, "prompt", async () => {
      const [first] = await client.listPrompts();
      return first && client.getPrompt(first.name, promptArguments(first));
    });
}

/**
 * What the client does, by the suite's scenario name (MCP_CONFORMANCE_SCENARIO); a name not listed runs `everything`,
 * which is what each of the suite's non-auth client scenarios asks for (they differ in the server they start).
 */
const SCENARIOS: Readonly<Record<string, (client: Client, context: ScenarioContext) => Promise<void>>> = {
  everything,
};

function scenario(name: string | undefined): (client: Client, context: ScenarioContext) => Promise<void> {
  return (name !== undefined && Object.hasOwn(SCENARIOS, name) ? SCENARIOS[name] : undefined) ?? everything;
}

function promptArguments(prompt: {
  readonly arguments?: readonly { readonly name: string }[];
}): Record<string, string> {
  return Object.fromEntries((prompt.arguments ?? []).map((argument) => [argument.name, "example"]));
}

/** Arguments for a tool nobody told us how to call: each required property gets a value of its type. */
export function sampleArguments(schema: object): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const required = "required" in schema && Array.isArray(schema.required) ? schema.required : [];
  const properties =
    "properties" in schema && typeof schema.properties === "object" && schema.properties !== null
      ? schema.properties
      : {};
  for (const name of required) {
    if (typeof name !== "string") continue;
    const property: unknown = name in properties ? Object.getOwnPropertyDescriptor(properties, name)?.value : undefined;
    const type = typeof property === "object" && property !== null && "type" in property ? property.type : undefined;
    args[name] =
      type === "number" || type === "integer"
        ? 1
        : type === "boolean"
          ? true
          : type === "object"
            ? {}
            : type === "array"
              ? []
              : "example";
  }
  return args;
}

/** Runs a scenario (`everything` unless named) against a server, then closes. */
export async function run(target: Target, options: ClientOptions = {}): Promise<void> {
  const log = options.log ?? (() => undefined);
  const client = await connectTo(target, options);
  try {
    await scenario(options.scenario)(client, { toolCalls: options.toolCalls, log });
  } finally {
    await client.close();
  }
}

/** Connects, calls one tool and returns its result, saying on `log` which release was agreed on. */
export async function callOnce(target: Target, call: ToolCall, options: ClientOptions = {}): Promise<unknown> {
  const client = await connectTo(target, options);
  try {
    return await client.callTool(call.name, call.arguments ?? {});
  } finally {
    await client.close();
  }
}

/** MCP_CONFORMANCE_CONTEXT, when it lists tool calls (`toolCalls: [{ name, arguments }]`). */
function contextToolCalls(text: string | undefined): ToolCall[] | undefined {
  if (text === undefined) return undefined;
  const context: unknown = JSON.parse(text);
  if (typeof context !== "object" || context === null || !("toolCalls" in context) || !Array.isArray(context.toolCalls))
    return undefined;
  const calls: unknown[] = context.toolCalls;
  return calls.filter(isToolCall);
}

function isToolCall(call: unknown): call is ToolCall {
  return typeof call === "object" && call !== null && "name" in call && typeof call.name === "string";
}

const USAGE =
  "usage: npm run -s example:client -- (<server url> | --stdio '<command>') [--call <tool> '<json arguments>']";

/** The command line: a target (a URL or `--stdio <command>`) and perhaps `--call <tool> <json>`. */
export function parseArgs(argv: readonly string[]): { target: Target; call?: ToolCall } | string {
  const rest = [...argv];
  let target: Target | undefined;
  let call: ToolCall | undefined;
  while (rest.length > 0) {
    const arg = rest.shift()!;
    if (arg === "--stdio") {
      const command = rest.shift();
      if (command === undefined) return "--stdio needs a command";
      target = { command };
    } else if (arg === "--call") {
      const name = rest.shift();
      if (name === undefined) return "--call needs a tool name";
      const json = rest[0] !== undefined && !rest[0].startsWith("--") ? rest.shift()! : "{}";
      let args: unknown;
      try {
        args = JSON.parse(json);
      } catch {
        return `--call ${name}: the arguments are not JSON: ${json}`;
      }
      if (typeof args !== "object" || args === null || Array.isArray(args))
        return `--call ${name}: the arguments must be a JSON object`;
      call = { name, arguments: args as Record<string, unknown> };
    } else if (URL.canParse(arg)) target = { url: arg };
    else return `unexpected argument: ${arg}`;
  }
  if (target === undefined) return "no server: give its URL or --stdio '<command>'";
  return call === undefined ? { target } : { target, call };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const parsed = parseArgs(process.argv.slice(2));
  if (typeof parsed === "string") {
    console.error(`${parsed}\n${USAGE}`);
    process.exit(2);
  }
  const protocolVersion = process.env["MCP_CONFORMANCE_PROTOCOL_VERSION"];
  const failed = (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  };
  if (parsed.call !== undefined) {
    callOnce(parsed.target, parsed.call, { log: (line) => console.error(line) }).then((result) => {
      console.log(JSON.stringify(result, null, 2));
      process.exit(0);
    }, failed);
  } else {
    const toolCalls = contextToolCalls(process.env["MCP_CONFORMANCE_CONTEXT"]);
    const scenarioName = process.env["MCP_CONFORMANCE_SCENARIO"];
    run(parsed.target, {
      ...(toolCalls ? { toolCalls } : {}),
      ...(scenarioName ? { scenario: scenarioName } : {}),
      ...(protocolVersion ? { protocolVersion } : {}),
      log: (line) => console.log(line),
    }).then(() => process.exit(0), failed);
  }
}
