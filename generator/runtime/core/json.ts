// Plain JSON helpers every other runtime module builds on. The runtime assumes no DOM or Node
// globals, and never assigns an input key onto an object, so `__proto__` in input stays data.

/** A JSON object as the runtime handles it: keys are strings, values are not yet checked. */
export type JsonObject = { [key: string]: unknown };

/**
 * What the bindings only read (handler results, builder arguments): `T` with every array and property readonly, deeply, so
 * `as const` data fits as well as mutable data does. The schema types themselves stay as schema.ts writes them.
 */
export type ReadonlyInput<T> = unknown extends T ? T : ReadonlyMembers<T>;
/**
 * One homomorphic mapped type per level: it leaves primitives as they are, spreads over unions and makes arrays and
 * tuples readonly, where a conditional per level cost a consumer 7% more instantiations (bench: the server row).
 * Each member may also be its own type as written: that keeps an `unknown` member `unknown` (mapped alone, it would be
 * `{}`, which refuses `null`) without a conditional inside the recursion, which recursed without end on JSONValue's arrays.
 */
type ReadonlyMembers<T> = { readonly [K in keyof T]: ReadonlyMembers<T[K]> | T[K] };

export function own(o: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

/** Sets `o[key]` as an own data property, so a key from input (even `__proto__`) stays a key. */
export function setOwn<V>(o: { [key: string]: V }, key: string, value: V): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Freezes nested arrays and objects too, so no caller can change a release's tables. */
export function deepFreeze<V>(value: V): V {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** One reference token of an RFC 6901 JSON pointer: `~` and `/` inside a key escaped. */
export function escapeToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** A short account of a value for an error message: never the whole value, which may be large or secret. */
export function describeValue(x: unknown): string {
  if (x === undefined) return "missing";
  if (typeof x === "string") return JSON.stringify(x.length > 40 ? x.slice(0, 40) + "…" : x);
  if (Array.isArray(x)) return `array(${x.length})`;
  if (x === null) return "null";
  if (typeof x === "number" || typeof x === "boolean" || typeof x === "bigint") return String(x);
  return typeof x;
}
