import type { EventStore, StoredEvent } from "../server/event-store.js";
import type { RedisClient } from "./redis-connection.js";
import { milliseconds } from "./redis-session-store.js";

/**
 * The `EventStore` on Redis Streams: a session stream's events are the entries of one Redis stream
 * whose entry ids are `0-<event number>`, so a `Last-Event-ID` replay is one `XRANGE` from the next
 * number on, whichever instance wrote them. Each stream keeps its newest `maxEventsPerStream` entries
 * (`XADD … MAXLEN`) and is forgotten `ttlMs` after its last event.
 */

export interface RedisEventStoreOptions {
  /** Prefix of every key. Default `"mcp:"`: streams are `mcp:events:<session>/<stream>`. */
  readonly prefix?: string;
  /** Events kept per stream; older ones are trimmed as new ones come. Default 1,000. */
  readonly maxEventsPerStream?: number;
  /** A stream nobody wrote to for this long is forgotten: give it the server's `sessionIdleMs`. Default 30 min. */
  readonly ttlMs?: number;
}

const DEFAULT_MAX_EVENTS = 1000;
const DEFAULT_TTL_MS = 30 * 60 * 1000;
/** The one field of each entry: the frame as written on the wire. */
const FIELD = "f";

export function createRedisEventStore(
  client: RedisClient,
  options: RedisEventStoreOptions = {},
): EventStore {
  const prefix = `${options.prefix ?? "mcp:"}events:`;
  const limit = Math.max(1, Math.floor(options.maxEventsPerStream ?? DEFAULT_MAX_EVENTS));
  const ttl = milliseconds(options.ttlMs ?? DEFAULT_TTL_MS);
  return {
    async append(stream, seq, frame) {
      const key = prefix + stream;
      await succeeded(
        client
          .pipeline()
          .xadd(key, "MAXLEN", limit, `0-${seq}`, FIELD, frame)
          .pexpire(key, ttl)
          .exec(),
      );
    },
    async replay(stream, after) {
      const key = prefix + stream;
      const [exists, entries] = await succeeded(
        client
          .pipeline()
          .exists(key)
          .xrange(key, `0-${after + 1}`, "+")
          .exec(),
      );
      if (exists === 0) return undefined;
      const events: StoredEvent[] = [];
      for (const [id, fields] of entries as [string, string[]][]) {
        const frame = fields[fields.indexOf(FIELD) + 1];
        if (frame !== undefined) events.push({ seq: Number(id.slice(2)), frame });
      }
      return events;
    },
    async drop(stream) {
      await client.del(prefix + stream);
    },
  };
}

/** The replies of a pipeline, or its first command's error (a pipeline resolves with errors inside). */
async function succeeded(
  replies: Promise<[error: Error | null, result: unknown][] | null>,
): Promise<unknown[]> {
  const all = await replies;
  if (all === null) throw new Error("Redis discarded the commands");
  for (const [error] of all) if (error !== null) throw error;
  return all.map(([, result]) => result);
}
