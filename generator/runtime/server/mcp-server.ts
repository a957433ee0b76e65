// The high-level server: tools, prompts, resources, resource templates, completion and logging
// declared once, served in every release the server speaks. It builds each release's handler table
// (tools/call routed by name with validated arguments, the lists paged, capabilities derived) and
// hands it to that release's own era (`statelessEra`/`sessionEra`), so the dispatchers, transports
// and their checks are the low-level ones. What differs by release reaches it as data: each
// release's `server.ts` exports its `MCP_RELEASE` (facts, and the types its handlers answer).
import type {} from "../core/abort.js";
import { describeValue, isObject, own, type JsonObject } from "../core/json.js";
import type {
  IsReservedMetaKey,
  PrefixPosition,
  UnknownReservedMetaKey,
} from "../core/meta-keys.js";
import { cacheFields } from "../core/cache-members.js";
import { RpcError } from "../core/rpc-error.js";
import type { SessionEra, SessionInfo, StatelessEra } from "./server-eras.js";
import type { SessionRecord } from "./session-store.js";
import {
  compileToolSchema,
  type Check,
  type ToolArguments,
  type ToolStructured,
} from "./tool-schema.js";
import { compileUriTemplate, type UriTemplate, type UriTemplateVariables } from "./uri-match.js";

/** The two eras: stateless requests (the newer releases) and sessions (the older ones). */
export type ServedEra = "stateless" | "sessions";

/** What one release's handlers take and answer, as types: the release's `MCP_RELEASE` carries them. */
export interface ReleaseTypes {
  readonly era: ServedEra;
  readonly version: string;
  /** The `ctx` of the release's own `tools/call` handler: `ctx.raw` in a handler, for what only that release has. */
  readonly context: unknown;
  /** What the release's `tools/call`, `prompts/get` and `resources/read` handlers may answer. */
  readonly tool: unknown;
  readonly prompt: unknown;
  readonly resource: unknown;
  /** What a handler reads of its request's params beside its arguments (a stateless retry's input responses). */
  readonly params: unknown;
  /**
   * What a declaration may add to the release's `Tool`, `Prompt`, `Resource` and `ResourceTemplate` listing
   * (`annotations`, `icons`, …): their members but those the declaration types itself (`name`, the schemas, …).
   */
  readonly toolListing: unknown;
  readonly promptListing: unknown;
  readonly resourceListing: unknown;
  readonly templateListing: unknown;
  readonly level: string;
  /** The release's reserved `_meta` rule (runtime/core/meta-keys.ts). */
  readonly metaKnown: string;
  readonly metaLabels: string;
  readonly metaPosition: PrefixPosition;
  /** The options the release's era takes (`StatelessEraOptions`, `SessionEraOptions`). */
  readonly options: unknown;
}

/** What differs by release at run time, written by the release's `server.ts` from the model. */
export interface ReleaseFacts {
  /** The logging levels, least severe first (RFC 5424's order). */
  readonly logLevels: readonly string[];
  readonly codes: { readonly invalidParams: number };
  /**
   * How arguments that do not fit a tool's `inputSchema` are answered: a tool result with `isError`
   * (the tools page from 2025-11-25 on, SEP-1303, so the model can correct itself) or -32602 (before).
   */
  readonly invalidArguments: "toolError" | "invalidParams";
  /** The members a cacheable result carries (a stateless release's lists, discovery and reads); null where results have none. */
  readonly cache: { readonly ttl: string; readonly scope: string } | null;
  /** The `_meta` keys a stateless release reads and writes: the request's log level, the result's server info, a subscription's id. */
  readonly metaKeys: {
    readonly logLevel?: string;
    readonly serverInfo?: string;
    readonly subscriptionId?: string;
  };
}

/** One release as the high-level server serves it: each release's `server.ts` exports its own as `MCP_RELEASE`. */
export interface McpRelease<T extends ReleaseTypes = ReleaseTypes> {
  readonly era: T["era"];
  readonly version: T["version"];
  readonly facts: ReleaseFacts;
  /** The release's era over a handler table the server built (the table's types are the server's to keep). */
  serve(handlers: object, options: object): StatelessEra | SessionEra;
  /** Never set: carries `T` for the compiler. */
  readonly types?: T;
}

type TypesOf<R> = R extends McpRelease<infer T> ? T : never;
type Promisable<T> = T | Promise<T>;
/**
 * What every served release accepts for `Key` (a declaration's listing): the intersection, so a member one
 * of them cannot list does not compile. Each release's type is a parameter of a function in a union, which
 * infers as their intersection and keeps a member that is itself a union whole; no release, nothing.
 */
type ServedAnswer<T, Key extends keyof ReleaseTypes> = [T] extends [never]
  ? never
  : (T extends ReleaseTypes ? (each: T[Key]) => void : never) extends (all: infer I) => void
    ? I
    : never;
/**
 * What the first served release answers for `Key`: a handler's result is inferred against it (so its
 * literals keep their types, and a result that fits no release is an error at the very member that is
 * wrong), then held to every other release by `Carried`. Checking each release on its own this way
 * cost a consumer's tsc half the instantiations of checking against their intersection (bench: the
 * server row), whose array members multiply into every pair of their element types.
 */
type FirstAnswer<F, Key extends keyof ReleaseTypes> = F extends ReleaseTypes ? F[Key] : never;

type ReservedIn<Meta, T extends ReleaseTypes> = {
  [K in keyof Meta]-?: K extends T["metaKnown"]
    ? never
    : true extends IsReservedMetaKey<K, T["metaLabels"], T["metaPosition"]>
      ? K
      : never;
}[keyof Meta];
/** The reserved `_meta` keys of a result (`Out`) that one of the served releases does not define. */
type UnknownMetaKeys<Out, T> = Out extends { readonly _meta: infer Meta }
  ? T extends ReleaseTypes
    ? ReservedIn<Meta, T>
    : never
  : never;
/** The served releases that cannot carry the result `Out` as their `Key` answer. */
type NotCarriedBy<Out, T, Key extends keyof ReleaseTypes> = T extends ReleaseTypes
  ? [Out] extends [T[Key]]
    ? never
    : T["version"]
  : never;
type Lacking<Versions, MetaKeys> = ([Versions] extends [never]
  ? unknown
  : { readonly "a handler result these served releases cannot carry": Versions }) &
  ([MetaKeys] extends [never]
    ? unknown
    : { readonly [K in MetaKeys & string]: UnknownReservedMetaKey<K> });
/**
 * What a handler is intersected with: `unknown` when every served release carries its results (`Out` returned,
 * but its promises; `Later`, what they resolve to) and knows each reserved `_meta` key in them, else a member
 * the handler lacks, named for the release or the key (a compile error at the handler). It comes after the
 * handler's own type, so a result that fits no release is reported there, at the member that is wrong.
 */
type Carried<Out, Later, T, Key extends keyof ReleaseTypes> =
  (Out extends Promise<unknown> ? never : Out) | Later extends infer Result
  ? Lacking<NotCarriedBy<Result, T, Key>, UnknownMetaKeys<Result, T>>
  : never;

/** `ctx` of a high-level handler: one member per served release, told apart by `era` (or `version`). */
export type McpContext<R> = ContextOf<TypesOf<R>>;
type ContextOf<T> = T extends ReleaseTypes
  ? {
      readonly era: T["era"];
      readonly version: T["version"];
      /** The release's own handler `ctx`: input requests (stateless), requests to the client (sessions). */
      readonly raw: T["context"];
      /** The request's params, for what the arguments do not hold (a retry's `inputResponses`). */
      readonly params: T["params"];
      /** Aborted when the client cancels or goes away. */
      readonly signal: AbortSignal;
      /** Sends a log message when the client asked for `level` or a more severe one. */
      log(level: T["level"], data: unknown, logger?: string): void;
      /** Reports progress when the client asked for it (a `progressToken`); does nothing otherwise. */
      progress(progress: number, total?: number, message?: string): void;
    }
  : never;

type EraIn<R> = R extends McpRelease ? R["era"] : never;
type ReleasesOf<R, E> = R extends McpRelease ? (R["era"] extends E ? R : never) : never;

/**
 * A tool as declared: its listing and its schemas, each a JSON Schema literal or a Standard Schema v1 object
 * (a server module's `toolDeclaration(name)` gives all of it); the handler's arguments and structured result
 * are typed from them.
 */
export type ToolDeclaration<T, S, O> = ServedAnswer<T, "toolListing"> & {
  readonly name: string;
  readonly inputSchema?: S;
  readonly outputSchema?: O;
};

// Type literals that name no parameter are written out of the generic aliases that use them: one written
// inside is instantiated each time the alias is (bench: the server row).
type ErrorResult = { readonly isError: true };
type AnyArguments = { readonly [name: string]: unknown };
type RequiredArgument = { readonly required: true };
type AnyPromptArgs = { readonly [name: string]: string | undefined };

type StructuredOf<O> = [O] extends [undefined]
  ? unknown
  : ErrorResult | { readonly isError?: false; readonly structuredContent: ToolStructured<O> };

/** What a tool's handler may answer in the release `F`, given its `outputSchema` `O`. */
type ToolAnswer<F, O> = FirstAnswer<F, "tool"> & StructuredOf<O>;

export type PromptArgument = {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
};

export type PromptDeclaration<T, A> = ServedAnswer<T, "promptListing"> & {
  readonly name: string;
  readonly arguments?: A;
  /** Completes the prompt's arguments, by name. */
  readonly complete?: {
    readonly [N in A extends readonly PromptArgument[] ? A[number]["name"] : string]?: Completer;
  };
};

/** A prompt's arguments as its handler gets them: required ones present (and, as every one, optional). */
export type PromptArgs<A> = A extends readonly PromptArgument[]
  ? {
      readonly [P in A[number] as P extends RequiredArgument ? P["name"] : never]: string;
    } & { readonly [P in A[number] as P["name"]]?: string }
  : AnyPromptArgs;

/**
 * Completes one prompt argument or template variable: the values to offer for `value` (the first
 * 100 go out), given the other arguments already chosen.
 */
export type Completer = (
  value: string,
  context: { readonly arguments: { readonly [name: string]: string } },
) => Promisable<readonly string[]>;

export type ResourceDeclaration<T> = ServedAnswer<T, "resourceListing"> & {
  readonly uri: string;
  readonly name: string;
};

export type TemplateDeclaration<T, U extends string> = ServedAnswer<T, "templateListing"> & {
  readonly uriTemplate: U;
  readonly name: string;
  /** Completes the template's variables, by name. */
  readonly complete?: { readonly [V in keyof UriTemplateVariables<U>]?: Completer };
};

export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

export interface McpServerOptions {
  readonly info: McpServerInfo;
  readonly instructions?: string;
  /** Entries per page of `tools/list`, `prompts/list`, `resources/list` and `resources/templates/list`. Default 100. */
  readonly pageSize?: number;
  /**
   * How long a stateless client may cache a list, the discovery result or a read resource, and for whom: lists and
   * discovery `cacheScope` (default public), reads always private (a resource may be the user's). Default 5 minutes.
   */
  readonly listTtlMs?: number;
  readonly cacheScope?: "public" | "private";
  /**
   * Check each `structuredContent` against the tool's `outputSchema` before it leaves (a mismatch answers -32603;
   * a Standard Schema's `validate` answers what goes out). Default true.
   */
  readonly checkResults?: boolean;
}

/** Options for each era's transport face: what the release's `statelessEra`/`sessionEra` takes beside the handlers. */
export type EraOptionsOf<R> = {
  readonly [E in EraIn<R>]?: TypesOf<R>["options"];
};

/** The eras `createHttpHandler` and `serveStdio` take, one per era the server's releases speak. */
export interface ServedEras {
  readonly stateless?: StatelessEra;
  readonly sessions?: SessionEra;
}

/**
 * `T`, not a place to infer it from (TypeScript 5.4's `NoInfer`, written so 5.0 reads it too): a tool's
 * types come from its declaration's schemas, never from what its handler takes or returns.
 */
export type Deferred<T> = [T][T extends unknown ? 0 : never];

/**
 * A server declared once: add tools, prompts and resources, then serve its `eras()` on a transport. `T` is
 * what its releases `R` take and answer, `F` the first release's: a handler's result is inferred against
 * `F`'s answer, then held to every release in `T`. Each declaration infers what its handler resolves to
 * (`Later`) apart from what it returns (`Out`, a result or a promise of `Later`): a handler that returns a
 * result in one branch and a promise in another gives TypeScript two candidates for one parameter, and it
 * would keep only one.
 */
export interface McpServer<R, T = TypesOf<R>, F = T> {
  tool<
    const S = undefined,
    const O = undefined,
    const Later extends ToolAnswer<F, Deferred<O>> = never,
    const Out extends ToolAnswer<F, Deferred<O>> | Promise<Later> = never,
  >(
    declaration: ToolDeclaration<T, S, O>,
    handler: ((
      args: [S] extends [undefined] ? AnyArguments : ToolArguments<Deferred<S>>,
      ctx: ContextOf<T>,
    ) => Out | Promise<Later>) &
      Carried<Out, Later, T, "tool">,
  ): this;
  prompt<
    const A extends readonly PromptArgument[] = [],
    const Later extends FirstAnswer<F, "prompt"> = never,
    const Out extends FirstAnswer<F, "prompt"> | Promise<Later> = never,
  >(
    declaration: PromptDeclaration<T, A>,
    handler: ((args: PromptArgs<A>, ctx: ContextOf<T>) => Out | Promise<Later>) &
      Carried<Out, Later, T, "prompt">,
  ): this;
  resource<
    const Later extends FirstAnswer<F, "resource"> = never,
    const Out extends FirstAnswer<F, "resource"> | Promise<Later> = never,
  >(
    declaration: ResourceDeclaration<T>,
    read: ((uri: string, ctx: ContextOf<T>) => Out | Promise<Later>) &
      Carried<Out, Later, T, "resource">,
  ): this;
  resourceTemplate<
    const U extends string,
    const Later extends FirstAnswer<F, "resource"> = never,
    const Out extends FirstAnswer<F, "resource"> | Promise<Later> = never,
  >(
    declaration: TemplateDeclaration<T, U>,
    read: ((
      uri: string,
      variables: UriTemplateVariables<U>,
      ctx: ContextOf<T>,
    ) => Out | Promise<Later>) &
      Carried<Out, Later, T, "resource">,
  ): this;
  /**
   * The same server, declaring for one era alone: what is declared through it is served and listed only
   * there, and its handlers may answer what only that era carries (an `input_required` result, stateless).
   */
  only<E extends EraIn<R>>(era: E): McpServer<ReleasesOf<R, E>>;
  /** Removes a tool, prompt, resource (by URI) or template (by its URI template); clients are told the list changed. */
  remove(kind: ListKind, name: string): boolean;
  /**
   * Tells clients that a list changed (declaring or removing entries after `eras()` does this already): stateless
   * clients listening for it (`subscriptions/listen`) and every initialized session (over HTTP, on its standalone
   * GET stream if this instance holds it; over stdio, on the output). Through `only(era)`, that era's clients alone.
   */
  listChanged(kind: ListKind): void;
  /**
   * Tells the clients subscribed to `uri` that the resource changed (`notifications/resources/updated`): sessions
   * through `resources/subscribe` (over HTTP, made through any instance sharing the session store), stateless clients
   * through `resourceSubscriptions` in `subscriptions/listen`.
   */
  resourceUpdated(uri: string): void;
  /** The eras to hand `createHttpHandler` or `serveStdio`, built from what is declared now; later changes reach them too. */
  eras(options?: EraOptionsOf<R>): ServedEras;
  /** Ends the stateless clients' subscription streams (the server is shutting down). */
  close(): void;
}

export type ListKind = "tools" | "prompts" | "resources";

// ---- Run-time entries: the declarations with the types erased ------------------------------------

type AnyHandler = (...args: never[]) => unknown;
type RawContext = {
  readonly _meta: JsonObject | undefined;
  readonly signal: AbortSignal;
  readonly context: JsonObject;
  notify(method: string, params?: JsonObject): void;
  readonly progress:
    ((update: { progress: number; total?: number; message?: string }) => void) | undefined;
};
interface Entry {
  readonly key: string;
  readonly era: ServedEra | undefined;
  readonly listed: JsonObject;
  readonly handler: AnyHandler;
}
interface ToolEntry extends Entry {
  readonly input: Check | undefined;
  readonly output: Check | undefined;
}
interface PromptEntry extends Entry {
  readonly arguments: readonly PromptArgument[];
  readonly complete: { readonly [name: string]: Completer | undefined };
}
interface TemplateEntry extends Entry {
  readonly template: UriTemplate;
  readonly complete: { readonly [name: string]: Completer | undefined };
}

/** The declaration as listed: every member but those only the server reads. */
function listing(declaration: object, drop: readonly string[]): JsonObject {
  const listed: JsonObject = {};
  for (const [key, value] of Object.entries(declaration))
    if (!drop.includes(key) && value !== undefined) listed[key] = value;
  return listed;
}

/** Entries by `<era> <key>`, `* <key>` for every era's: one name may have one entry per era, or one for all. */
interface ListState {
  readonly entries: Map<string, Entry>;
}

const slot = (era: ServedEra | undefined, key: string): string => `${era ?? "*"} ${key}`;

/** Stateless clients listening for list changes (`subscriptions/listen`). */
interface Listener {
  readonly wants: (kind: ListKind) => boolean;
  notify(kind: ListKind): void;
  /** Tells the client resource `uri` changed, when it subscribed to it (`resourceSubscriptions`). */
  updated(uri: string): void;
  end(): void;
}

const LIST_METHODS: { readonly [K in ListKind]: string } = {
  tools: "notifications/tools/list_changed",
  prompts: "notifications/prompts/list_changed",
  resources: "notifications/resources/list_changed",
};
const FILTER_KEYS: { readonly [K in ListKind]: string } = {
  tools: "toolsListChanged",
  prompts: "promptsListChanged",
  resources: "resourcesListChanged",
};
const RESOURCE_UPDATED = "notifications/resources/updated";
/** The filter member of `subscriptions/listen` naming the resources a stateless client watches. */
const RESOURCE_SUBSCRIPTIONS = "resourceSubscriptions";
const MAX_COMPLETIONS = 100;

/**
 * Per-session data the sessions era keeps: the level `logging/setLevel` chose and the subscribed URIs. Over HTTP
 * the session's record (`SessionInfo.record`) holds both for every instance, and is what the server reads.
 */
export interface McpSessionData {
  level: string | undefined;
  readonly subscriptions: Set<string>;
}

/** The server `createMcpServer(releases)` gives: its handlers' results inferred against the first release's answers. */
type ServerOf<R extends readonly McpRelease[]> = McpServer<
  R[number],
  TypesOf<R[number]>,
  TypesOf<R extends readonly [infer First, ...unknown[]] ? First : R[number]>
>;

/**
 * A server declared once for `releases` (each release's `MCP_RELEASE`, at most one per era): the
 * same tools, prompts and resources answer a stateless request and a session's, and a handler
 * result one of them cannot carry is a compile error.
 */
export function createMcpServer<const R extends readonly McpRelease[]>(
  releases: R,
  options: McpServerOptions,
): ServerOf<R> {
  const pageSize = options.pageSize ?? 100;
  const checkResults = options.checkResults ?? true;
  const tools: ListState = { entries: new Map() };
  const prompts: ListState = { entries: new Map() };
  const resources: ListState = { entries: new Map() };
  const templates: ListState = { entries: new Map() };
  const listeners = new Set<Listener>();
  /** The session eras `eras()` built: their transports reach the sessions. */
  const sessionEras = new Set<SessionEra>();
  let serving = false;

  /** Tells `era`'s clients (undefined: every era's) that the `kind` list changed. */
  const changed = (kind: ListKind, era: ServedEra | undefined): void => {
    if (!serving) return;
    if (era !== "sessions")
      for (const listener of listeners) if (listener.wants(kind)) listener.notify(kind);
    if (era !== "stateless")
      for (const sessions of sessionEras)
        sessions.broadcast({ jsonrpc: "2.0", method: LIST_METHODS[kind] });
  };
  const add = (state: ListState, kind: ListKind, entry: Entry): void => {
    const taken =
      entry.era === undefined
        ? [...state.entries.values()].some((other) => other.key === entry.key)
        : state.entries.has(slot(entry.era, entry.key)) ||
          state.entries.has(slot(undefined, entry.key));
    if (taken) throw new RangeError(`${kind}: ${describeValue(entry.key)} is declared twice`);
    state.entries.set(slot(entry.era, entry.key), entry);
    changed(kind, entry.era);
  };

  /** The server's face for `era`'s declarations (undefined: every era's). */
  const view = (era: ServedEra | undefined): ServerOf<R> => {
    const face = {
      tool(declaration: ToolDeclaration<ReleaseTypes, unknown, unknown>, handler: AnyHandler) {
        const where = `tool ${describeValue(declaration.name)}`;
        const input =
          declaration.inputSchema === undefined
            ? undefined
            : compileToolSchema(declaration.inputSchema, "input", `${where} inputSchema`);
        const output =
          declaration.outputSchema === undefined
            ? undefined
            : compileToolSchema(declaration.outputSchema, "output", `${where} outputSchema`);
        const entry: ToolEntry = {
          key: declaration.name,
          era,
          listed: {
            inputSchema: { type: "object" },
            ...listing(declaration, []),
            ...(input === undefined ? {} : { inputSchema: input.listed }),
            ...(output === undefined ? {} : { outputSchema: output.listed }),
          },
          handler,
          input: input?.check,
          output: output?.check,
        };
        add(tools, "tools", entry);
        return face;
      },
      prompt(
        declaration: PromptDeclaration<ReleaseTypes, readonly PromptArgument[]>,
        handler: AnyHandler,
      ) {
        const args = declaration.arguments ?? [];
        const entry: PromptEntry = {
          key: declaration.name,
          era,
          listed: {
            ...listing(declaration, ["arguments", "complete"]),
            ...(args.length === 0 ? {} : { arguments: args }),
          },
          handler,
          arguments: args,
          complete: declaration.complete ?? {},
        };
        add(prompts, "prompts", entry);
        return face;
      },
      resource(declaration: ResourceDeclaration<ReleaseTypes>, read: AnyHandler) {
        add(resources, "resources", {
          key: declaration.uri,
          era,
          listed: listing(declaration, []),
          handler: read,
        });
        return face;
      },
      resourceTemplate(declaration: TemplateDeclaration<ReleaseTypes, string>, read: AnyHandler) {
        const entry: TemplateEntry = {
          key: declaration.uriTemplate,
          era,
          listed: listing(declaration, ["complete"]),
          handler: read,
          template: compileUriTemplate(declaration.uriTemplate),
          complete: declaration.complete ?? {},
        };
        add(templates, "resources", entry);
        return face;
      },
      only: (only: ServedEra) => view(only),
      remove(kind: ListKind, name: string) {
        const states =
          kind === "tools" ? [tools] : kind === "prompts" ? [prompts] : [resources, templates];
        const removed: Entry[] = [];
        for (const state of states)
          for (const [at, entry] of state.entries)
            if (entry.key === name && state.entries.delete(at)) removed.push(entry);
        if (removed.length === 0) return false;
        // One era's entries removed tell that era's clients; an entry of every era's, all of them.
        const eraOf = removed[0]!.era;
        changed(kind, removed.every((entry) => entry.era === eraOf) ? eraOf : undefined);
        return true;
      },
      listChanged: (kind: ListKind) => changed(kind, era),
      resourceUpdated(uri: string) {
        if (era !== "sessions") for (const listener of listeners) listener.updated(uri);
        if (era === "stateless") return;
        // Over HTTP the record, which every instance sees; over stdio the handlers' own state.
        const subscribed = (session: SessionInfo<unknown>, record?: SessionRecord): boolean =>
          record === undefined
            ? (session.state as McpSessionData).subscriptions.has(uri)
            : record.subscriptions.includes(uri);
        for (const sessions of sessionEras)
          sessions.broadcast(
            { jsonrpc: "2.0", method: RESOURCE_UPDATED, params: { uri } },
            subscribed,
          );
      },
      eras(eraOptions: object = {}) {
        serving = true;
        const eras: { stateless?: StatelessEra; sessions?: SessionEra } = {};
        for (const release of releases) {
          const table = handlersFor(release);
          const given = (eraOptions as { readonly [era: string]: object | undefined })[release.era];
          const served = release.serve(table, given ?? {});
          if (served.kind === "stateless") eras.stateless = served;
          else sessionEras.add((eras.sessions = served));
        }
        return eras;
      },
      close() {
        for (const listener of listeners) listener.end();
        listeners.clear();
      },
    };
    return face;
  };

  /** The handler table of one release: the same declarations, answered as its era answers. */
  function handlersFor(release: McpRelease): { [method: string]: AnyHandler } {
    const { facts } = release;
    const stateless = release.era === "stateless";
    const served = (entry: Entry): boolean => entry.era === undefined || entry.era === release.era;
    const invalid = (message: string, data?: JsonObject): RpcError =>
      RpcError.custom(facts.codes.invalidParams, message, data);
    const cached = (scope?: string): JsonObject => cacheFields(facts.cache, options, scope);
    const cache = cached();

    const levelOf = (raw: RawContext): string | undefined => {
      if (!stateless) {
        // Over HTTP the record, which a level set through any instance reaches; over stdio the handlers' own state.
        const { record, state } = raw.context["session"] as SessionInfo<McpSessionData>;
        return (record === undefined ? state.level : record.logLevel) ?? facts.logLevels[0];
      }
      const key = facts.metaKeys.logLevel;
      const level = key === undefined ? undefined : raw._meta?.[key];
      return typeof level === "string" ? level : undefined;
    };
    const contextOf = (raw: RawContext, params: JsonObject): McpContext<McpRelease> => ({
      era: release.era,
      version: release.version,
      raw,
      params,
      get signal() {
        return raw.signal;
      },
      log(level, data, logger = options.info.name) {
        const wanted = levelOf(raw);
        const at = facts.logLevels.indexOf(level);
        if (
          wanted !== undefined &&
          at !== -1 &&
          at >= facts.logLevels.indexOf(wanted) &&
          facts.logLevels.includes(wanted)
        )
          raw.notify("notifications/message", { level, logger, data: data as JsonObject });
      },
      progress(progress, total, message) {
        raw.progress?.({
          progress,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        });
      },
    });

    /** One page of `state`'s entries served here, from the cursor on. */
    const page = (
      state: ListState,
      member: string,
      params: JsonObject | undefined,
      also?: ListState,
    ) => {
      const all = [...state.entries.values(), ...(also?.entries.values() ?? [])].filter(served);
      const cursor = params?.["cursor"];
      const start = cursor === undefined ? 0 : Number(cursor);
      if (
        typeof cursor !== "undefined" &&
        (typeof cursor !== "string" || !/^(0|[1-9]\d*)$/.test(cursor) || start > all.length)
      )
        throw invalid("Invalid cursor", { cursor: describeValue(cursor) });
      const end = start + pageSize;
      return {
        [member]: all.slice(start, end).map((entry) => entry.listed),
        ...(end < all.length ? { nextCursor: String(end) } : {}),
        ...cache,
      };
    };
    const find = <E extends Entry>(state: ListState, key: unknown): E | undefined => {
      if (typeof key !== "string") return undefined;
      return (state.entries.get(slot(release.era, key)) ??
        state.entries.get(slot(undefined, key))) as E | undefined;
    };
    const readResource = async (params: JsonObject, raw: RawContext): Promise<JsonObject> => {
      const uri = params["uri"] as string;
      const read = (): unknown => {
        const resource = find(resources, uri);
        if (resource !== undefined)
          return resource.handler(uri as never, contextOf(raw, params) as never);
        for (const entry of templates.entries.values() as Iterable<TemplateEntry>) {
          const variables = served(entry) ? entry.template.match(uri) : undefined;
          if (variables !== undefined)
            return entry.handler(uri as never, variables as never, contextOf(raw, params) as never);
        }
        throw invalid("Resource not found", { uri });
      };
      return { ...cached("private"), ...((await read()) as JsonObject) };
    };

    const capabilities = (): JsonObject => ({
      ...([...tools.entries.values()].some(served) ? { tools: { listChanged: true } } : {}),
      ...([...prompts.entries.values()].some(served) ? { prompts: { listChanged: true } } : {}),
      ...([...resources.entries.values(), ...templates.entries.values()].some(served)
        ? { resources: { listChanged: true, subscribe: true } }
        : {}),
      completions: {},
      logging: {},
    });

    const table: { [method: string]: AnyHandler } = {
      "tools/list": (params?: JsonObject) => page(tools, "tools", params),
      "tools/call": async (params: JsonObject, raw: RawContext) => {
        const name = params["name"];
        const tool = find<ToolEntry>(tools, name);
        if (tool === undefined) throw invalid(`Unknown tool: ${describeValue(name)}`);
        let args: unknown = params["arguments"] ?? {};
        if (tool.input !== undefined) {
          // Waited for only where a Standard Schema's validate answered a promise: a literal's never does.
          let checked = tool.input(args);
          if (checked instanceof Promise) checked = await checked;
          if (checked.issues !== undefined) {
            const message = `Invalid arguments for tool ${tool.key}: ${checked.issues.join("; ")}`;
            if (facts.invalidArguments === "invalidParams") throw invalid(message);
            return { content: [{ type: "text", text: message }], isError: true };
          }
          args = checked.value;
        }
        const result = (await tool.handler(
          args as never,
          contextOf(raw, params) as never,
        )) as JsonObject;
        if (
          checkResults &&
          tool.output !== undefined &&
          isObject(result) &&
          result["isError"] !== true
        ) {
          // Only a complete result carries structuredContent; an input_required one asks for more first.
          if (!own(result, "inputRequests")) {
            const structured = result["structuredContent"];
            let checked = tool.output(structured);
            if (checked instanceof Promise) checked = await checked;
            if (checked.issues !== undefined)
              throw new Error(
                `tool ${tool.key}: structuredContent does not fit its outputSchema: ${checked.issues.join("; ")}`,
              );
            // What a Standard Schema's validate gave back goes out (its transforms and defaults applied).
            if (checked.value !== structured)
              return { ...result, structuredContent: checked.value };
          }
        }
        return result;
      },
      "prompts/list": (params?: JsonObject) => page(prompts, "prompts", params),
      "prompts/get": (params: JsonObject, raw: RawContext) => {
        const name = params["name"];
        const prompt = find<PromptEntry>(prompts, name);
        if (prompt === undefined) throw invalid(`Unknown prompt: ${describeValue(name)}`);
        const args = (params["arguments"] ?? {}) as { readonly [name: string]: string };
        for (const argument of prompt.arguments)
          if (argument.required === true && !own(args, argument.name))
            throw invalid(`Missing required argument: ${argument.name}`);
        return prompt.handler(args as never, contextOf(raw, params) as never);
      },
      "resources/list": (params?: JsonObject) => page(resources, "resources", params),
      "resources/templates/list": (params?: JsonObject) =>
        page(templates, "resourceTemplates", params),
      "resources/read": readResource,
      "completion/complete": async (params: JsonObject) => {
        const ref = params["ref"] as JsonObject;
        const argument = params["argument"] as { name: string; value: string };
        const context = params["context"] as { arguments?: { [name: string]: string } } | undefined;
        const entry =
          ref["type"] === "ref/prompt"
            ? find<PromptEntry>(prompts, ref["name"])
            : find<TemplateEntry>(templates, ref["uri"]);
        const complete =
          entry !== undefined && own(entry.complete, argument.name)
            ? entry.complete[argument.name]
            : undefined;
        const values =
          complete === undefined
            ? []
            : await complete(argument.value, { arguments: context?.arguments ?? {} });
        return {
          completion: {
            values: values.slice(0, MAX_COMPLETIONS),
            total: values.length,
            hasMore: values.length > MAX_COMPLETIONS,
          },
        };
      },
    };

    if (stateless) {
      table["server/discover"] = () => ({
        supportedVersions: [release.version],
        capabilities: capabilities(),
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
        ...cache,
        ...(facts.metaKeys.serverInfo === undefined
          ? {}
          : { _meta: { [facts.metaKeys.serverInfo]: options.info } }),
      });
      // The stream stays open until the client goes away (the signal) or the server closes.
      table["subscriptions/listen"] = (
        params: JsonObject,
        raw: RawContext & { readonly id: string | number },
      ) => {
        const asked = (params["notifications"] ?? {}) as JsonObject;
        const honoured: JsonObject = {};
        for (const kind of Object.keys(FILTER_KEYS) as ListKind[])
          if (asked[FILTER_KEYS[kind]] === true) honoured[FILTER_KEYS[kind]] = true;
        const key = facts.metaKeys.subscriptionId;
        const _meta = key === undefined ? {} : { [key]: raw.id };
        const uris = asked[RESOURCE_SUBSCRIPTIONS];
        const watched = new Set(
          Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === "string") : [],
        );
        if (watched.size > 0) honoured[RESOURCE_SUBSCRIPTIONS] = [...watched];
        raw.notify("notifications/subscriptions/acknowledged", { _meta, notifications: honoured });
        return new Promise((resolve) => {
          const listener: Listener = {
            wants: (kind) => honoured[FILTER_KEYS[kind]] === true,
            notify: (kind) => raw.notify(LIST_METHODS[kind], { _meta }),
            updated: (uri) => {
              if (watched.has(uri)) raw.notify(RESOURCE_UPDATED, { uri, _meta });
            },
            end: () => resolve({ _meta }),
          };
          listeners.add(listener);
          raw.signal.addEventListener("abort", () => listeners.delete(listener), { once: true });
        });
      };
    } else {
      const session = (raw: RawContext): McpSessionData =>
        (raw.context["session"] as { state: McpSessionData }).state;
      table["initialize"] = () => ({
        protocolVersion: release.version,
        capabilities: capabilities(),
        serverInfo: options.info,
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      });
      table["ping"] = () => ({});
      table["notifications/initialized"] = () => undefined;
      table["logging/setLevel"] = (params: JsonObject, raw: RawContext) => {
        session(raw).level = params["level"] as string;
        return {};
      };
      table["resources/subscribe"] = (params: JsonObject, raw: RawContext) => {
        session(raw).subscriptions.add(params["uri"] as string);
        return {};
      };
      table["resources/unsubscribe"] = (params: JsonObject, raw: RawContext) => {
        session(raw).subscriptions.delete(params["uri"] as string);
        return {};
      };
    }
    return table;
  }

  return view(undefined);
}

/** The per-session state the sessions era needs: pass as the release's `sessionState` (its `server.ts` does). */
export function mcpSessionState(): McpSessionData {
  return { level: undefined, subscriptions: new Set() };
}
