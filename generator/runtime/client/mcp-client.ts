/**
 * The one-call client: `connectClient` runs `connect` and returns calls that are the same whichever
 * release was agreed (`callTool`, the paged lists, `getPrompt`, `readResource`, `complete`), typed for
 * every release offered. Tool arguments are checked against the listed `inputSchema` before they are
 * sent and `structuredContent` against the `outputSchema`; progress goes to a callback tied to its call.
 * The session stays at hand (`client.session`) for the per-release, exact `request`.
 * Method names and `_meta` keys come from the release (`ClientApiFacts`), as the rest of the runtime's do.
 */
import { describeValue, isObject, type JsonObject } from "../core/json.js";
import type { CallOptions } from "../core/requester.js";
import type { ResultTypeFacts } from "../core/responses.js";
import type { ValidationIssue, ValidationResult } from "../validation/validator.js";
import { compileJsonSchema } from "../validation/json-schema.js";
import type { TransportFactory } from "./client-transport.js";
import {
  connect,
  type ClientRelease,
  type ConnectOptions,
  type SessionOf,
  type TypedRequester,
} from "./connect.js";
import type { HttpSessionFactory } from "./http-client.js";

/** What the one-call client needs of a release: its method names, progress facts and `resultType`. */
export interface ClientApiFacts {
  readonly methods: {
    readonly callTool: string;
    readonly listTools: string;
    readonly listPrompts: string;
    readonly getPrompt: string;
    readonly listResources: string;
    readonly listResourceTemplates: string;
    readonly readResource: string;
    readonly complete: string;
  };
  /** The progress notification, the `_meta` key a request names its token under, and the notification's param holding it. */
  readonly progress: {
    readonly notification: string;
    readonly tokenKey: string;
    readonly tokenParam: string;
  };
  /** How a result says it is complete; null where no release offered has `resultType`. */
  readonly resultType: ResultTypeFacts | null;
}

/** Checks a value against one compiled schema (`compileJsonSchema`'s result, or any such). */
export interface SchemaValidator {
  validate(value: unknown): ValidationResult;
}

/**
 * Per tool name, its arguments and what a successful result carries (a generated `servers/<name>.ts`'s `Tools`, an
 * interface: so no index signature is asked for).
 */
export type ToolTable = object;
/** A tool's arguments in `T`. */
export type ToolArguments<T, N extends keyof T> = T[N] extends { arguments: infer A } ? A : never;
type ToolSuccess<T, N extends keyof T> = T[N] extends { result: infer R } ? R : never;

/** Any tool, when no snapshot types them. */
export interface AnyTools {
  readonly [name: string]: {
    arguments: { readonly [key: string]: unknown };
    result: { structuredContent?: { [key: string]: unknown } };
  };
}

/** A server's tools as a snapshot module types them (`servers/<name>.ts` exports `TOOL_TYPES`): only `names` exists at run time. */
export interface ToolTypes<T extends ToolTable> {
  readonly names: readonly (keyof T & string)[];
  /** Only a type. */
  readonly tools?: T;
}

/** A call's options beside the transport's own. */
export interface ClientCallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** Called with each `notifications/progress` for this call (its params), until the call settles. */
  readonly onProgress?: (progress: ProgressParams) => void;
}

export interface ToolCallOptions extends ClientCallOptions {
  /** Check the arguments against the listed `inputSchema` and `structuredContent` against the `outputSchema`. Defaults to the client's `validate`. */
  readonly validate?: boolean;
}

/** What a progress notification says. */
export interface ProgressParams {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
  readonly [key: string]: unknown;
}

export interface ClientOptions<
  D extends readonly ClientRelease[],
  T extends ToolTable = AnyTools,
> extends ConnectOptions<D> {
  /** Check tool arguments and structured results against the listed schemas. Defaults to true. */
  readonly validate?: boolean;
  /** A snapshot's tools (`TOOL_TYPES` of `servers/<name>.ts`): names and arguments typed, a name it lacks refused. */
  readonly tools?: ToolTypes<T>;
  /** At most this many pages per listing (a server that keeps handing cursors). Defaults to 100. */
  readonly maxPages?: number;
}

/** Arguments or a structured result that do not fit the tool's listed schema: nothing was sent, or the result is `result`. */
export class ToolValidationError extends Error {
  readonly tool: string;
  /** `arguments`: refused before sending; `result`: the server's answer does not fit its `outputSchema`. */
  readonly phase: "arguments" | "result";
  readonly issues: readonly ValidationIssue[];
  /** The server's result, when `phase` is `result`. */
  readonly result: unknown;

  constructor(
    tool: string,
    phase: "arguments" | "result",
    issues: readonly ValidationIssue[],
    result?: unknown,
  ) {
    const first = issues[0];
    const where = first === undefined ? "" : ` (${first.pointer || "/"}: ${first.expected})`;
    super(
      phase === "arguments"
        ? `tool "${tool}": the arguments do not fit its inputSchema${where}`
        : `tool "${tool}": structuredContent does not fit its outputSchema${where}`,
    );
    this.name = "ToolValidationError";
    this.tool = tool;
    this.phase = phase;
    this.issues = issues;
    this.result = result;
  }
}

// Types over the releases offered: each method's result is the union of what every release may answer,
// an `input_required` result left out (the calls settle or refuse it), and its params what every one takes.

type TableOf<R> = R extends ClientRelease<string, TypedRequester, unknown, infer T> ? T : never;
/** The one-call API settles `input_required` (or refuses it) and never asks for a task, so neither is a result of it. */
type Complete<Result> = Result extends { resultType: "input_required" } | { task: object }
  ? never
  : Result;
/** The result of `M` in any release `R` may be, an `input_required` one left out. */
export type ResultIn<R, M extends string> =
  TableOf<R> extends infer T
    ? T extends { readonly [K in M]: { result: infer Result } }
      ? Complete<Result>
      : never
    : never;
type Intersect<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;
/** The params of `M` every release `R` accepts, without `_meta` (the client writes it). */
export type ParamsIn<R, M extends string> = Intersect<
  TableOf<R> extends infer T
    ? T extends { readonly [K in M]: { params: infer P } }
      ? Omit<P, "_meta">
      : never
    : never
>;
type ItemOf<R, M extends string, K extends string> =
  ResultIn<R, M> extends infer Page ? (Page extends { [P in K]: (infer I)[] } ? I : never) : never;
type WithoutKeys<U, K extends PropertyKey> = U extends unknown ? Omit<U, K> : never;
/** A tool's result: its typed `structuredContent`, or an error result (`isError: true`), in any release offered. */
export type ToolResultIn<R, T extends ToolTable, N extends keyof T> =
  | (WithoutKeys<ResultIn<R, "tools/call">, "structuredContent" | "isError"> & {
      isError?: false;
    } & ToolSuccess<T, N>)
  | (WithoutKeys<ResultIn<R, "tools/call">, "isError" | "structuredContent"> & {
      isError: true;
      structuredContent?: { [key: string]: unknown };
    });

/** Every item of a paged listing: `await` it for all pages, or `for await` it page by page. */
export interface Paged<I> extends PromiseLike<I[]>, AsyncIterable<I> {}

/** A connected client: one call per operation whichever release was agreed; `session` for the exact, per-release `request`. */
export interface McpClient<R, T extends ToolTable = AnyTools> {
  readonly session: SessionOf<R>;
  /** The release agreed on. */
  readonly version: SessionOf<R> extends { readonly version: infer V } ? V : string;
  /** What the server said when the era was agreed (discovery's or `initialize`'s result). */
  readonly server: SessionOf<R> extends { readonly server: infer S } ? S : unknown;
  callTool<N extends keyof T & string>(
    name: N,
    args: ToolArguments<T, N>,
    options?: ToolCallOptions,
  ): Promise<ToolResultIn<R, T, N>>;
  listTools(options?: ClientCallOptions): Paged<ItemOf<R, "tools/list", "tools">>;
  listPrompts(options?: ClientCallOptions): Paged<ItemOf<R, "prompts/list", "prompts">>;
  listResources(options?: ClientCallOptions): Paged<ItemOf<R, "resources/list", "resources">>;
  listResourceTemplates(
    options?: ClientCallOptions,
  ): Paged<ItemOf<R, "resources/templates/list", "resourceTemplates">>;
  getPrompt(
    name: string,
    args?: { readonly [name: string]: string },
    options?: ClientCallOptions,
  ): Promise<ResultIn<R, "prompts/get">>;
  readResource(uri: string, options?: ClientCallOptions): Promise<ResultIn<R, "resources/read">>;
  complete(
    params: ParamsIn<R, "completion/complete">,
    options?: ClientCallOptions,
  ): Promise<ResultIn<R, "completion/complete">>;
  close(): Promise<void>;
}

/** The checks of one listed tool, compiled on first use and dropped when the tools are listed again. */
interface ListedTool {
  readonly inputSchema: unknown;
  readonly outputSchema: unknown;
  input?: SchemaValidator | null;
  output?: SchemaValidator | null;
}

/**
 * A listed schema compiled, or null when there is none to check against: absent, or one the validators cannot
 * compile (a remote `$ref`, say), where the server remains the judge.
 */
function compiled(schema: unknown, where: string): SchemaValidator | null {
  if (schema === undefined) return null;
  try {
    return compileJsonSchema(schema, { where });
  } catch {
    return null;
  }
}

type AnyRequest = (method: string, params: object, options?: CallOptions) => Promise<unknown>;

/**
 * Connects as `connect` does (same transport and options) and returns the one-call client. `facts` is the
 * releases' (`connectClient` in the generated modules passes them).
 */
export async function connectClientWith<
  const D extends readonly ClientRelease[],
  T extends ToolTable = AnyTools,
>(
  facts: ClientApiFacts,
  transport: TransportFactory<HttpSessionFactory>,
  options: ClientOptions<D, T>,
): Promise<McpClient<D[number], T>> {
  const progress = progressRouting(facts);
  let nextToken = 0;
  const session = await connect(progress.transport(transport), options);
  const request = session.request as unknown as AnyRequest;
  const methods = facts.methods;
  const validateByDefault = options.validate !== false;
  const snapshotNames =
    options.tools === undefined ? undefined : new Set<string>(options.tools.names);
  const maxPages = options.maxPages ?? 100;
  let listed: Map<string, ListedTool> | undefined;
  let firstListing: Promise<unknown> | undefined;

  async function call(
    method: string,
    params: JsonObject,
    callOptions: ClientCallOptions = {},
  ): Promise<unknown> {
    const { onProgress, signal, timeoutMs } = callOptions;
    const base: CallOptions = {
      ...(signal === undefined ? {} : { signal }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    };
    if (onProgress === undefined) return settled(method, await request(method, params, base));
    const token = `progress-${++nextToken}`;
    progress.listen(token, onProgress);
    const meta = { ...(isObject(params["_meta"]) ? params["_meta"] : {}) };
    meta[facts.progress.tokenKey] = token;
    try {
      return settled(method, await request(method, { ...params, _meta: meta }, base));
    } finally {
      progress.stop(token);
    }
  }

  /** A result still asking for input means no input handler answered it: the one-call API does not return it as a result. */
  function settled(method: string, result: unknown): unknown {
    const complete = facts.resultType;
    const resultType = complete !== null && isObject(result) ? result[complete.key] : undefined;
    if (resultType !== undefined && resultType !== complete?.complete)
      throw new Error(
        `${method}: the result is ${describeValue(resultType)}, not complete (give the release a dispatcher to answer input requests)`,
      );
    return result;
  }

  function paged<I>(
    method: string,
    key: string,
    callOptions: ClientCallOptions | undefined,
    onAll?: (items: I[]) => void,
  ): Paged<I> {
    async function* pages(): AsyncGenerator<I[]> {
      let cursor: string | undefined;
      const seen = new Set<string>();
      for (let page = 0; ; page++) {
        if (page >= maxPages) throw new Error(`${method}: more than ${maxPages} pages`);
        const result = await call(method, cursor === undefined ? {} : { cursor }, callOptions);
        const items = isObject(result) ? result[key] : undefined;
        if (!Array.isArray(items))
          throw new Error(`${method}: the result has no ${key} list (${describeValue(items)})`);
        yield items as I[];
        const next = isObject(result) ? result["nextCursor"] : undefined;
        if (typeof next !== "string") return;
        // A cursor handed twice would page forever.
        if (seen.has(next))
          throw new Error(`${method}: the server handed the cursor ${describeValue(next)} twice`);
        seen.add(next);
        cursor = next;
      }
    }
    const all = async (): Promise<I[]> => {
      const items: I[] = [];
      for await (const page of pages()) items.push(...page);
      onAll?.(items);
      return items;
    };
    return {
      then: (onFulfilled, onRejected) => all().then(onFulfilled, onRejected),
      async *[Symbol.asyncIterator]() {
        for await (const page of pages()) yield* page;
      },
    };
  }

  /** Keeps each listed tool's schemas, to compile when it is called. */
  function remember(tools: unknown[]): void {
    const next = new Map<string, ListedTool>();
    for (const tool of tools)
      if (isObject(tool) && typeof tool["name"] === "string")
        next.set(tool["name"], {
          inputSchema: tool["inputSchema"],
          outputSchema: tool["outputSchema"],
        });
    listed = next;
  }

  const listTools = (callOptions?: ClientCallOptions): Paged<unknown> =>
    paged<unknown>(methods.listTools, "tools", callOptions, remember);

  async function callTool(
    name: string,
    args: object,
    callOptions: ToolCallOptions = {},
  ): Promise<unknown> {
    if (snapshotNames !== undefined && !snapshotNames.has(name))
      throw new RangeError(`the server's snapshot has no tool ${describeValue(name)}`);
    const check = callOptions.validate ?? validateByDefault;
    let tool: ListedTool | undefined;
    if (check) {
      // Calls made before any listing share the one they start; a failed one is tried again by the next call.
      if (listed === undefined)
        await (firstListing ??= Promise.resolve(listTools(callOptions)).catch((error: unknown) => {
          firstListing = undefined;
          throw error;
        }));
      tool = listed?.get(name);
    }
    if (tool !== undefined) {
      tool.input ??= compiled(tool.inputSchema, `tool ${describeValue(name)} inputSchema`);
      const verdict = tool.input?.validate(args);
      if (verdict !== undefined && !verdict.ok)
        throw new ToolValidationError(name, "arguments", verdict.errors);
    }
    const result = await call(methods.callTool, { name, arguments: args }, callOptions);
    if (tool === undefined || !isObject(result) || result["isError"] === true) return result;
    tool.output ??= compiled(tool.outputSchema, `tool ${describeValue(name)} outputSchema`);
    const verdict = tool.output?.validate(result["structuredContent"]);
    if (verdict !== undefined && !verdict.ok)
      throw new ToolValidationError(
        name,
        "result",
        verdict.errors.map((issue) => ({
          ...issue,
          pointer: "/structuredContent" + issue.pointer,
        })),
        result,
      );
    return result;
  }

  const client: McpClient<ClientRelease, AnyTools> = {
    session: session,
    version: session.version,
    server: session.server,
    callTool: callTool as McpClient<ClientRelease, AnyTools>["callTool"],
    listTools: listTools as McpClient<ClientRelease, AnyTools>["listTools"],
    listPrompts: (callOptions) => paged(methods.listPrompts, "prompts", callOptions),
    listResources: (callOptions) => paged(methods.listResources, "resources", callOptions),
    listResourceTemplates: (callOptions) =>
      paged(methods.listResourceTemplates, "resourceTemplates", callOptions),
    getPrompt: (name, args, callOptions) =>
      call(
        methods.getPrompt,
        args === undefined ? { name } : { name, arguments: args },
        callOptions,
      ) as never,
    readResource: (uri, callOptions) => call(methods.readResource, { uri }, callOptions) as never,
    complete: (params, callOptions) =>
      call(methods.complete, params as JsonObject, callOptions) as never,
    close: () => session.close(),
  };
  return client as unknown as McpClient<D[number], T>;
}

/** Which progress callback a call's token names, and which request carries the token, for `progressRouting`. */
interface ProgressRouting {
  listen(token: string, listener: (progress: ProgressParams) => void): void;
  stop(token: string): void;
  /** `transport` with progress for a listened token taken out of what the server sends, and the listener stopped at its call's response. */
  transport(transport: TransportFactory<HttpSessionFactory>): TransportFactory<HttpSessionFactory>;
}

/**
 * Progress routed at the transport, where every message passes in order: a notification after its call's response
 * in the same reply is seen after the response, so the listener stops there rather than when the call's promise
 * settles (later, in a microtask). A response still asking for input (`input_required`) is no end: the call goes on
 * under a new id with the same token.
 */
function progressRouting(facts: ClientApiFacts): ProgressRouting {
  const listeners = new Map<string, (progress: ProgressParams) => void>();
  /** The token of each request in flight that carries one, by request id. */
  const carriers = new Map<string | number, string>();
  const inputRequired = facts.resultType;

  function watch(message: object): void {
    const id = (message as JsonObject)["id"];
    const params = (message as JsonObject)["params"];
    const meta = isObject(params) ? params["_meta"] : undefined;
    const token = isObject(meta) ? meta[facts.progress.tokenKey] : undefined;
    if (
      typeof token === "string" &&
      listeners.has(token) &&
      (typeof id === "string" || typeof id === "number")
    )
      carriers.set(id, token);
  }

  /** Whether `message` was a listened token's progress, delivered here. */
  function taken(message: unknown): boolean {
    if (!isObject(message)) return false;
    const id = message["id"];
    if ((typeof id === "string" || typeof id === "number") && !("method" in message)) {
      const token = carriers.get(id);
      if (token === undefined) return false;
      carriers.delete(id);
      const result = message["result"];
      const asks =
        inputRequired !== null &&
        isObject(result) &&
        result[inputRequired.key] === inputRequired.inputRequired;
      if (!asks) listeners.delete(token);
      return false;
    }
    if (message["method"] !== facts.progress.notification) return false;
    const params = message["params"];
    const token = isObject(params) ? params[facts.progress.tokenParam] : undefined;
    const listener = typeof token === "string" ? listeners.get(token) : undefined;
    if (listener === undefined || !isObject(params) || typeof params["progress"] !== "number")
      return false;
    try {
      listener(params as ProgressParams);
    } catch {
      // A listener that throws is the caller's bug; it must not stop the messages after it.
    }
    return true;
  }

  return {
    listen: (token, listener) => void listeners.set(token, listener),
    stop: (token) => void listeners.delete(token),
    transport: (transport) => (events) => {
      const wire = transport({
        message(message) {
          const messages: unknown[] = Array.isArray(message) ? message : [message];
          const rest = messages.filter((one) => !taken(one));
          if (rest.length === messages.length) events.message(message);
          else if (rest.length > 0) events.message(Array.isArray(message) ? rest : rest[0]);
        },
        closed: (error) => events.closed(error),
      });
      return {
        send(message, sendOptions) {
          watch(message);
          return wire.send(message, sendOptions);
        },
        begin: (version, part) => wire.begin(version, part),
        started: (version) => wire.started(version),
        listen: () => wire.listen(),
        close: () => wire.close(),
      };
    },
  };
}
