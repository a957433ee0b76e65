import { Redis, type Cluster } from "ioredis";

/**
 * How the Redis stores reach Redis: ioredis, the one package the `redis` part imports. It is one
 * package with its own types, reconnects by itself (resubscribing what it can), can fail commands at
 * once while disconnected instead of queueing them (`enableOfflineQueue: false`, what a server
 * answering 503 needs), and speaks to a Cluster or through Sentinel with the same API.
 */

/** A client the stores use: a `Redis` (standalone or Sentinel) or a `Cluster`. */
export type RedisClient = Redis | Cluster;

/**
 * Where the stores' Redis is: a URL (`redis://user:pass@host:6379/0`, `rediss://` for TLS) they
 * connect to, fail fast on and close; or a client of yours, used as it is and left open (give it
 * `enableOfflineQueue: false`, or a request waits in its queue while Redis is away).
 */
export type RedisConnection = string | RedisClient;

/** Options of the connections made from a URL. */
export interface RedisLinkOptions {
  /** A command Redis has not answered after this long fails (the request gets 503). Default 2 s. */
  readonly commandTimeoutMs?: number;
  /** Sees connection failures: the first error after each time the connection was up. */
  readonly onError?: (error: unknown) => void;
}

/** A client and whether the stores made it (then they close it). */
export interface RedisLink {
  readonly client: RedisClient;
  readonly owned: boolean;
}

const DEFAULT_COMMAND_TIMEOUT_MS = 2000;

/** The client for `connection`: a URL is connected to with fail-fast options; a client is taken as is. */
export function openRedis(connection: RedisConnection, options: RedisLinkOptions = {}): RedisLink {
  if (typeof connection !== "string") return { client: connection, owned: false };
  const client = new Redis(connection, {
    // Nothing waits for a connection that is not there: the command fails and the request gets 503.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    // Reconnect for ever, backing off to 1 s: Redis coming back is noticed without a restart.
    retryStrategy: (attempt) => Math.min(50 * attempt, 1000),
  });
  reportErrors(client, options.onError);
  return { client, owned: true };
}

/** A second connection like `client`'s, for subscribing (a subscribed connection runs no other command). */
export function duplicateRedis(
  client: RedisClient,
  onError?: (error: unknown) => void,
): RedisClient {
  const copy: RedisClient = client instanceof Redis ? client.duplicate() : client.duplicate();
  reportErrors(copy, onError);
  return copy;
}

/** Waits until `client` is connected (at once when it is). */
export function whenReady(client: RedisClient): Promise<void> {
  if (client.status === "ready") return Promise.resolve();
  return new Promise((resolve) => client.once("ready", () => resolve()));
}

/** Closes a connection: politely when it is up, at once otherwise. */
export async function closeRedis(client: RedisClient): Promise<void> {
  if (client.status === "ready") await client.quit().catch(() => client.disconnect());
  else client.disconnect();
}

/** Hands `onError` the first error after each time `client` was connected, so an outage is one report. */
function reportErrors(client: RedisClient, onError: ((error: unknown) => void) | undefined): void {
  let told = false;
  client.on("ready", () => (told = false));
  // Always a listener: without one, ioredis prints every failed reconnect to the console.
  client.on("error", (error: unknown) => {
    if (told) return;
    told = true;
    onError?.(error);
  });
}
