// The server side of a snapshot's prompts and resource templates (a generated `servers/<name>.ts`):
// `prompts/get` routed by name with the required arguments checked, `resources/read` routed by the
// first template whose URI template covers the URI (read back with uri-match.ts), and both lists
// answered from the file. The module holds the data and thin typed wrappers over these functions.
import { cacheFields, type CacheFacts, type ListServerOptions } from "../core/cache-members.js";
import { describeValue, escapeToken, isObject, own, type JsonObject } from "../core/json.js";
import { RpcError } from "../core/rpc-error.js";
import { compileUriTemplate } from "./uri-match.js";

export type { CacheFacts, ListServerOptions } from "../core/cache-members.js";

/** JSON-RPC's invalid params, the same in every release. */
const INVALID_PARAMS = -32602;

/** `T` with its cache members optional (the table writes them unless the handler does), union members one by one. */
export type CacheDefaulted<T, K extends PropertyKey> = T extends unknown
  ? Omit<T, K> & Partial<Pick<T, K & keyof T>>
  : never;

/** One server's prompts as data: per prompt, the names of the arguments it marks required. */
export interface PromptsSpec {
  readonly prompts: { readonly [name: string]: { readonly required: readonly string[] } };
  readonly cache: CacheFacts;
}

/** A server's prompt handler: the arguments already checked (strings, the required ones present). */
export type PromptHandler<A, R, X> = (args: A, ctx: X) => R | Promise<R>;

/** The `prompts/get` and `prompts/list` handlers of a release's server dispatcher, for one server's prompts. */
export interface PromptServerHandlers<X> {
  "prompts/get"(params: JsonObject, ctx: X): Promise<unknown>;
  "prompts/list"(params: unknown, ctx: X): JsonObject;
}

/**
 * `prompts/get` routed by prompt name to `handlers`; an unknown prompt, arguments that are not strings,
 * or required ones missing (all of them named) are -32602 before any handler runs. `prompts/list`
 * answered with `list()`, the prompts as the file lists them.
 */
export function promptServer<X>(
  spec: PromptsSpec,
  list: () => JsonObject[],
  handlers: { readonly [name: string]: PromptHandler<never, unknown, X> },
  options: ListServerOptions = {},
): PromptServerHandlers<X> {
  return {
    async "prompts/get"(params, ctx) {
      const name = params["name"];
      const entry =
        typeof name === "string" && own(spec.prompts, name) ? spec.prompts[name] : undefined;
      const handler =
        typeof name === "string" && own(handlers, name)
          ? (handlers[name] as PromptHandler<JsonObject, unknown, X>)
          : undefined;
      if (entry === undefined || handler === undefined)
        throw new RpcError(INVALID_PARAMS, `Unknown prompt: ${describeValue(name)}`);
      const args = params["arguments"] ?? {};
      if (!isObject(args))
        throw new RpcError(
          INVALID_PARAMS,
          `Invalid arguments for prompt ${name as string}: expected an object of strings, got ${describeValue(args)}`,
        );
      const notStrings = Object.keys(args).filter((key) => typeof args[key] !== "string");
      if (notStrings.length > 0)
        throw new RpcError(
          INVALID_PARAMS,
          `Invalid arguments for prompt ${name as string}: ${notStrings.join(", ")} must be strings`,
          {
            issues: notStrings.map((key) => ({
              pointer: `/arguments/${escapeToken(key)}`,
              expected: "string",
              got: describeValue(args[key]),
            })),
          },
        );
      const missing = entry.required.filter((argument) => !own(args, argument));
      if (missing.length > 0)
        throw new RpcError(
          INVALID_PARAMS,
          `Missing required arguments for prompt ${name as string}: ${missing.join(", ")}`,
          { missing },
        );
      return handler(args, ctx);
    },
    "prompts/list"() {
      return { prompts: list(), ...cacheFields(spec.cache, options) };
    },
  };
}

/** One server's resource templates as data: per template name, its URI template (levels 1 to 3), in the file's order. */
export interface TemplatesSpec {
  readonly templates: { readonly [name: string]: string };
  /** The code of the release's resource-not-found error, as its model says. */
  readonly notFound: number;
  readonly cache: CacheFacts;
}

/** A server's template handler: the URI asked for and its variables, read back from it. */
export type TemplateHandler<V, R, X> = (uri: string, variables: V, ctx: X) => R | Promise<R>;

/** The `resources/read` and `resources/templates/list` handlers of a release's server dispatcher. */
export interface TemplateServerHandlers<X> {
  "resources/read"(params: JsonObject, ctx: X): Promise<unknown>;
  "resources/templates/list"(params: unknown, ctx: X): JsonObject;
}

/**
 * `resources/read` routed to the handler of the first template (in the file's order) whose URI
 * template covers the URI, with the variables it reads back; a URI none covers is the release's
 * resource-not-found error with the URI as data. `resources/templates/list` answered with `list()`.
 * Compiles the templates now: one that cannot be read back throws a `SyntaxError` here, never on a request.
 */
export function templateServer<X>(
  spec: TemplatesSpec,
  list: () => JsonObject[],
  handlers: { readonly [name: string]: TemplateHandler<never, unknown, X> },
  options: ListServerOptions = {},
): TemplateServerHandlers<X> {
  const routes = Object.keys(spec.templates)
    .filter((name) => own(handlers, name))
    .map((name) => ({
      template: compileUriTemplate(spec.templates[name]!),
      handler: handlers[name] as TemplateHandler<JsonObject, unknown, X>,
    }));
  return {
    async "resources/read"(params, ctx) {
      const uri = params["uri"];
      if (typeof uri !== "string")
        throw new RpcError(
          INVALID_PARAMS,
          `Invalid uri: expected a string, got ${describeValue(uri)}`,
        );
      for (const { template, handler } of routes) {
        const variables = template.match(uri);
        if (variables === undefined) continue;
        const result = await handler(uri, variables, ctx);
        return isObject(result)
          ? { ...cacheFields(spec.cache, options, "private"), ...result }
          : result;
      }
      throw new RpcError(spec.notFound, "Resource not found", { uri });
    },
    "resources/templates/list"() {
      return { resourceTemplates: list(), ...cacheFields(spec.cache, options) };
    },
  };
}
