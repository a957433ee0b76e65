/**
 * An incremental parser for `text/event-stream` (the HTML standard's server-sent events, which Streamable
 * HTTP uses): bytes go in as they arrive, split anywhere (inside a UTF-8 character, between a CR and its
 * LF), and each complete event comes out. An event cut off by the end of the stream is dropped, as the
 * standard says.
 */
import { utf8Decoder } from "../core/text-codec.js";

export interface SseEvent {
  /** The `event:` field; "message" when the server named none. */
  readonly event: string;
  readonly data: string;
  /** The last event id seen so far on the stream (the standard's "last event ID"), if any. */
  readonly id: string | undefined;
}

export interface SseParser {
  push(chunk: string | Uint8Array): void;
  /** The stream ended: a partly received event is discarded. */
  end(): void;
  /** The id to resume from (`Last-Event-ID`), once the server sent one. */
  readonly lastEventId: string | undefined;
  /** The reconnection delay the server asked for with `retry:`, if it did. */
  readonly retryMs: number | undefined;
}

export interface SseParserOptions {
  /** An unfinished line or event larger than this fails the stream (`push` throws a RangeError). Defaults to 16 MiB. */
  readonly maxEventChars?: number;
}

/** 16 MiB (a literal, as in ndjson.ts). */
const DEFAULT_MAX_EVENT_CHARS = 16_777_216;

export function createSseParser(
  onEvent: (event: SseEvent) => void,
  options: SseParserOptions = {},
): SseParser {
  const max = options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS;
  // The stream's one byte order mark is stripped below, for bytes and text alike.
  const decoder = utf8Decoder(true);
  let buffer = "";
  let started = false;
  // A chunk that ended in CR: an LF at the start of the next one belongs to the same line break.
  let afterCr = false;
  // The standard's data buffer: each `data:` line's value followed by a line feed, the last one dropped at dispatch.
  let data = "";
  let type = "";
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  const lineBreak = /[\r\n]/g;

  /** The index of the first CR or LF in `text` at or after `from`, or -1. */
  function breakAfter(text: string, from: number): number {
    lineBreak.lastIndex = from;
    return lineBreak.exec(text)?.index ?? -1;
  }

  function line(text: string): void {
    if (text === "") return dispatch();
    const colon = text.indexOf(":");
    if (colon === 0) return;
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      data += value + "\n";
      if (data.length > max)
        throw new RangeError(`an event of the stream exceeds ${max} characters`);
    } else if (field === "event") type = value;
    else if (field === "id" && !value.includes("\0")) lastEventId = value;
    else if (field === "retry" && /^\d+$/.test(value)) retryMs = Number(value);
  }

  function dispatch(): void {
    const event =
      data === ""
        ? undefined
        : { event: type || "message", data: data.slice(0, -1), id: lastEventId };
    data = "";
    type = "";
    if (event !== undefined) onEvent(event);
  }

  /** Takes the lines `text` completes; only `text` is searched, so a long line costs its length once. */
  function feed(text: string): void {
    if (text === "") return;
    if (!started) {
      started = true;
      if (text.startsWith("\uFEFF")) text = text.slice(1);
    }
    let start = afterCr && text.startsWith("\n") ? 1 : 0;
    afterCr = false;
    for (let at = breakAfter(text, start); at >= 0; at = breakAfter(text, start)) {
      line(buffer + text.slice(start, at));
      buffer = "";
      start = at + (text.startsWith("\r\n", at) ? 2 : 1);
      // A CR that ends the chunk may have its LF at the start of the next one.
      afterCr = start === text.length && text[at] === "\r";
    }
    buffer += text.slice(start);
    if (buffer.length > max) throw new RangeError(`a line of the stream exceeds ${max} characters`);
  }

  return {
    push(chunk) {
      feed(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
    },
    end() {
      feed(decoder.decode());
      buffer = "";
      data = "";
      type = "";
    },
    get lastEventId() {
      return lastEventId;
    },
    get retryMs() {
      return retryMs;
    },
  };
}
