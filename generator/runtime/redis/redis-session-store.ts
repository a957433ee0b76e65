import { isObject } from "../core/json.js";
import type { SessionRecord, SessionStore } from "../server/session-store.js";
import type { RedisClient } from "./redis-connection.js";

/**
 * The `SessionStore` on Redis: each session's record is one string key, JSON, whose TTL is the
 * session's idle expiry (`SET … PX`, `PEXPIRE` on `touch`), so Redis itself forgets a session
 * nobody uses, whichever instances served it, and a restart of every instance loses none.
 */

export interface RedisSessionStoreOptions {
  /** Prefix of every key. Default `"mcp:"`: records are `mcp:session:<id>`. */
  readonly prefix?: string;
}

export function createRedisSessionStore(
  client: RedisClient,
  options: RedisSessionStoreOptions = {},
): SessionStore {
  const prefix = `${options.prefix ?? "mcp:"}session:`;
  return {
    async get(id) {
      const text = await client.get(prefix + id);
      return text === null ? undefined : recordOf(text);
    },
    async set(id, record, ttlMs) {
      await client.set(prefix + id, JSON.stringify(record), "PX", milliseconds(ttlMs));
    },
    async touch(id, ttlMs) {
      return (await client.pexpire(prefix + id, milliseconds(ttlMs))) === 1;
    },
    async delete(id) {
      await client.del(prefix + id);
    },
    async update(id, change, ttlMs) {
      const key = prefix + id;
      for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
        const text = await client.get(key);
        const record = text === null ? undefined : recordOf(text);
        if (text === null || record === undefined) return undefined;
        const changed = change(record);
        const swapped = await client.eval(
          SET_IF_UNCHANGED,
          1,
          key,
          text,
          JSON.stringify(changed),
          milliseconds(ttlMs(changed)),
        );
        if (swapped === 1) return changed;
      }
      throw new Error(
        `mcp redis: session ${JSON.stringify(id)}'s record changed under ${UPDATE_ATTEMPTS} updates in a row`,
      );
    },
  };
}

/**
 * Sets a key to a new value only while it still holds the one read (a compare-and-set in one Redis step): a
 * change another instance stored in between makes it answer 0, and the update reads again.
 */
const SET_IF_UNCHANGED = `if redis.call("GET", KEYS[1]) == ARGV[1] then
  redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[3])
  return 1
end
return 0`;
/** How often an update reads again after losing a race before it fails (a store error: the request gets 503). */
const UPDATE_ATTEMPTS = 16;

/** A TTL Redis takes: a whole number of ms, at least 1. */
export function milliseconds(ms: number): number {
  return Math.max(1, Math.ceil(ms));
}

/** The record a key holds; undefined for anything else (a key another program wrote): a missing session. */
function recordOf(text: string): SessionRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const {
    version,
    clientCapabilities,
    clientInfo,
    logLevel,
    subscriptions,
    subject,
    initialized,
    revision,
  } = value;
  // A record an instance older than `ready` wrote counts its client ready once it came back.
  const ready = value["ready"] ?? initialized;
  if (
    !optionalString(version) ||
    !optionalString(logLevel) ||
    !optionalString(subject) ||
    !(clientCapabilities === undefined || isObject(clientCapabilities)) ||
    !(clientInfo === undefined || isObject(clientInfo)) ||
    !Array.isArray(subscriptions) ||
    !subscriptions.every((uri) => typeof uri === "string") ||
    typeof initialized !== "boolean" ||
    typeof ready !== "boolean" ||
    !(revision === undefined || (typeof revision === "number" && Number.isSafeInteger(revision)))
  )
    return undefined;
  return {
    version,
    clientCapabilities: clientCapabilities,
    clientInfo: clientInfo,
    logLevel,
    subscriptions: subscriptions,
    subject,
    initialized,
    ready,
    ...(revision === undefined ? {} : { revision }),
  };
}

function optionalString(value: unknown): value is string | undefined {
  return value === undefined || typeof value === "string";
}
