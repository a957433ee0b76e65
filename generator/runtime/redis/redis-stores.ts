import type { EventStore } from "../server/event-store.js";
import type { MessageBus } from "../server/message-bus.js";
import type { UsedStateStore } from "../server/request-state.js";
import type { SessionStore } from "../server/session-store.js";
import {
  closeRedis,
  duplicateRedis,
  openRedis,
  whenReady,
  type RedisClient,
  type RedisConnection,
  type RedisLinkOptions,
} from "./redis-connection.js";
import { createRedisEventStore, type RedisEventStoreOptions } from "./redis-event-store.js";
import { createRedisMessageBus } from "./redis-message-bus.js";
import { createRedisSessionStore, milliseconds } from "./redis-session-store.js";

/**
 * Everything a server instance shares with the rest of its fleet, on one Redis: the session store,
 * the event store and the message bus `createHttpHandler` takes, and the used-state store of the
 * stateless era's `requestState`. Give every instance the same Redis (and prefix) and none of them
 * needs its requests routed back to it.
 */

export interface RedisStoresOptions extends RedisLinkOptions {
  /** Prefix of every key and channel, so fleets can share one Redis. Default `"mcp:"`. */
  readonly prefix?: string;
  /** Events kept per session stream for `Last-Event-ID`. Default 1,000. */
  readonly maxEventsPerStream?: RedisEventStoreOptions["maxEventsPerStream"];
  /** How long a session stream's events outlive its last one: the server's `sessionIdleMs`. Default 30 min. */
  readonly eventTtlMs?: RedisEventStoreOptions["ttlMs"];
}

export interface RedisStores {
  readonly sessionStore: SessionStore;
  readonly eventStore: EventStore;
  readonly messageBus: MessageBus;
  /** For `statelessEra(handlers, { requestState: { secret, used } })`: each state accepted once fleet-wide. */
  readonly usedStates: UsedStateStore;
  /** Resolves once both connections (commands, subscriptions) are up. */
  ready(): Promise<void>;
  /** Closes the connections the stores made (a client you gave stays open). */
  close(): Promise<void>;
}

/** The Redis stores on `connection`: a URL, or an ioredis client of yours. */
export function createRedisStores(
  connection: RedisConnection,
  options: RedisStoresOptions = {},
): RedisStores {
  const prefix = options.prefix ?? "mcp:";
  const { client, owned } = openRedis(connection, options);
  const subscriber = duplicateRedis(client, options.onError);
  return {
    sessionStore: createRedisSessionStore(client, { prefix }),
    eventStore: createRedisEventStore(client, {
      prefix,
      ...(options.maxEventsPerStream === undefined
        ? {}
        : { maxEventsPerStream: options.maxEventsPerStream }),
      ...(options.eventTtlMs === undefined ? {} : { ttlMs: options.eventTtlMs }),
    }),
    messageBus: createRedisMessageBus(client, subscriber, {
      prefix,
      ...(options.onError === undefined ? {} : { onError: options.onError }),
    }),
    usedStates: createRedisUsedStates(client, { prefix }),
    ready: () => Promise.all([whenReady(client), whenReady(subscriber)]).then(() => undefined),
    async close() {
      await Promise.all([closeRedis(subscriber), owned ? closeRedis(client) : undefined]);
    },
  };
}

/** The `UsedStateStore` on Redis: a nonce is `SET … NX` until its state expires, so two instances never both accept one. */
export function createRedisUsedStates(
  client: RedisClient,
  options: { readonly prefix?: string } = {},
): UsedStateStore {
  const prefix = `${options.prefix ?? "mcp:"}state:`;
  return {
    use: async (nonce, expiresAt) =>
      (await client.set(prefix + nonce, "1", "PX", milliseconds(expiresAt - Date.now()), "NX")) ===
      "OK",
  };
}
