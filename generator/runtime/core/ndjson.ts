/**
 * Newline-delimited JSON, the stdio transport's framing: one JSON-RPC message per line, the line
 * break being "\n" (a "\r" before it is tolerated). Lines are found in bytes, so a chunk may end
 * anywhere, inside a UTF-8 character included.
 */
import { utf8Decoder, utf8Encode } from "./text-codec.js";

export interface LineSplitter {
  push(chunk: string | Uint8Array): void;
  end(): void;
}

const NEWLINE = 0x0a;
/** 16 MiB, written as a literal: esbuild keeps an unused product of literals in a bundle. */
const DEFAULT_MAX_LINE_BYTES = 16_777_216;

/** How much of a dropped line `onOverflow` is shown: enough for a message's leading `"id"`. */
const HEAD_BYTES = 256;

/**
 * Calls onLine with each complete line (no "\n", a trailing "\r" removed); a line longer than maxLineBytes is
 * dropped whole and reported to onOverflow with its first bytes as text (whose call it was may be read there).
 */
export function createLineSplitter(
  onLine: (line: string) => void,
  options: { maxLineBytes?: number; onOverflow?: (head: string) => void } = {},
): LineSplitter {
  const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let parts: Uint8Array[] = [];
  let size = 0;
  // The start of the line being dropped, once one is.
  let dropped: Uint8Array | undefined;

  function take(bytes: Uint8Array): void {
    if (dropped !== undefined) return;
    if (size + bytes.length > max) {
      parts.push(bytes);
      dropped = joined(parts, Math.min(size + bytes.length, HEAD_BYTES));
      parts = [];
      size = 0;
      return;
    }
    parts.push(bytes);
    size += bytes.length;
  }

  function finishLine(): void {
    if (dropped !== undefined) {
      const head = utf8Decoder().decode(dropped);
      dropped = undefined;
      options.onOverflow?.(head);
      return;
    }
    const text = utf8Decoder().decode(joined(parts, size));
    parts = [];
    size = 0;
    onLine(text.endsWith("\r") ? text.slice(0, -1) : text);
  }

  return {
    push(chunk) {
      const bytes = typeof chunk === "string" ? utf8Encode(chunk) : chunk;
      let start = 0;
      for (let i = bytes.indexOf(NEWLINE); i >= 0; i = bytes.indexOf(NEWLINE, start)) {
        take(bytes.subarray(start, i));
        finishLine();
        start = i + 1;
      }
      if (start < bytes.length) take(bytes.slice(start));
    },
    end() {
      if (size > 0 || dropped !== undefined) finishLine();
    },
  };
}

/** The first `length` bytes of `parts` as one array. */
function joined(parts: readonly Uint8Array[], length: number): Uint8Array {
  const whole = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    if (at === length) break;
    const piece = part.subarray(0, length - at);
    whole.set(piece, at);
    at += piece.length;
  }
  return whole;
}

/** One message as a line of the stdio transport: JSON and "\n" (JSON text holds no raw newline). */
export function encodeLine(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}
