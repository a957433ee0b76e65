import { isObject, type JsonObject } from "./json.js";

/**
 * `requestState` that a client cannot forge (basic/utilities, input_required: the state is opaque
 * to the client and comes back unchanged with the retry; a server MUST NOT trust it blindly). The
 * state is signed with HMAC-SHA-256 through WebCrypto (`globalThis.crypto.subtle`, on Node 18+,
 * Deno, Bun, browsers and workers) and carries its expiry, so an old state cannot be replayed forever.
 */

interface SubtleKey {
  readonly type: string;
}

interface Subtle {
  importKey(
    format: "raw",
    key: Uint8Array,
    algorithm: { readonly name: "HMAC"; readonly hash: "SHA-256" },
    extractable: false,
    usages: readonly ("sign" | "verify")[],
  ): Promise<SubtleKey>;
  sign(algorithm: "HMAC", key: SubtleKey, data: Uint8Array): Promise<ArrayBuffer>;
  verify(
    algorithm: "HMAC",
    key: SubtleKey,
    signature: Uint8Array,
    data: Uint8Array,
  ): Promise<boolean>;
}

interface WebCrypto {
  readonly subtle: Subtle;
  getRandomValues(array: Uint8Array): Uint8Array;
}

interface Utf8 {
  encode(text: string): Uint8Array;
}
interface Utf8Decoder {
  decode(bytes: Uint8Array): string;
}

const platform = globalThis as unknown as {
  readonly crypto: WebCrypto;
  readonly TextEncoder: new () => Utf8;
  readonly TextDecoder: new (label: "utf-8", options: { readonly fatal: true }) => Utf8Decoder;
};

export interface StateCodecOptions {
  /**
   * The HMAC key: at least 32 bytes, the same on every instance that may receive a retry. Default: a
   * random key per codec, so states do not survive a restart or reach another instance.
   */
  readonly secret?: string | Uint8Array;
  /** How long a signed state stays valid. Default 10 minutes. */
  readonly maxAgeMs?: number;
  /** The clock, in ms since the epoch (tests set it). */
  readonly now?: () => number;
}

export interface StateCodec {
  /** A signed token carrying `state` and its expiry. */
  sign(state: JsonObject): Promise<string>;
  /** The state a token carries; undefined when it is malformed, signed with another key, altered or expired. Never throws. */
  verify(token: unknown): Promise<JsonObject | undefined>;
}

/** 10 minutes, written as a literal: esbuild keeps an unused product of literals in a bundle. */
const DEFAULT_MAX_AGE_MS = 600_000;
const MIN_SECRET_BYTES = 32;

export function createStateCodec(options: StateCodecOptions = {}): StateCodec {
  const secret =
    typeof options.secret === "string"
      ? new platform.TextEncoder().encode(options.secret)
      : (options.secret ?? platform.crypto.getRandomValues(new Uint8Array(MIN_SECRET_BYTES)));
  if (secret.length < MIN_SECRET_BYTES)
    throw new RangeError(`requestState secret: at least ${MIN_SECRET_BYTES} bytes are needed`);
  const maxAge = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  const now = options.now ?? Date.now;
  const key = platform.crypto.subtle.importKey(
    "raw",
    secret,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  const encoder = new platform.TextEncoder();

  return {
    async sign(state: JsonObject): Promise<string> {
      const payload = toBase64Url(encoder.encode(JSON.stringify({ s: state, e: now() + maxAge })));
      const mac = await platform.crypto.subtle.sign("HMAC", await key, encoder.encode(payload));
      return `${payload}.${toBase64Url(new Uint8Array(mac))}`;
    },
    async verify(token: unknown): Promise<JsonObject | undefined> {
      try {
        if (typeof token !== "string") return undefined;
        const [payload, mac, extra] = token.split(".");
        if (payload === undefined || mac === undefined || extra !== undefined) return undefined;
        const signature = fromBase64Url(mac);
        if (signature === undefined) return undefined;
        const valid = await platform.crypto.subtle.verify(
          "HMAC",
          await key,
          signature,
          encoder.encode(payload),
        );
        if (!valid) return undefined;
        const bytes = fromBase64Url(payload);
        if (bytes === undefined) return undefined;
        const body: unknown = JSON.parse(
          new platform.TextDecoder("utf-8", { fatal: true }).decode(bytes),
        );
        if (!isObject(body) || !isObject(body["s"]) || typeof body["e"] !== "number")
          return undefined;
        return now() <= body["e"] ? body["s"] : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function toBase64Url(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    out += ALPHABET[a >> 2]! + ALPHABET[((a & 3) << 4) | ((b ?? 0) >> 4)]!;
    if (b !== undefined) out += ALPHABET[((b & 15) << 2) | ((c ?? 0) >> 6)]!;
    if (c !== undefined) out += ALPHABET[c & 63]!;
  }
  return out;
}

/** The bytes of unpadded base64url text; undefined for any other text. */
function fromBase64Url(text: string): Uint8Array | undefined {
  if (text.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let index = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = ALPHABET.indexOf(text[i]!);
    if (digit < 0) return undefined;
    value = (value << 6) | digit;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[index++] = (value >> bits) & 255;
    }
  }
  // Leftover bits must be zero, so each token has exactly one spelling.
  return (value & ((1 << bits) - 1)) === 0 ? out : undefined;
}
