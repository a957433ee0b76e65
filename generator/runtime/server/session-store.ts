import type { JsonObject } from "../core/json.js";

/**
 * Where the 2025 session era keeps what a session is, apart from the live objects serving it:
 * plain JSON-shaped records with an idle expiry. The interface is async and its records hold no
 * live objects, so a store shared by several server instances (Redis, a table) can stand in for
 * the in-memory default; an instance that finds a session it did not open serves it from its record.
 */

/** One session's state: what it agreed, who it belongs to, what its client asked for. */
export interface SessionRecord {
  /** The version the session's `initialize` agreed on. */
  readonly version: string | undefined;
  /** The client's `capabilities` and `clientInfo` from its `initialize`. */
  readonly clientCapabilities: JsonObject | undefined;
  readonly clientInfo: JsonObject | undefined;
  /** The level a `logging/setLevel` set; undefined until one did. */
  readonly logLevel: string | undefined;
  /** The resource URIs the client subscribed to (`resources/subscribe`), in order. */
  readonly subscriptions: readonly string[];
  /** The `subject` of the identity that opened the session (the request gate's); undefined without a gate. */
  readonly subject: string | undefined;
  /** Whether the client used the session after its `initialize` (`notifications/initialized`, any request). */
  readonly initialized: boolean;
  /**
   * Whether the client sent `notifications/initialized`: only then does the session hear list changes and
   * resource updates, from whichever instance holds its stream.
   */
  readonly ready: boolean;
  /**
   * How many changes of the client's state (level, subscriptions) the record has seen: an instance hearing of a
   * change on the bus keeps whichever of it and its own copy is later. Absent: none (and in records written before).
   */
  readonly revision?: number;
}

export interface SessionStore {
  /** The record of session `id`, or undefined when there is none or it expired. */
  get(id: string): Promise<SessionRecord | undefined>;
  /** Stores `record` as session `id`'s, to expire after `ttlMs` without a `touch` or `set`. */
  set(id: string, record: SessionRecord, ttlMs: number): Promise<void>;
  /** Pushes session `id`'s expiry to `ttlMs` from now; false when there is no such session. */
  touch(id: string, ttlMs: number): Promise<boolean>;
  delete(id: string): Promise<void>;
  /**
   * Changes session `id`'s record as one step, stored to expire after `ttlMs(changed)`: a change another instance
   * stored between the read and the write is never lost (the built-in stores compare and set, and try again).
   * Resolves to the changed record, or undefined when there is no such session (nothing is stored then). A store
   * without it is read and set in two steps, where two changes at the same moment through two instances (a
   * subscribe on one, an unsubscribe on the other) may lose one.
   */
  update?(
    id: string,
    change: (record: SessionRecord) => SessionRecord,
    ttlMs: (record: SessionRecord) => number,
  ): Promise<SessionRecord | undefined>;
}

interface Entry {
  readonly record: SessionRecord;
  expires: number;
}

/** The in-process `SessionStore`; `now` is the clock the expiries are measured on (ms). */
export function createMemorySessionStore(now: () => number = Date.now): SessionStore {
  const entries = new Map<string, Entry>();
  const live = (id: string): Entry | undefined => {
    const entry = entries.get(id);
    if (entry === undefined || entry.expires > now()) return entry;
    entries.delete(id);
    return undefined;
  };
  return {
    get: (id) => Promise.resolve(live(id)?.record),
    set(id, record, ttlMs) {
      entries.set(id, { record, expires: now() + ttlMs });
      return Promise.resolve();
    },
    touch(id, ttlMs) {
      const entry = live(id);
      if (entry !== undefined) entry.expires = now() + ttlMs;
      return Promise.resolve(entry !== undefined);
    },
    // Read and set in one synchronous step: nothing runs between them.
    update(id, change, ttlMs) {
      const entry = live(id);
      if (entry === undefined) return Promise.resolve(undefined);
      const record = change(entry.record);
      entries.set(id, { record, expires: now() + ttlMs(record) });
      return Promise.resolve(record);
    },
    delete(id) {
      entries.delete(id);
      return Promise.resolve();
    },
  };
}

/**
 * A shared store or bus failed where a request depends on it (Redis away or restarting): the request
 * gets 503 and may be sent again; nothing it asked for was acknowledged.
 */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super("mcp http: the session store or message bus failed", { cause });
    this.name = "StoreUnavailableError";
  }
}
