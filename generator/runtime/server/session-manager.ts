import type { AbortHandle } from "../core/abort.js";
import type { EventStore } from "./event-store.js";
import { randomId, unref } from "./http-exchange.js";
import { isObject, type JsonObject } from "../core/json.js";
import { checkEnvelope, type WireMessage } from "../core/jsonrpc.js";
import { sessionTopics, type MessageBus } from "./message-bus.js";
import type { ServerSession, SessionEra, SessionOutlet } from "./server-eras.js";
import { StoreUnavailableError, type SessionRecord, type SessionStore } from "./session-store.js";
import { createEventStream, parseEventId, type EventStream, type StreamSink } from "./sse.js";

/**
 * The 2025 session era's sessions on one server instance: each session's record in the
 * `SessionStore` and the live part serving it here (the era's `ServerSession`, its streams, its
 * running handlers). Opening is reserved before the `initialize` handler runs, so `maxSessions`
 * holds however many arrive at once; a session whose client never comes back after `initialize`
 * expires after `handshakeMs` and, at the limit, gives way to a new one, so a flood of bare
 * `initialize` calls cannot lock clients out. Streams keep their events in the `EventStore`;
 * requests to the client and the client's answers travel on the `MessageBus`.
 */

declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(timer: unknown): void;

export interface SessionManagerOptions {
  readonly store: SessionStore;
  readonly events: EventStore;
  readonly bus: MessageBus;
  /** Whether `bus` may reach other instances: then a request to the client is published even with no stream here. */
  readonly sharedBus: boolean;
  /**
   * Whether `store` and `events` outlive this instance (the server was given them): a session closed here for
   * idleness, eviction or shutdown then leaves its record and events to the store's own expiry, for the instances
   * that may still serve it. Only its client's DELETE (`end`) forgets them.
   */
  readonly sharedStore: boolean;
  readonly sharedEvents: boolean;
  readonly idleMs: number;
  readonly handshakeMs: number;
  readonly maxSessions: number;
  readonly now: () => number;
  readonly report: (error: unknown) => void;
}

export { StoreUnavailableError };

/** A session as this instance serves it. */
export interface LiveSession {
  readonly id: string;
  readonly core: ServerSession;
  readonly era: SessionEra;
  record: SessionRecord;
  lastSeen: number;
  /** When its record's expiry in the store was last pushed (stored or touched). */
  lastStored: number;
  /**
   * Its streams by id (the standalone GET stream and the request streams, for `Last-Event-ID`), each
   * with what a resumption must undo. Made with the first, as is `running`: an idle session holds neither.
   */
  streams: Map<string, KeptStream> | undefined;
  standalone: EventStream | undefined;
  /** Requests being handled; a session with any is never idle. */
  active: number;
  /** The running handlers' controllers: closing the session aborts them. */
  running: Set<AbortHandle> | undefined;
}

/** A stream of a session, and what its resumption must undo (the armed abort of a request whose client dropped). */
export interface KeptStream {
  readonly stream: EventStream;
  readonly onResume: (() => void) | undefined;
}

/** A slot held for a session while its `initialize` runs. */
export interface Reservation {
  /** The session's id, for the era's session and the reply's header. */
  readonly id: string;
  /** Opens the session once its record is stored; rejects with `StoreUnavailableError`, the session closed, when it cannot be. */
  commit(core: ServerSession, era: SessionEra, record: SessionRecord): Promise<LiveSession>;
  release(): void;
}

export interface SessionManager {
  /** Sessions open on this instance. */
  readonly size: number;
  /** Requests to clients still waiting for an answer, over every session here. */
  readonly pending: number;
  /** A slot for a new session, making room by closing the oldest session that never finished initializing; undefined when full. */
  reserve(): Reservation | undefined;
  /** The record of session `id` as this instance holds it (once committed): the eras' sessions read it (`SessionEra.open`'s `records`). */
  readonly recordOf: (id: string) => SessionRecord | undefined;
  /** Session `id` of `era`, when it exists and belongs to `subject`; served from the store's record when another instance opened it. */
  find(era: SessionEra, id: string, subject: string | undefined): Promise<LiveSession | undefined>;
  /**
   * Marks `session` used by its client: it is initialized from here on (`ready` too when what it sent
   * `initializes`: it holds `notifications/initialized`), and its idle time starts over. The first use, and the
   * one that makes it ready, store the record and return the promise of that (a failure is `StoreUnavailableError`).
   */
  used(session: LiveSession, initializes?: boolean): Promise<void> | undefined;
  /**
   * Records what a successful request changed in the session's state (log level, subscriptions); a promise when it
   * stores it. On a shared store the change applies to the stored record, which other instances also change; on a
   * shared bus too, the instances holding the session are sent the session's new state, which they apply.
   */
  observe(session: LiveSession, message: WireMessage): Promise<void> | undefined;
  /** A new stream of `session` whose events are kept for resumption; `onResume` runs when a client resumes it. */
  stream(session: LiveSession, onDetach?: () => void, onResume?: () => void): EventStream;
  /** Counts `controller` among the session's running handlers until the returned function is called. */
  run(session: LiveSession, controller: AbortHandle): () => void;
  /** The session's new standalone GET stream; undefined when a client holds the current one open. */
  standalone(session: LiveSession): EventStream | undefined;
  /** The stream a `Last-Event-ID` resumes, replaying what followed it; undefined for an id it does not know. */
  resume(session: LiveSession, lastEventId: string): Promise<EventStream | undefined>;
  /** Where requests to the client go once their own stream has ended: the session's standalone stream, wherever it is held. */
  fallback(session: LiveSession): ((message: object) => void) | undefined;
  /**
   * The era's outlet (`SessionEra.onBroadcast`): writes a message to each session it wants whose standalone stream is
   * held here, deciding from the session's record (read from a shared store each time, since its client may have
   * subscribed or initialized through another instance). A session whose stream another instance holds hears it
   * from that instance's own broadcast, so it hears it once; one with no stream open hears nothing (outside a
   * request there is nowhere to send it).
   */
  readonly broadcast: SessionOutlet;
  /**
   * A response from the client: to the request waiting for it here, or on the bus to the instance where
   * it waits (a promise then, rejecting with `StoreUnavailableError` when the bus fails).
   */
  answer(session: LiveSession, message: WireMessage): Promise<void> | undefined;
  /**
   * Closes a session here: its handlers are aborted, its streams ended; its record and events are dropped unless a
   * shared store keeps them for other instances.
   */
  close(session: LiveSession): void;
  /** Closes a session its client ended (DELETE): here, in the store, and on every instance the bus reaches. */
  end(session: LiveSession): Promise<void>;
  /** Closes expired sessions; at most every quarter of the shortest expiry unless `force`. */
  sweep(force: boolean): void;
  closeAll(): void;
}

/** Work a request's answer depends on: its failure is the request's 503. */
/** How many state changes `record` has seen. */
const revisionOf = (record: SessionRecord): number => record.revision ?? 0;

function needed<T>(work: Promise<T>): Promise<T> {
  return work.catch((cause: unknown) => {
    throw new StoreUnavailableError(cause);
  });
}

/** Streams kept per session for resumption after they ended. */
const ENDED_STREAMS_KEPT = 8;

/** Whether a client holds the session's standalone GET stream open: it is still there, however long since it POSTed. */
function listening(session: LiveSession): boolean {
  const stream = session.standalone;
  return stream !== undefined && !stream.ended && stream.attached;
}

export function createSessionManager(options: SessionManagerOptions): SessionManager {
  const { store, events, bus, idleMs, maxSessions, now, report } = options;
  // A session never waits longer for its client to finish initializing than an idle one would.
  const handshakeMs = Math.min(options.handshakeMs, idleMs);
  const sessions = new Map<string, LiveSession>();
  /** Unsubscribes, per session: its answers and closed topics (a shared bus only), and its standalone stream's topic. */
  const answerSubscriptions = new Map<LiveSession, Promise<() => Promise<void>>>();
  const closedSubscriptions = new Map<LiveSession, Promise<() => Promise<void>>>();
  const streamSubscriptions = new Map<LiveSession, Promise<() => Promise<void>>>();
  const changedSubscriptions = new Map<LiveSession, Promise<() => Promise<void>>>();
  /** Who tells of a record change on the bus, so this instance does not apply again what it just stored. */
  const instance = randomId();
  /** Whether other instances may hold a session's record, and hear of its changes. */
  const fleet = options.sharedBus && options.sharedStore;
  let reserved = 0;
  const sweepEvery = Math.min(idleMs, handshakeMs, 60_000) / 4;
  let lastSweep = now();
  let sweepTimer: unknown;
  const eventKey = (session: LiveSession, stream: string): string => `${session.id}/${stream}`;

  const quietly = (work: Promise<unknown>): void => void work.catch(report);

  const subscribe = (
    topic: string,
    deliver: (message: JsonObject) => void,
  ): Promise<() => Promise<void>> => {
    const done = bus.subscribe(topic, deliver);
    done.catch(report);
    return done;
  };
  const unsubscribe = (done: Promise<() => Promise<void>> | undefined): void => {
    if (done !== undefined) quietly(done.then((off) => off()));
  };

  const scheduleSweep = (): void => {
    if (sweepTimer !== undefined || sessions.size === 0) return;
    sweepTimer = setTimeout(() => {
      sweepTimer = undefined;
      manager.sweep(true);
      scheduleSweep();
    }, sweepEvery);
    unref(sweepTimer);
  };

  const adopt = (core: ServerSession, era: SessionEra, record: SessionRecord, id: string) => {
    const session: LiveSession = {
      id,
      core,
      era,
      record,
      lastSeen: now(),
      // Unknown for a record found in the store: its first use here pushes it.
      lastStored: Number.NEGATIVE_INFINITY,
      streams: undefined,
      standalone: undefined,
      active: 0,
      running: undefined,
    };
    sessions.set(id, session);
    // A client's answer POSTed to another instance reaches the handler waiting for it here, and its
    // DELETE there closes what runs here; with the process's own bus both arrive here directly, and a
    // session costs no subscription.
    if (options.sharedBus) {
      const topics = sessionTopics(id);
      answerSubscriptions.set(
        session,
        subscribe(topics.answers, (message) => {
          const checked = checkEnvelope(message);
          if (checked.ok) core.receive(checked.message);
        }),
      );
      closedSubscriptions.set(
        session,
        subscribe(topics.closed, () => manager.close(session)),
      );
    }
    // What its client changes through another instance (its log level) holds here too, without a store read.
    if (fleet)
      changedSubscriptions.set(
        session,
        subscribe(sessionTopics(id).changed, (message) => {
          if (message["from"] !== instance) heard(session, message);
        }),
      );
    scheduleSweep();
    return session;
  };

  /** How long a record lasts unused in the store: a session whose client never came back after `initialize`, less. */
  const ttlOf = (record: SessionRecord): number => (record.initialized ? idleMs : handshakeMs);

  const save = (session: LiveSession): Promise<void> => {
    session.lastStored = now();
    return needed(store.set(session.id, session.record, ttlOf(session.record)));
  };

  /**
   * Changes the session's record and stores it. A shared store's record is changed instead of the one held here,
   * which misses what the client did through other instances since this one read it: in one step where the store
   * can (`SessionStore.update`), else read and then set. A record the store no longer has is stored again.
   */
  const update = (
    session: LiveSession,
    change: (record: SessionRecord) => SessionRecord,
  ): Promise<void> => {
    if (!options.sharedStore) {
      session.record = change(session.record);
      return save(session);
    }
    if (store.update === undefined)
      return needed(store.get(session.id)).then((stored) => {
        session.record = change(stored ?? session.record);
        return save(session);
      });
    return needed(store.update(session.id, change, ttlOf)).then((stored) => {
      if (stored === undefined) {
        session.record = change(session.record);
        return save(session);
      }
      // A later change through another instance may have been heard while this one was stored.
      if (revisionOf(stored) >= revisionOf(session.record)) session.record = stored;
      session.lastStored = now();
      return undefined;
    });
  };

  /**
   * Applies what another instance stored of the session's state (`change`) as soon as it arrives: the message carries
   * it, so no store read is needed.
   */
  const heard = (session: LiveSession, message: JsonObject): void => {
    const { logLevel, subscriptions, revision } = message;
    const level = typeof logLevel === "string" ? logLevel : undefined;
    if (
      level !== logLevel ||
      !Array.isArray(subscriptions) ||
      !subscriptions.every((uri) => typeof uri === "string") ||
      !(revision === undefined || typeof revision === "number")
    )
      return report(new Error("mcp http: a session change on the bus is not one this server sent"));
    // Changes made at once through several instances may be heard in any order: the later one stands (an instance
    // from before revisions sends none, and is taken at its word).
    if (sessions.get(session.id) !== session) return;
    if (revision === undefined)
      session.record = { ...session.record, logLevel: level, subscriptions };
    else if (revision > revisionOf(session.record))
      session.record = { ...session.record, logLevel: level, subscriptions, revision };
  };

  /** A change the session's handlers read (`observe`): stored, then told to the other instances holding it. */
  const change = (
    session: LiveSession,
    apply: (record: SessionRecord) => SessionRecord,
  ): Promise<void> => {
    const stored = update(session, (record) => ({
      ...apply(record),
      revision: revisionOf(record) + 1,
    }));
    if (!fleet) return stored;
    // Not acknowledged until told: an instance left unaware would go on filtering by the old level.
    const told = (): Promise<number> => {
      const { logLevel, subscriptions } = session.record;
      const revision = revisionOf(session.record);
      const state =
        logLevel === undefined
          ? { subscriptions, revision }
          : { logLevel, subscriptions, revision };
      return bus.publish(sessionTopics(session.id).changed, { from: instance, ...state });
    };
    return stored.then(() => needed(told())).then(() => undefined);
  };

  /** Writes a broadcast message to a session's stream; a failure is reported, not the broadcaster's. */
  const deliver = (stream: EventStream, message: object): void => {
    try {
      stream.write(message);
    } catch (error) {
      report(error);
    }
  };

  /** The oldest session that never finished initializing and runs nothing: the one a new session may replace. */
  const evictable = (): LiveSession | undefined => {
    for (const session of sessions.values())
      if (!session.record.initialized && session.active === 0) return session;
    return undefined;
  };

  const keepStream = (session: LiveSession, id: string, kept: KeptStream): void => {
    const streams = (session.streams ??= new Map<string, KeptStream>());
    streams.set(id, kept);
    if (streams.size <= ENDED_STREAMS_KEPT + 1) return;
    for (const [key, old] of streams) {
      if (streams.size <= ENDED_STREAMS_KEPT + 1) break;
      if (!old.stream.ended) continue;
      streams.delete(key);
      quietly(events.drop(eventKey(session, key)));
    }
  };

  const teardown = (session: LiveSession, dropRecord: boolean, dropEvents: boolean): void => {
    if (sessions.get(session.id) !== session) return;
    sessions.delete(session.id);
    for (const controller of [...(session.running ?? [])]) controller.abort();
    for (const [id, { stream }] of session.streams ?? []) {
      stream.end();
      if (dropEvents) quietly(events.drop(eventKey(session, id)));
    }
    session.core.close();
    unsubscribe(answerSubscriptions.get(session));
    unsubscribe(closedSubscriptions.get(session));
    unsubscribe(streamSubscriptions.get(session));
    unsubscribe(changedSubscriptions.get(session));
    answerSubscriptions.delete(session);
    closedSubscriptions.delete(session);
    streamSubscriptions.delete(session);
    changedSubscriptions.delete(session);
    if (dropRecord) quietly(store.delete(session.id));
    if (sessions.size === 0 && sweepTimer !== undefined) {
      clearTimeout(sweepTimer);
      sweepTimer = undefined;
    }
  };

  const manager: SessionManager = {
    get size() {
      return sessions.size;
    },
    get pending() {
      let count = 0;
      for (const session of sessions.values()) count += session.core.pending;
      return count;
    },
    recordOf: (id) => sessions.get(id)?.record,
    reserve() {
      if (sessions.size + reserved >= maxSessions) {
        const victim = evictable();
        if (victim === undefined) return undefined;
        manager.close(victim);
      }
      reserved++;
      let held = true;
      const release = (): void => {
        if (held) reserved--;
        held = false;
      };
      const id = randomId();
      return {
        id,
        async commit(core, era, record) {
          release();
          const session = adopt(core, era, record, id);
          try {
            await save(session);
          } catch (error) {
            teardown(session, false, false);
            throw error;
          }
          return session;
        },
        release,
      };
    },
    async find(era, id, subject) {
      let session = sessions.get(id);
      if (session === undefined) {
        const record = await needed(store.get(id));
        // Another instance opened it: serve it here from its record (its handlers' own state starts anew; the record's
        // log level and subscriptions carry over).
        if (record === undefined || sessions.has(id)) session = sessions.get(id);
        else if (record.version === undefined || era.spec.versions.includes(record.version)) {
          session = adopt(era.open(id, record.ready, manager.recordOf), era, record, id);
        }
      }
      // Someone else's session is answered as a missing one: 404 tells nothing about whose it is.
      if (session === undefined || session.era !== era || session.record.subject !== subject)
        return undefined;
      return session;
    },
    used(session, initializes = false) {
      const time = now();
      session.lastSeen = time;
      const { initialized, ready } = session.record;
      if (!initialized || (initializes && !ready))
        return update(session, (record) => ({
          ...record,
          initialized: true,
          ready: record.ready || initializes,
        }));
      // Counted from the last push, not the last use: a session in steady use must not expire in the store.
      if (time - session.lastStored > idleMs / 4) {
        session.lastStored = time;
        quietly(store.touch(session.id, idleMs));
      }
      return undefined;
    },
    observe(session, message) {
      if (message.kind !== "request" || !isObject(message.params)) return undefined;
      const { level, uri } = message.params;
      if (message.method === "logging/setLevel" && typeof level === "string")
        return change(session, (record) => ({ ...record, logLevel: level }));
      if (message.method === "resources/subscribe" && typeof uri === "string")
        return change(session, (record) => ({
          ...record,
          subscriptions: [...record.subscriptions.filter((u) => u !== uri), uri],
        }));
      if (message.method === "resources/unsubscribe" && typeof uri === "string")
        return change(session, (record) => ({
          ...record,
          subscriptions: record.subscriptions.filter((u) => u !== uri),
        }));
      return undefined;
    },
    stream(session, onDetach, onResume) {
      const id = randomId();
      const key = eventKey(session, id);
      const stream = createEventStream(id, onDetach, (seq, frame) =>
        quietly(events.append(key, seq, frame)),
      );
      keepStream(session, id, { stream, onResume });
      return stream;
    },
    run(session, controller) {
      const running = (session.running ??= new Set<AbortHandle>());
      running.add(controller);
      return () => running.delete(controller);
    },
    standalone(session) {
      if (listening(session)) return undefined;
      const stream = manager.stream(session);
      session.standalone = stream;
      // The stream this one replaces stops taking the session's messages.
      unsubscribe(streamSubscriptions.get(session));
      streamSubscriptions.set(
        session,
        subscribe(sessionTopics(session.id).stream, (message) => stream.write(message)),
      );
      return stream;
    },
    async resume(session, lastEventId) {
      const position = parseEventId(lastEventId);
      if (position === undefined) return undefined;
      const replayed = await needed(
        events.replay(eventKey(session, position.stream), position.seq),
      );
      if (replayed === undefined) return undefined;
      const kept = session.streams?.get(position.stream);
      kept?.onResume?.();
      const live = kept?.stream;
      let last = position.seq;
      for (const event of replayed) last = Math.max(last, event.seq);
      return replay(live, replayed, last);
    },
    fallback(session) {
      const standalone = session.standalone;
      if ((standalone === undefined || standalone.ended) && !options.sharedBus) return undefined;
      const topic = sessionTopics(session.id).stream;
      return (message) => quietly(bus.publish(topic, message as JsonObject));
    },
    broadcast(message, wants) {
      for (const session of sessions.values()) {
        const stream = session.standalone;
        if (stream === undefined || stream.ended) continue;
        if (!options.sharedStore) {
          if (wants(session.core, session.record)) deliver(stream, message);
          continue;
        }
        quietly(
          store.get(session.id).then((record) => {
            if (record !== undefined && !stream.ended && wants(session.core, record))
              deliver(stream, message);
          }),
        );
      }
    },
    answer(session, message) {
      if (session.core.receive(message) || !options.sharedBus) return undefined;
      // The bus carries the JSON-RPC message as the client sent it, without the parser's `kind`.
      const { kind: _kind, ...wire } = message;
      return needed(bus.publish(sessionTopics(session.id).answers, wire)).then(() => undefined);
    },
    // Expiry, eviction and shutdown stay local: another instance may still be serving the session's client.
    close(session) {
      teardown(session, !options.sharedStore, !options.sharedEvents);
    },
    async end(session) {
      teardown(session, false, true);
      // The DELETE is acknowledged only once no instance can serve the session from its record.
      await needed(store.delete(session.id));
      if (options.sharedBus) quietly(bus.publish(sessionTopics(session.id).closed, {}));
    },
    // Idle sessions are swept when requests come in and, while any is open, on a timer: a server
    // nobody calls any more still closes them. No session, no timer.
    sweep(force) {
      const time = now();
      if (!force && time - lastSweep < sweepEvery) return;
      lastSweep = time;
      for (const session of [...sessions.values()]) {
        // A held stream counts as use, so a client whose stream drops has the whole idle time to come back.
        if (listening(session) || session.active > 0) {
          if (listening(session)) session.lastSeen = time;
          // Its record must outlive its idle time in a shared store too, where other instances look.
          quietly(store.touch(session.id, idleMs));
        } else if (time - session.lastSeen > (session.record.initialized ? idleMs : handshakeMs))
          manager.close(session);
      }
    },
    closeAll() {
      clearTimeout(sweepTimer);
      sweepTimer = undefined;
      for (const session of [...sessions.values()]) manager.close(session);
    },
  };
  return manager;
}

/**
 * A stream to attach from a resumption: the connection first gets the replayed events, then the live
 * stream's frames after them; a stream no longer held here (ended, or opened on another instance)
 * ends after the replay.
 */
function replay(
  live: EventStream | undefined,
  replayed: readonly { readonly frame: string }[],
  last: number,
): EventStream {
  let ended = live === undefined;
  return {
    get id() {
      return live?.id;
    },
    get ended() {
      return live?.ended ?? ended;
    },
    get attached() {
      return live?.attached ?? false;
    },
    write: (message) => live?.write(message),
    comment: (text) => live?.comment(text),
    end: () => {
      ended = true;
      live?.end();
    },
    attach(sink: StreamSink) {
      for (const event of replayed) sink.write(event.frame);
      if (live === undefined) sink.end();
      else live.attach(sink, last);
    },
    detach: (sink: StreamSink) => live?.detach(sink),
  };
}
