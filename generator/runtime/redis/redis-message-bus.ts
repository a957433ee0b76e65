import { isObject, type JsonObject } from "../core/json.js";
import type { MessageBus } from "../server/message-bus.js";
import type { RedisClient } from "./redis-connection.js";

/**
 * The `MessageBus` on Redis pub/sub: `publish` is `PUBLISH` on the main connection, and each
 * instance holds one dedicated subscriber connection, on which it subscribes to a topic's channel
 * while anything here listens to it and fans each message out to its local listeners. The local
 * listeners are the truth: whenever the subscriber (re)connects it subscribes to all their channels
 * again, so a subscription made while Redis was away takes effect once it is back.
 */

export interface RedisMessageBusOptions {
  /** Prefix of every channel. Default `"mcp:"`: topic `t` is channel `mcp:bus:t`. */
  readonly prefix?: string;
  /** Sees failed subscriptions, unreadable messages and listeners that throw. */
  readonly onError?: (error: unknown) => void;
}

export function createRedisMessageBus(
  client: RedisClient,
  subscriber: RedisClient,
  options: RedisMessageBusOptions = {},
): MessageBus {
  const prefix = `${options.prefix ?? "mcp:"}bus:`;
  const report = (error: unknown): void => options.onError?.(error);
  const channels = new Map<string, Set<(message: JsonObject) => void>>();

  subscriber.on("message", (channel: string, text: string) => {
    const listeners = channels.get(channel);
    if (listeners === undefined) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      return report(error);
    }
    if (!isObject(message)) return;
    for (const deliver of [...listeners]) {
      try {
        deliver(message);
      } catch (error) {
        report(error);
      }
    }
  });
  subscriber.on("ready", () => {
    if (channels.size > 0) subscriber.subscribe(...channels.keys()).catch(report);
  });

  return {
    publish: (topic, message) => client.publish(prefix + topic, JSON.stringify(message)),
    async subscribe(topic, deliver) {
      const channel = prefix + topic;
      // A wrapper per subscription, so the same function subscribed twice is two subscribers.
      const one = (message: JsonObject): void => deliver(message);
      const listeners = channels.get(channel);
      if (listeners !== undefined) listeners.add(one);
      else {
        channels.set(channel, new Set([one]));
        // Redis away: the subscription is kept here and made when the subscriber reconnects.
        await subscriber.subscribe(channel).catch(report);
      }
      return async () => {
        const current = channels.get(channel);
        if (current === undefined || !current.delete(one) || current.size > 0) return;
        channels.delete(channel);
        await subscriber.unsubscribe(channel).catch(report);
      };
    },
  };
}
