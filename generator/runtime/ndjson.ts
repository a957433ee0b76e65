/**
 * Newline-delimited JSON, the framing of the stdio transport (basic/transports, "stdio": messages
 * are delimited by newlines and MUST NOT contain embedded newlines). Shared by the stdio server and
 * client; bytes are decoded as UTF-8 across chunk boundaries.
 */

interface Utf8Decoder {
  decode(input?: Uint8Array, options?: { readonly stream?: boolean }): string;
}

// TextDecoder exists on every platform MCP runs on but not in the ES library the output compiles against.
const Decoder = (globalThis as unknown as { TextDecoder: new () => Utf8Decoder }).TextDecoder;

export interface LineSplitter {
  push(chunk: string | Uint8Array): void;
  end(): void;
}

const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

/** Calls onLine with each complete line (no "\n", a trailing "\r" removed); a line longer than maxLineBytes is dropped whole and reported to onOverflow. */
export function createLineSplitter(
  onLine: (line: string) => void,
  options: { maxLineBytes?: number; onOverflow?: () => void } = {},
): LineSplitter {
  const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const decoder = new Decoder();
  let buffered = "";
  // True while the rest of an overlong line is skipped, up to its newline.
  let skipping = false;

  // A UTF-16 length bounds the UTF-8 length from below (at most 3 bytes per code unit), so the exact
  // count is only needed near the limit.
  const tooLong = (text: string): boolean =>
    text.length > max || (text.length * 3 > max && utf8Length(text) > max);

  const overflow = (): void => {
    skipping = true;
    buffered = "";
    options.onOverflow?.();
  };

  const take = (text: string): void => {
    let start = 0;
    for (let newline = text.indexOf("\n"); newline >= 0; newline = text.indexOf("\n", start)) {
      const piece = text.slice(start, newline);
      start = newline + 1;
      if (skipping) {
        skipping = false;
        buffered = "";
        continue;
      }
      const line = buffered + piece;
      buffered = "";
      if (tooLong(line)) {
        options.onOverflow?.();
        continue;
      }
      onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
    }
    if (skipping) return;
    buffered += text.slice(start);
    if (tooLong(buffered)) overflow();
  };

  return {
    push(chunk: string | Uint8Array): void {
      take(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
    },
    end(): void {
      take(decoder.decode());
      // The last line may come without its newline when the peer closes the stream.
      if (!skipping && buffered !== "") take("\n");
      skipping = false;
      buffered = "";
    },
  };
}

/** JSON + "\n": JSON.stringify escapes every newline inside strings, so one message is one line. */
export function encodeLine(message: unknown): string {
  return JSON.stringify(message) + "\n";
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
