/**
 * Header values of the Streamable HTTP transport: plain when a value is safe as an HTTP field
 * value, otherwise the Base64 sentinel form (`=?base64?…?=`, the markers from the release's
 * data). Base64 is the platform's `btoa`/`atob` and UTF-8 encoding its TextEncoder (text-codec.ts),
 * which every runtime the output runs on has; strict UTF-8 decoding is done by hand.
 */
import { utf8Encode } from "./text-codec.js";

export interface SentinelForm {
  readonly prefix: string;
  readonly suffix: string;
}

/** Not in the ES2022 library the output compiles against, like TextEncoder (text-codec.ts). */
const platform = globalThis as unknown as {
  btoa(binary: string): string;
  atob(base64: string): string;
};

/** Strict UTF-8: overlong forms, surrogates and truncated sequences are rejected. */
function utf8Decode(bytes: readonly number[]): string | undefined {
  let out = "";
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    const size =
      b < 0x80
        ? 1
        : b >= 0xc2 && b < 0xe0
          ? 2
          : b >= 0xe0 && b < 0xf0
            ? 3
            : b >= 0xf0 && b < 0xf5
              ? 4
              : 0;
    if (size === 0 || i + size > bytes.length) return undefined;
    let c = size === 1 ? b : b & (0xff >> (size + 1));
    for (let k = 1; k < size; k++) {
      const next = bytes[i + k]!;
      if ((next & 0xc0) !== 0x80) return undefined;
      c = (c << 6) | (next & 63);
    }
    const min = [0, 0, 0x80, 0x800, 0x10000][size]!;
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return undefined;
    out += String.fromCodePoint(c);
    i += size;
  }
  return out;
}

function base64Encode(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return platform.btoa(binary);
}

/** Canonical padded Base64 only (no whitespace, zero pad bits), so each value has exactly one encoded form. */
function base64Decode(text: string): number[] | undefined {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text))
    return undefined;
  const binary = platform.atob(text);
  return platform.btoa(binary) === text ? Array.from(binary, (c) => c.charCodeAt(0)) : undefined;
}

/** Visible ASCII with inner spaces: what may travel as is (RFC 9110 field value, no control characters, no edge whitespace). */
const PLAIN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

function looksEncoded(value: string, form: SentinelForm): boolean {
  return (
    value.length >= form.prefix.length + form.suffix.length &&
    value.startsWith(form.prefix) &&
    value.endsWith(form.suffix)
  );
}

/** A value as it goes into `Mcp-Name` or `Mcp-Param-{Name}`: as is when plain, else the sentinel form (also for plain text that looks like the sentinel). */
export function encodeHeaderValue(value: string, form: SentinelForm): string {
  if (PLAIN.test(value) && !looksEncoded(value, form)) return value;
  return form.prefix + base64Encode(utf8Encode(value)) + form.suffix;
}

/** The value a received header stands for, or undefined when it has invalid characters or a broken encoding. */
export function decodeHeaderValue(raw: string, form: SentinelForm): string | undefined {
  if (!PLAIN.test(raw)) return undefined;
  if (!looksEncoded(raw, form)) return raw;
  const bytes = base64Decode(raw.slice(form.prefix.length, raw.length - form.suffix.length));
  return bytes === undefined ? undefined : utf8Decode(bytes);
}

/** Whether a value may be sent as a plain header value (the headers that have no sentinel form). */
export function isPlainHeaderValue(value: string): boolean {
  return PLAIN.test(value);
}
