import type { StreamSink } from "./sse.js";

/**
 * Backpressure for one event stream's connection: what the stream writes goes to the connection
 * while it takes more (node's `write()` returned true, a fetch body's `desiredSize` is above 0) and
 * is held here while it does not, until it drains. A reader that never reads would otherwise grow
 * the server without bound, so held output past `maxUnsentBytes` drops the connection and says why.
 */

export interface OutboxOptions {
  /**
   * Output held for one connection, in bytes, past which its reader counts as too far behind and the
   * connection is dropped. One event always fits, however large, so a big result still reaches a reader
   * that keeps up.
   */
  readonly maxUnsentBytes: number;
  /** A connection was dropped for a reader too far behind: `unsentBytes` were held for it. */
  readonly onOverflow: (this: void, unsentBytes: number) => void;
}

/** A connection as the outbox writes to it. */
export interface OutboxTarget {
  /** Sends bytes (always taken); false when the connection's own buffer is full: wait for `drained`. */
  write(bytes: Uint8Array): boolean;
  /** Ends the connection once what it took is sent. */
  end(): void;
  /** Drops the connection at once, unsent output with it. */
  abort(): void;
}

/** A `StreamSink` for `EventStream.attach` that holds what its target cannot take yet. */
export interface Outbox extends StreamSink {
  /** The target's buffer has room again (node's `drain`, a fetch body's `pull`): held output goes out. */
  drained(): void;
  /**
   * Runs `attach`, whose writes are the stream's backlog (events queued before the connection came, or
   * replayed after `Last-Event-ID`): held like any output, but not counted against `maxUnsentBytes`,
   * since the stream kept them anyway; a resumed reader is not dropped for what it missed.
   */
  backlog(attach: () => void): void;
  /** Bytes held that count against `maxUnsentBytes` (the backlog does not). */
  readonly unsent: number;
}

/** 1 MiB, written as a literal: esbuild keeps an unused product of literals in a bundle. */
export const DEFAULT_MAX_UNSENT_BYTES = 1_048_576;

const utf8 = new (
  globalThis as unknown as {
    TextEncoder: new () => { encode(text: string): Uint8Array };
  }
).TextEncoder();

interface Held {
  readonly bytes: Uint8Array;
  readonly counted: boolean;
}

export function createOutbox(target: OutboxTarget, options: OutboxOptions): Outbox {
  let held: Held[] = [];
  // What counts against the budget: bytes and chunks held beyond the backlog.
  let unsent = 0;
  let counted = 0;
  let inBacklog = false;
  let full = false;
  let ending = false;
  let dropped = false;

  const flush = (): void => {
    while (!full && held.length > 0) {
      const next = held.shift()!;
      if (next.counted) {
        unsent -= next.bytes.length;
        counted--;
      }
      full = !target.write(next.bytes);
    }
    if (held.length === 0 && ending) target.end();
  };

  return {
    get unsent() {
      return unsent;
    },
    write(chunk: string): void {
      if (dropped || ending) return;
      const bytes = utf8.encode(chunk);
      if (!full && held.length === 0) {
        full = !target.write(bytes);
        return;
      }
      held.push({ bytes, counted: !inBacklog });
      if (inBacklog) return;
      unsent += bytes.length;
      counted++;
      if (unsent <= options.maxUnsentBytes || counted === 1) return;
      dropped = true;
      const behind = unsent;
      held = [];
      unsent = 0;
      counted = 0;
      target.abort();
      options.onOverflow(behind);
    },
    end(): void {
      if (dropped || ending) return;
      ending = true;
      if (held.length === 0) target.end();
    },
    drained(): void {
      if (dropped) return;
      full = false;
      flush();
    },
    backlog(attach: () => void): void {
      inBacklog = true;
      try {
        attach();
      } finally {
        inBacklog = false;
      }
    },
  };
}
