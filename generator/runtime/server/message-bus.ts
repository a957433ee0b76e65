import type { JsonObject } from "../core/json.js";

/**
 * Delivers a message to whoever holds the stream that can carry it, wherever that is. The HTTP
 * transport publishes on a topic per destination (`sessionTopics`): a request or notification for
 * a session's standalone GET stream, or a client's answer for the instance whose handler waits for
 * it; a `subscriptions/listen` stream subscribes to its own topic the same way. The interface is
 * publish/subscribe over JSON, so Redis pub/sub or Postgres LISTEN/NOTIFY can carry it between
 * processes; the default delivers within this one.
 */
export interface MessageBus {
  /** Hands `message` to every current subscriber of `topic`; resolves with how many there were (0: nobody holds it). */
  publish(topic: string, message: JsonObject): Promise<number>;
  /** Calls `deliver` with each message published on `topic` until the returned function is called. */
  subscribe(topic: string, deliver: (message: JsonObject) => void): Promise<() => Promise<void>>;
}

/**
 * The topics the HTTP transport uses for one session: its standalone stream, its client's answers,
 * `closed`, on which a DELETE of the session reaches every instance holding a live part of it, and
 * `changed`, on which a change to its record (a log level, a subscription) made through one
 * instance reaches the others holding it, so they need not read the store per request.
 */
export function sessionTopics(sessionId: string): {
  readonly stream: string;
  readonly answers: string;
  readonly closed: string;
  readonly changed: string;
} {
  const topic = `mcp/session/${sessionId}`;
  return {
    stream: `${topic}/stream`,
    answers: `${topic}/answers`,
    closed: `${topic}/closed`,
    changed: `${topic}/changed`,
  };
}

/**
 * The in-process `MessageBus`: `publish` calls the subscribers before it resolves, in the order
 * they subscribed; one that throws does not keep the message from the others.
 */
export function createMemoryMessageBus(onError?: (error: unknown) => void): MessageBus {
  const topics = new Map<string, Set<(message: JsonObject) => void>>();
  return {
    publish(topic, message) {
      const listeners = topics.get(topic);
      if (listeners === undefined) return Promise.resolve(0);
      const now = [...listeners];
      for (const deliver of now) {
        try {
          deliver(message);
        } catch (error) {
          onError?.(error);
        }
      }
      return Promise.resolve(now.length);
    },
    subscribe(topic, deliver) {
      let listeners = topics.get(topic);
      if (listeners === undefined) topics.set(topic, (listeners = new Set()));
      // A wrapper per subscription, so the same function subscribed twice is two subscribers.
      const one = (message: JsonObject): void => deliver(message);
      listeners.add(one);
      return Promise.resolve(() => {
        const current = topics.get(topic);
        current?.delete(one);
        if (current?.size === 0) topics.delete(topic);
        return Promise.resolve();
      });
    },
  };
}
