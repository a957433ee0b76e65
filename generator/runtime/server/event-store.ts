/**
 * Where a session's SSE events are kept for `Last-Event-ID` (2025 transports, resumability): each
 * stream's frames, appended as they are written and replayed after an event number. The interface
 * is async and holds nothing but strings and numbers, so a store shared by several server
 * instances (Redis streams, a table) can stand in for the in-memory default.
 */

/** One kept event: its number in its stream and its frame as written on the wire. */
export interface StoredEvent {
  readonly seq: number;
  readonly frame: string;
}

export interface EventStore {
  /** Keeps `frame`, event number `seq` of `stream` (numbers grow by one per stream). */
  append(stream: string, seq: number, frame: string): Promise<void>;
  /**
   * The kept events of `stream` numbered above `after`, oldest first; undefined when the stream is
   * unknown (never written, dropped, or expired). Events dropped to keep the bound are missing.
   */
  replay(stream: string, after: number): Promise<readonly StoredEvent[] | undefined>;
  /** Forgets `stream` (its session ended, or it is too old to resume). */
  drop(stream: string): Promise<void>;
}

export interface MemoryEventStoreOptions {
  /** Bytes of frames (UTF-8) kept per stream; the oldest go first. Default 1 MiB. */
  readonly maxBytesPerStream?: number;
}

const DEFAULT_REPLAY_BYTES = 1024 * 1024;

interface Kept {
  readonly events: StoredEvent[];
  /** Index of the first event still kept: dropping from the front moves it instead of shifting. */
  head: number;
  bytes: number;
}

/** The in-process `EventStore`: each stream keeps its newest frames up to `maxBytesPerStream`. */
export function createMemoryEventStore(options: MemoryEventStoreOptions = {}): EventStore {
  const limit = options.maxBytesPerStream ?? DEFAULT_REPLAY_BYTES;
  const streams = new Map<string, Kept>();
  return {
    append(stream, seq, frame) {
      let kept = streams.get(stream);
      if (kept === undefined) streams.set(stream, (kept = { events: [], head: 0, bytes: 0 }));
      const size = utf8Length(frame);
      kept.events.push({ seq, frame });
      kept.bytes += size;
      while (kept.bytes > limit && kept.head < kept.events.length)
        kept.bytes -= utf8Length(kept.events[kept.head++]!.frame);
      // Compact once the dropped prefix is half the array, so appends stay amortised O(1).
      if (kept.head > 32 && kept.head * 2 > kept.events.length) {
        kept.events.splice(0, kept.head);
        kept.head = 0;
      }
      return Promise.resolve();
    },
    replay(stream, after) {
      const kept = streams.get(stream);
      if (kept === undefined) return Promise.resolve(undefined);
      const out: StoredEvent[] = [];
      for (let i = kept.head; i < kept.events.length; i++)
        if (kept.events[i]!.seq > after) out.push(kept.events[i]!);
      return Promise.resolve(out);
    },
    drop(stream) {
      streams.delete(stream);
      return Promise.resolve();
    },
  };
}

/** Bytes `text` takes in UTF-8, without encoding it. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    // A surrogate pair is 2 UTF-16 units and 4 bytes; any other unit up to U+FFFF is 3 bytes.
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}
