import type { HttpExchange, HttpReply } from "./http-exchange.js";
import type { HttpHandler, PlatformResponse, RequestLike } from "./http-server.js";

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728): the document that tells a client which
 * authorization servers issue tokens for this MCP server and which scopes it uses, served at the
 * path-aware well-known URI of the endpoint and at the root one.
 */

/** RFC 9728 section 3: the well-known URI suffix. */
const WELL_KNOWN = "/.well-known/oauth-protected-resource";

export interface ProtectedResourceMetadata {
  readonly resource: string;
  readonly authorization_servers: readonly string[];
  readonly scopes_supported?: readonly string[];
  /** Only the `Authorization` header: never a form body or the query. */
  readonly bearer_methods_supported: readonly string[];
  readonly resource_name?: string;
}

export interface ProtectedResourceOptions {
  /** The canonical URI of the MCP endpoint. */
  readonly resource: string;
  readonly authorizationServers: readonly string[];
  readonly scopesSupported?: readonly string[];
  readonly resourceName?: string;
}

export function protectedResourceMetadata(
  options: ProtectedResourceOptions,
): ProtectedResourceMetadata {
  const scopes = options.scopesSupported ?? [];
  return {
    resource: options.resource,
    authorization_servers: [...options.authorizationServers],
    ...(scopes.length === 0 ? {} : { scopes_supported: [...scopes] }),
    bearer_methods_supported: ["header"],
    ...(options.resourceName === undefined ? {} : { resource_name: options.resourceName }),
  };
}

/** The resource's origin and path (without query or fragment). */
function split(resource: string): { origin: string; path: string } {
  const schemeEnd = resource.indexOf("//");
  const rest = schemeEnd < 0 ? resource.length : schemeEnd + 2;
  const pathStart = resource.slice(rest).search(/[/?#]/);
  const origin = pathStart < 0 ? resource : resource.slice(0, rest + pathStart);
  const tail = pathStart < 0 ? "" : resource.slice(rest + pathStart);
  const path = tail.replace(/[?#].*$/, "");
  return { origin, path: path === "/" ? "" : path };
}

/** The paths the metadata is served at: path-aware first (RFC 9728 section 3.1), then the root one. */
export function metadataPaths(resource: string): readonly string[] {
  const { path } = split(resource);
  return path === "" ? [WELL_KNOWN] : [WELL_KNOWN + path, WELL_KNOWN];
}

/** The path-aware metadata URL of `resource`, as a 401's `resource_metadata` names it. */
export function metadataUrl(resource: string): string {
  const { origin, path } = split(resource);
  return origin + WELL_KNOWN + path;
}

const platform = globalThis as unknown as {
  readonly Response: new (
    body: string | null,
    init: { status: number; headers: Record<string, string> },
  ) => PlatformResponse;
};

/**
 * The metadata, or a function asked on each request for it: a server whose URL (the `resource`) is known only
 * once it listens gives `() => gate?.metadata`; undefined while unknown, and requests all go to the handler.
 */
export type ResourceMetadataSource =
  ProtectedResourceMetadata | (() => ProtectedResourceMetadata | undefined);

/**
 * `handler` with the metadata answered at its well-known paths (GET, and the CORS preflight a browser
 * client sends): everything else goes to `handler`, whose own `path` would refuse those paths.
 */
export function serveResourceMetadata(
  handler: HttpHandler,
  metadata: ResourceMetadataSource,
): HttpHandler {
  const current = typeof metadata === "function" ? metadata : () => metadata;
  // Paths and body are worked out once per metadata object, not per request.
  let served:
    | { readonly metadata: object; readonly paths: readonly string[]; readonly body: string }
    | undefined;
  const document = (): typeof served => {
    const now = current();
    if (now === undefined) return undefined;
    if (served?.metadata !== now)
      served = { metadata: now, paths: metadataPaths(now.resource), body: JSON.stringify(now) };
    return served;
  };
  const answer = (method: string, path: string): HttpReply | undefined => {
    const known = document();
    if (known === undefined || !known.paths.includes(path.replace(/[?#].*$/, ""))) return undefined;
    const cors = { "access-control-allow-origin": "*" };
    if (method === "OPTIONS")
      return {
        status: 204,
        headers: {
          ...cors,
          "access-control-allow-methods": "GET",
          "access-control-allow-headers": "*",
        },
        body: undefined,
      };
    if (method !== "GET" && method !== "HEAD")
      return { status: 405, headers: { ...cors, allow: "GET" }, body: undefined };
    return {
      status: 200,
      headers: { ...cors, "content-type": "application/json" },
      body: known.body,
    };
  };
  return {
    serve: (exchange: HttpExchange) =>
      Promise.resolve(answer(exchange.method, exchange.path) ?? handler.serve(exchange)),
    fetch(request: RequestLike): Promise<PlatformResponse> {
      const reply = answer(request.method.toUpperCase(), pathOf(request.url));
      if (reply === undefined || "stream" in reply) return handler.fetch(request);
      return Promise.resolve(
        new platform.Response(reply.body ?? null, {
          status: reply.status,
          headers: { ...reply.headers },
        }),
      );
    },
    close: () => handler.close(),
    get sessions() {
      return handler.sessions;
    },
    get pending() {
      return handler.pending;
    },
    outbox: handler.outbox,
  };
}

function pathOf(url: string): string {
  const schemeEnd = url.indexOf("//");
  const pathStart = url.indexOf("/", schemeEnd < 0 ? 0 : schemeEnd + 2);
  return pathStart < 0 ? "/" : url.slice(pathStart);
}
