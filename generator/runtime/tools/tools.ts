// Typed tools of one server (a generated `servers/<name>.ts`): calling them from a client and answering
// them in a server, both checked by the server's validator table. The module of each server holds only
// its data (type names, header annotations, the table) and thin typed wrappers over these functions.
import type {} from "../core/abort.js";
import { cacheFields, type CacheFacts, type ListServerOptions } from "../core/cache-members.js";
import type { RequestContext } from "../core/dispatcher.js";
import { paramHeaders, type HeaderParam, type HttpSpec } from "../core/http-headers.js";
import { describeValue, isObject, type JsonObject } from "../core/json.js";
import { RpcError } from "../core/rpc-error.js";
import type { StandardSchema } from "../validation/standard-schema.js";
import { validateDefinition, type Tables, type ValidationIssue } from "../validation/validator.js";

/** What a server's module knows of one tool at run time. */
export interface ToolEntry {
  /** The definitions of its arguments and of its `structuredContent` (null: no `outputSchema`) in the server's table. */
  readonly arguments: string;
  readonly structured: string | null;
  /** Its `x-mcp-header` annotations, read when the module was generated. */
  readonly headers: readonly HeaderParam[];
}

/** One server's tools as data. */
export interface ToolsSpec {
  readonly server: string;
  readonly tables: () => Tables;
  readonly tools: { readonly [name: string]: ToolEntry };
  /** The release's Streamable HTTP facts where it sends `Mcp-Param-*` headers; null otherwise. */
  readonly http: HttpSpec | null;
  /** The cache members `tools/list` carries in the release; absent where its results have none. */
  readonly cache?: CacheFacts;
}

export interface ToolCallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** Headers the transport sends with this request beside its own (`callTool` puts the tool's `Mcp-Param-*` here). */
  readonly headers?: { readonly [name: string]: string };
}

/**
 * Whatever sends `tools/call` and resolves with its result: a release's requester, or a connected
 * client session. Structural, so any session with such a `request` fits.
 */
export interface ToolSession {
  request(
    method: "tools/call",
    params: { name: string; arguments: JsonObject },
    options?: ToolCallOptions,
  ): Promise<unknown>;
}

/** A tool's reply that does not fit what its snapshot declares: the issues say where. */
export class ToolResultError extends Error {
  readonly tool: string;
  readonly issues: readonly ValidationIssue[];

  constructor(tool: string, message: string, issues: readonly ValidationIssue[]) {
    super(`tool "${tool}": ${message}`);
    this.name = "ToolResultError";
    this.tool = tool;
    this.issues = issues;
  }
}

function entryOf(spec: ToolsSpec, name: string): ToolEntry | undefined {
  return Object.prototype.hasOwnProperty.call(spec.tools, name) ? spec.tools[name] : undefined;
}

/**
 * Calls one tool: `tools/call` with its `Mcp-Param-*` headers, then the reply checked. An error
 * reply (`isError: true`) is returned as it came; any other must be a complete result whose
 * `structuredContent` fits the tool's `outputSchema`, else a `ToolResultError`.
 */
export async function callTool(
  spec: ToolsSpec,
  session: ToolSession,
  name: string,
  args: object,
  options: ToolCallOptions = {},
): Promise<unknown> {
  const entry = entryOf(spec, name);
  if (entry === undefined)
    throw new RangeError(`${spec.server} has no tool ${describeValue(name)}`);
  const params = { name, arguments: args as JsonObject };
  const headers =
    spec.http === null || entry.headers.length === 0
      ? undefined
      : paramHeaders(spec.http, entry.headers, args);
  const result = await session.request(
    "tools/call",
    params,
    headers === undefined ? options : { ...options, headers: { ...options.headers, ...headers } },
  );
  if (!isObject(result))
    throw new ToolResultError(name, "the result is not an object", [
      { pointer: "", expected: "object", got: describeValue(result) },
    ]);
  if (result["isError"] === true) return result;
  const resultType = result["resultType"];
  if (resultType !== undefined && resultType !== "complete")
    throw new ToolResultError(
      name,
      `the result is ${describeValue(resultType)}, not complete (give the session an input handler)`,
      [{ pointer: "/resultType", expected: '"complete"', got: describeValue(resultType) }],
    );
  if (entry.structured !== null) {
    const checked = validateDefinition(
      spec.tables(),
      entry.structured,
      result["structuredContent"],
    );
    if (!checked.ok)
      throw new ToolResultError(
        name,
        "structuredContent does not fit the outputSchema",
        checked.errors.map((e) => ({ ...e, pointer: "/structuredContent" + e.pointer })),
      );
  }
  return result;
}

/**
 * The JSON Schema the server published for one of its tools' definitions, from the tools as listed (`list()`, a fresh
 * parse): a tool's `inputSchema` for its arguments, its `outputSchema` for its structured result; undefined for any other.
 */
export function publishedSchema(
  spec: ToolsSpec,
  list: () => readonly JsonObject[],
  definition: string,
): JsonObject | undefined {
  for (const name of Object.keys(spec.tools)) {
    const entry = spec.tools[name]!;
    const key =
      entry.arguments === definition
        ? "inputSchema"
        : entry.structured === definition
          ? "outputSchema"
          : null;
    if (key === null) continue;
    const schema = list().find((t) => t["name"] === name)?.[key];
    return isObject(schema) ? schema : undefined;
  }
  return undefined;
}

/** The members of a listed tool a server implementing it declares too; its own `_meta`, icons and execution stay its own. */
const DECLARED = ["title", "description", "annotations"] as const;

/**
 * Tool `name` as the high-level server's `server.tool` declares it, for a server implementing the snapshotted
 * tools: its listed title, description and annotations, and its schemas as the module's Standard Schema objects
 * (`schemas`), which list the JSON Schema the server published and check with the module's validators.
 */
export function toolDeclaration(
  spec: ToolsSpec,
  list: () => readonly JsonObject[],
  schemas: (definition: string) => StandardSchema<unknown>,
  name: string,
): JsonObject {
  const entry = entryOf(spec, name);
  if (entry === undefined)
    throw new RangeError(`${spec.server} has no tool ${describeValue(name)}`);
  const listed = list().find((t) => t["name"] === name) ?? {};
  const declaration: JsonObject = { name };
  for (const key of DECLARED) if (listed[key] !== undefined) declaration[key] = listed[key];
  declaration["inputSchema"] = schemas(entry.arguments);
  if (entry.structured !== null) declaration["outputSchema"] = schemas(entry.structured);
  return declaration;
}

/** A server's tool handler: the arguments already checked against `inputSchema`. */
export type ToolHandler<A, R, C> = (args: A, ctx: RequestContext<C>) => R | Promise<R>;

/** `listTtlMs` and `cacheScope` say what a stateless release's `tools/list` carries, as for the prompts and templates. */
export interface ToolServerOptions extends ListServerOptions {
  /** Check every structured result against the tool's `outputSchema` (a bug in the handler then answers -32603). Meant for development. */
  readonly checkResults?: boolean;
}

/** The `tools/call` and `tools/list` handlers of a release's server dispatcher, for one server's tools. */
export interface ToolServerHandlers<C> {
  "tools/call"(params: JsonObject, ctx: RequestContext<C>): Promise<JsonObject>;
  "tools/list"(params: unknown, ctx: RequestContext<C>): { tools: JsonObject[] };
}

/**
 * `tools/call` routed by tool name to `handlers` (an unknown tool is -32602, as the tools page
 * says), the arguments checked first (-32602 with each issue's pointer under `/arguments`);
 * `tools/list` answered with `list()`, the tools as the file lists them, and the release's cache members.
 */
export function toolServer<C>(
  spec: ToolsSpec,
  list: () => JsonObject[],
  handlers: { readonly [name: string]: ToolHandler<never, object, C> },
  options: ToolServerOptions = {},
): ToolServerHandlers<C> {
  return {
    async "tools/call"(params, ctx) {
      const name = params["name"];
      const entry = typeof name === "string" ? entryOf(spec, name) : undefined;
      const handler =
        typeof name === "string" && Object.prototype.hasOwnProperty.call(handlers, name)
          ? (handlers[name] as ToolHandler<unknown, object, C>)
          : undefined;
      if (entry === undefined || handler === undefined)
        throw new RpcError(-32602, `Unknown tool: ${describeValue(name)}`);
      const args = params["arguments"] ?? {};
      const checked = validateDefinition(spec.tables(), entry.arguments, args);
      if (!checked.ok)
        throw new RpcError(-32602, `Invalid arguments for tool ${name as string}`, {
          issues: checked.errors.map((e) => ({ ...e, pointer: "/arguments" + e.pointer })),
        });
      const result = (await handler(args, ctx)) as JsonObject;
      if (
        options.checkResults === true &&
        entry.structured !== null &&
        result["isError"] !== true
      ) {
        const out = validateDefinition(
          spec.tables(),
          entry.structured,
          result["structuredContent"],
        );
        if (!out.ok)
          throw new ToolResultError(
            name as string,
            "the handler's structuredContent does not fit the outputSchema",
            out.errors,
          );
      }
      return result;
    },
    "tools/list"() {
      return { tools: list(), ...cacheFields(spec.cache ?? null, options) };
    },
  };
}
