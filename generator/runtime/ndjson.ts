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

/** Calls onLine with each complete line (no "\n", a trailing "\r" removed); a line longer than maxLineBytes is dropped whole and reported to onOverflow. */
export function createLineSplitter(
  onLine: (line: string) => void,
  options: { maxLineBytes?: number; onOverflow?: () => void } = {},
): LineSplitter {
  const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let parts: Uint8Array[] = [];
  let size = 0;
  let dropping = false;

  function take(bytes: Uint8Array): void {
    if (dropping) return;
    if (size + bytes.length > max) {
      dropping = true;
      parts = [];
      size = 0;
      return;
    }
    parts.push(bytes);
    size += bytes.length;
  }

  function finishLine(): void {
    if (dropping) {
      dropping = false;
      options.onOverflow?.();
      return;
    }
    const whole = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
      whole.set(part, at);
      at += part.length;
    }
    parts = [];
    size = 0;
    const text = utf8Decoder().decode(whole);
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
      if (size > 0 || dropping) finishLine();
    },
  };
}

/** One message as a line of the stdio transport: JSON and "\n" (JSON text holds no raw newline). */
export function encodeLine(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}
