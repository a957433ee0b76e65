import { isObject, type JsonObject } from "../core/json.js";
import { StoreUnavailableError } from "./session-store.js";

/**
 * `requestState` that a client cannot forge or replay (basic/utilities, input_required: the state is
 * opaque to the client and comes back unchanged with the retry; a server MUST NOT trust it blindly).
 * The state is signed with HMAC-SHA-256 through WebCrypto (`globalThis.crypto.subtle`, on Node 18+,
 * Deno, Bun, browsers and workers) together with its expiry, a random nonce and the request it was
 * issued for: the method and a SHA-256 digest of the params (canonical JSON, without the input
 * responses, the state itself and `_meta`). A retry with other params, for another tool or method,
 * late, or a second time (the nonce is recorded as used until the state expires) is refused.
 * Signed, not encrypted: the client can read the state.
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
  digest(algorithm: "SHA-256", data: Uint8Array): Promise<ArrayBuffer>;
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

/**
 * Which states were used, so that each is accepted once. The default is a set in this process's
 * memory; give every instance one shared store (a database or cache with expiry) to hold it across
 * instances and restarts.
 */
export interface UsedStateStore {
  /**
   * Records `nonce` as used until `expiresAt` (ms since the epoch; forgetting it after that is safe,
   * the state has expired). True the first time, false when it was used already. Two concurrent calls
   * with one nonce must not both get true.
   */
  use(nonce: string, expiresAt: number): boolean | Promise<boolean>;
}

export interface StateCodecOptions {
  /**
   * The HMAC key: at least 32 bytes, the same on every instance that may receive a retry. Default: a
   * random key per codec, so states do not survive a restart or reach another instance.
   */
  readonly secret?: string | Uint8Array;
  /** How long a signed state stays valid. Default 10 minutes. */
  readonly maxAgeMs?: number;
  /** Where used states are recorded. Default: in memory, per codec (so per process). */
  readonly used?: UsedStateStore;
  /** The clock, in ms since the epoch (tests set it). */
  readonly now?: () => number;
}

/** The request a state is issued for and must come back with. */
export interface StateBinding {
  readonly method: string;
  /** The request's params without the input responses, the state and `_meta` (which retries may change). */
  readonly params: JsonObject;
}

export interface StateCodec {
  /** A signed token carrying `state`, bound to `request` and usable once until it expires. */
  sign(state: JsonObject, request: StateBinding): Promise<string>;
  /**
   * The state a token carries, recording it as used; undefined when it is malformed, signed with
   * another key, altered, expired, issued for another request or used already. Never throws on the
   * token; rejects with `StoreUnavailableError` when the used-state store fails.
   */
  verify(token: unknown, request: StateBinding): Promise<JsonObject | undefined>;
}

/** 10 minutes, written as a literal: esbuild keeps an unused product of literals in a bundle. */
const DEFAULT_MAX_AGE_MS = 600_000;
const MIN_SECRET_BYTES = 32;
const NONCE_BYTES = 16;

export function createStateCodec(options: StateCodecOptions = {}): StateCodec {
  const secret =
    typeof options.secret === "string"
      ? new platform.TextEncoder().encode(options.secret)
      : (options.secret ?? platform.crypto.getRandomValues(new Uint8Array(MIN_SECRET_BYTES)));
  if (secret.length < MIN_SECRET_BYTES)
    throw new RangeError(`requestState secret: at least ${MIN_SECRET_BYTES} bytes are needed`);
  const maxAge = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  const now = options.now ?? Date.now;
  const used = options.used ?? usedInMemory(now);
  const key = platform.crypto.subtle.importKey(
    "raw",
    secret,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  const encoder = new platform.TextEncoder();
  const digestOf = async (request: StateBinding): Promise<string> =>
    toBase64Url(
      new Uint8Array(
        await platform.crypto.subtle.digest(
          "SHA-256",
          encoder.encode(canonical([request.method, request.params])),
        ),
      ),
    );

  return {
    async sign(state: JsonObject, request: StateBinding): Promise<string> {
      const nonce = toBase64Url(platform.crypto.getRandomValues(new Uint8Array(NONCE_BYTES)));
      const body = { s: state, e: now() + maxAge, r: await digestOf(request), n: nonce };
      const payload = toBase64Url(encoder.encode(JSON.stringify(body)));
      const mac = await platform.crypto.subtle.sign("HMAC", await key, encoder.encode(payload));
      return `${payload}.${toBase64Url(new Uint8Array(mac))}`;
    },
    async verify(token: unknown, request: StateBinding): Promise<JsonObject | undefined> {
      let state: JsonObject, nonce: string, expiresAt: number;
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
        if (
          !isObject(body) ||
          !isObject(body["s"]) ||
          typeof body["e"] !== "number" ||
          typeof body["n"] !== "string" ||
          now() > body["e"] ||
          body["r"] !== (await digestOf(request))
        )
          return undefined;
        state = body["s"];
        nonce = body["n"];
        expiresAt = body["e"];
      } catch {
        return undefined;
      }
      // Last, so that only a state this request may use is spent. A store that cannot say is not a
      // spent state: the client may send the same retry again once the store is back.
      let first: boolean;
      try {
        first = await used.use(nonce, expiresAt);
      } catch (error) {
        throw new StoreUnavailableError(error);
      }
      return first ? state : undefined;
    },
  };
}

/** Used nonces until their states expire; the expired are dropped as new ones come in. */
function usedInMemory(now: () => number): UsedStateStore {
  const until = new Map<string, number>();
  return {
    use(nonce: string, expiresAt: number): boolean {
      const time = now();
      // States share one lifetime, so entries come in nearly in expiry order: one that expires before
      // an older entry goes when that one does, at most one lifetime late.
      for (const [old, expiry] of until) {
        if (expiry >= time) break;
        until.delete(old);
      }
      if (until.has(nonce)) return false;
      until.set(nonce, expiresAt);
      return true;
    },
  };
}

/** JSON with every object's keys sorted, so that equal values have one spelling whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (!isObject(value)) return JSON.stringify(value) ?? "null";
  const members: string[] = [];
  for (const name of Object.keys(value).sort())
    if (value[name] !== undefined)
      members.push(`${JSON.stringify(name)}:${canonical(value[name])}`);
  return `{${members.join(",")}}`;
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
