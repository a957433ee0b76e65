// The cache members a stateless release's cacheable results carry, as the snapshot servers write them
// (`servers/<name>.ts`: tools, prompts, resource templates). Their names are the release's, handed in
// from its model; the defaults are the runtime's. In core because tools/ and server/ both write them.
import type { JsonObject } from "./json.js";

/** The members a stateless release's cacheable results carry (`ttlMs`, `cacheScope`); null where results have none. */
export type CacheFacts = { readonly ttl: string; readonly scope: string } | null;

export interface ListServerOptions {
  /** How long a stateless client may cache a list or a read resource. Default 5 minutes. */
  readonly listTtlMs?: number;
  /** Whom a list may be cached for (default public); a read resource is private (it may be the user's) unless its handler says otherwise. */
  readonly cacheScope?: "public" | "private";
}

/** The cache members of one result (none where the release has none); `scope` overrides the options' scope. */
export function cacheFields(
  cache: CacheFacts,
  options: ListServerOptions,
  scope?: string,
): JsonObject {
  if (cache === null) return {};
  return {
    [cache.ttl]: options.listTtlMs ?? 300_000,
    [cache.scope]: scope ?? options.cacheScope ?? "public",
  };
}
