/**
 * What the example server shares with the other instances of its fleet when run with `--redis <url>`:
 * the transport's session store, event store and message bus on Redis, the stateless era's
 * `requestState` key and used-state store, and list changes announced on the bus so that a
 * `subscriptions/listen` stream and a 2025 session's GET stream hear a change made through any instance.
 *
 *   MCP_REQUEST_STATE_SECRET=$(openssl rand -hex 32) npm run example:server -- --port 3001 --redis redis://127.0.0.1:6379
 */
import type { HttpServerOptions } from "../generated/index.js";
import type { JsonObject } from "../generated/runtime/core/json.js";
import { createRedisStores } from "../generated/runtime/redis/redis-stores.js";
import type { UsedStateStore } from "../generated/runtime/server/request-state.js";

export interface Fleet {
  /** For `createHttpHandler`: where sessions, their streams' events and messages between instances live. */
  readonly transport: Pick<HttpServerOptions, "sessionStore" | "eventStore" | "messageBus">;
  /** For `statelessEra(…, { requestState })`: one key for the fleet, each state accepted once fleet-wide. */
  readonly requestState: { readonly secret: string; readonly used: UsedStateStore };
  /** Tells every instance of a change; each hands it to the listeners and session streams it holds (`hear`). */
  announce(change: JsonObject): void;
  hear(deliver: (change: JsonObject) => void): Promise<void>;
  close(): Promise<void>;
}

const CHANGES = "example/list-changed";

/** Joins the fleet on the Redis at `url`; `secret` is the fleet's requestState key (32 bytes or more). */
export async function joinFleet(
  url: string,
  secret: string | undefined,
  onError: (error: unknown) => void,
): Promise<Fleet> {
  if (secret === undefined || secret.length < 32)
    throw new Error("A fleet needs one requestState key: set MCP_REQUEST_STATE_SECRET (32 characters or more)");
  const stores = createRedisStores(url, { onError });
  await stores.ready();
  return {
    transport: { sessionStore: stores.sessionStore, eventStore: stores.eventStore, messageBus: stores.messageBus },
    requestState: { secret, used: stores.usedStates },
    announce: (change) => void stores.messageBus.publish(CHANGES, change).catch(onError),
    hear: async (deliver) => void (await stores.messageBus.subscribe(CHANGES, deliver)),
    close: () => stores.close(),
  };
}
