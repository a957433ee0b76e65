// The message builders behind every release's `request`, `notification`, `resultResponse` and
// `errorResponse`, and behind the version-agnostic ones in `runtime.ts`. Each release's module
// wraps these in its own types and passes its own data (meta keys, error codes, version).
import { isObject, own, type JsonObject } from "./json.js";
import type { RequestIdValue } from "./jsonrpc.js";
import type { ResultTypeFacts } from "./responses.js";

/** The reserved `_meta` keys a request builder writes, by short name (a release's `MetaKey` fits). */
export interface RequestMetaKeys {
  readonly protocolVersion: string;
  readonly clientCapabilities: string;
  readonly clientInfo: string;
  readonly logLevel: string;
  readonly progressToken: string;
}

/**
 * The options every release's `RequestOptions` declares, typed loosely: each release narrows
 * them with its own types (`T.RequestId`, `T.ClientCapabilities`, …).
 */
export interface RequestOptionsShape {
  readonly id: RequestIdValue;
  readonly protocolVersion?: string;
  readonly clientCapabilities?: unknown;
  readonly clientInfo?: unknown;
  readonly logLevel?: unknown;
  readonly progressToken?: unknown;
  readonly extraMeta?: Readonly<JsonObject>;
}

/** A request (with `id`) or notification: `params` only when there are any. */
export function envelope(
  method: string,
  params: JsonObject | undefined,
  id: RequestIdValue | undefined,
): JsonObject {
  // Literals, not a spread of a shared head: V8 builds these several times faster.
  if (id === undefined)
    return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
  return params === undefined
    ? { jsonrpc: "2.0", id, method }
    : { jsonrpc: "2.0", id, method, params };
}

/** The `_meta` object of a params or result object, if it has one. */
export function metaOf(holder: unknown): JsonObject | undefined {
  const meta = isObject(holder) ? holder["_meta"] : undefined;
  return isObject(meta) ? meta : undefined;
}

/**
 * A copy of `params` carrying `meta` as `_meta`; the caller's object is never changed. Object.assign copies several
 * times faster than spread here, but it would run the `__proto__` setter, so params with an own `__proto__` key are spread.
 */
export function withMeta(params: JsonObject | undefined, meta: JsonObject): JsonObject {
  if (params === undefined) return { _meta: meta };
  const copy: JsonObject = own(params, "__proto__") ? { ...params } : Object.assign({}, params);
  copy["_meta"] = meta;
  return copy;
}

/** The optional keys both eras of `_meta` writing share; the caller's own `_meta` keys stay unless reserved. */
function addOptionalMeta(
  meta: JsonObject,
  options: RequestOptionsShape,
  keys: RequestMetaKeys,
): void {
  if (options.clientInfo !== undefined) meta[keys.clientInfo] = options.clientInfo;
  if (options.logLevel !== undefined) meta[keys.logLevel] = options.logLevel;
}

/**
 * A request of a stateless release: every request carries the protocol version (default `version`) and the
 * client capabilities in `params._meta`, as the schema requires.
 */
export function statelessRequest(
  method: string,
  params: unknown,
  options: RequestOptionsShape,
  version: string,
  keys: RequestMetaKeys,
): JsonObject {
  const given = params as JsonObject | undefined;
  const ownMeta = metaOf(given);
  const required = {
    [keys.protocolVersion]: options.protocolVersion ?? version,
    [keys.clientCapabilities]: options.clientCapabilities,
  };
  // The common call passes no `_meta` of its own: then the object literal alone is the `_meta`.
  const meta: JsonObject =
    options.extraMeta === undefined && ownMeta === undefined
      ? required
      : { ...options.extraMeta, ...ownMeta, ...required };
  addOptionalMeta(meta, options, keys);
  if (options.progressToken !== undefined) meta[keys.progressToken] = options.progressToken;
  return envelope(method, withMeta(given, meta), options.id);
}

/**
 * A request of a session-based release. No `_meta` is invented: an old server may take an unknown `_meta` for
 * part of the params. `_meta` appears only when the caller passes one, a `progressToken` or `extraMeta`.
 */
export function sessionRequest(
  method: string,
  params: unknown,
  options: RequestOptionsShape,
  progressTokenKey: string,
): JsonObject {
  const given = params as JsonObject | undefined;
  if (options.progressToken === undefined && options.extraMeta === undefined)
    return envelope(method, given, options.id);
  const meta: JsonObject = { ...options.extraMeta, ...metaOf(given) };
  if (options.progressToken !== undefined) meta[progressTokenKey] = options.progressToken;
  return envelope(method, withMeta(given, meta), options.id);
}

/**
 * The `_meta` keys of the releases a tree was generated for: `stateless` is null when none of
 * them is stateless, and then nothing can write a stateless `_meta` (its keys are unknown).
 */
export interface AnyVersionMetaKeys {
  readonly progressToken: string;
  readonly stateless: (RequestMetaKeys & { readonly serverInfo: string }) | null;
}

function statelessKeys(
  keys: AnyVersionMetaKeys,
  version: string,
): RequestMetaKeys & { readonly serverInfo: string } {
  if (keys.stateless === null) {
    throw new RangeError(
      `protocol version ${version} is stateless, and no stateless release was generated: its _meta keys are unknown`,
    );
  }
  return keys.stateless;
}

/**
 * A request of any release. `_meta` is written iff `protocolVersion` is given; it is never guessed from the version
 * number: a guard on the known modern list once made probes of an unlisted newer version silently lose their `_meta`.
 */
export function anyVersionRequest(
  method: string,
  params: unknown,
  options: RequestOptionsShape,
  keys: AnyVersionMetaKeys,
  defaultCapabilities: unknown,
): JsonObject {
  const given = params as JsonObject | undefined;
  const version = options.protocolVersion;
  if (
    version === undefined &&
    options.progressToken === undefined &&
    options.extraMeta === undefined
  )
    return envelope(method, given, options.id);
  const meta: JsonObject = { ...options.extraMeta, ...metaOf(given) };
  if (version !== undefined) {
    const stateless = statelessKeys(keys, version);
    meta[stateless.protocolVersion] = version;
    meta[stateless.clientCapabilities] = options.clientCapabilities ?? defaultCapabilities;
    addOptionalMeta(meta, options, stateless);
  }
  if (options.progressToken !== undefined) meta[keys.progressToken] = options.progressToken;
  return envelope(method, withMeta(given, meta), options.id);
}

/** A notification: never an `id`, so the peer must not answer it. */
export function notificationEnvelope(method: string, params: unknown): JsonObject {
  return envelope(method, params as JsonObject | undefined, undefined);
}

/** The `resultType` key and its default value, from a stateless release's model. */
export type ResultTypeDefault = Pick<ResultTypeFacts, "key" | "complete">;

const NO_RESULT_TYPE = "no stateless release was generated: the resultType key is unknown";

/** A result towards a session-based client: as given, since it knows no `resultType`. */
export function sessionResult(id: RequestIdValue, result: unknown): JsonObject {
  return { jsonrpc: "2.0", id, result };
}

/** A result towards a stateless client: `resultType` (default: complete) always, `serverInfo` in `_meta` when given. */
export function statelessResult(
  id: RequestIdValue,
  result: unknown,
  resultType: string | undefined,
  serverInfo: unknown,
  serverInfoKey: string,
  facts: ResultTypeDefault,
): JsonObject {
  const given = result as JsonObject;
  const meta =
    serverInfo === undefined ? metaOf(given) : { ...metaOf(given), [serverInfoKey]: serverInfo };
  const stated = given[facts.key];
  const type = resultType ?? (typeof stated === "string" ? stated : facts.complete);
  return {
    jsonrpc: "2.0",
    id,
    result: { ...given, ...(meta === undefined ? {} : { _meta: meta }), [facts.key]: type },
  };
}

/**
 * A result towards a client of any release (`protocolVersion`); `modern` says whether that version is stateless.
 * A session-based client does not know `resultType` (it treats an absent one as complete), so asking one for
 * another `resultType` throws a RangeError rather than dropping it silently. `facts` are the newest stateless
 * release's; null when none was generated, and then no `resultType` can be asked for at all.
 */
export function anyVersionResult(
  id: RequestIdValue,
  result: object,
  options: {
    readonly protocolVersion?: string;
    readonly resultType?: string;
    readonly serverInfo?: unknown;
  },
  modern: boolean,
  keys: AnyVersionMetaKeys,
  facts: ResultTypeDefault | null,
): JsonObject {
  if (modern) {
    const { serverInfo } = statelessKeys(keys, options.protocolVersion ?? "");
    if (facts === null) throw new RangeError(NO_RESULT_TYPE);
    return statelessResult(id, result, options.resultType, options.serverInfo, serverInfo, facts);
  }
  if (options.resultType !== undefined && options.resultType !== facts?.complete) {
    throw new RangeError(
      facts === null
        ? NO_RESULT_TYPE
        : `a ${options.protocolVersion ?? "legacy"} client cannot receive resultType "${options.resultType}"`,
    );
  }
  const plain =
    facts !== null && own(result, facts.key)
      ? Object.fromEntries(Object.entries(result).filter(([k]) => k !== facts.key))
      : { ...result };
  return sessionResult(id, plain);
}

/** A release's error codes as `errorResponse` needs them: every name, and the codes it must never send. */
export interface ErrorCodeTable {
  readonly codes: Readonly<Record<string, number>>;
  readonly receiveOnly: readonly number[];
}

/** The name a release's `ErrorCode` table gives `code`, or `undefined` for a code it does not define. */
export function errorNameIn(
  codes: Readonly<Record<string, number>>,
  code: number,
): string | undefined {
  for (const name of Object.keys(codes)) if (codes[name] === code) return name;
  return undefined;
}

/**
 * An error response. `code` is a number or an `ErrorCode` name; receive-only codes (like -32002 from old servers) throw
 * a RangeError: they are recognised, never produced. Without `id` (the request's id could not be read) none is written.
 */
export function errorEnvelope(
  table: ErrorCodeTable,
  id: RequestIdValue | null | undefined,
  code: number | string,
  message: string,
  data?: unknown,
): JsonObject {
  const value: number | undefined =
    typeof code === "number" ? code : own(table.codes, code) ? table.codes[code] : undefined;
  if (value === undefined || table.receiveOnly.includes(value))
    throw new RangeError(`error code ${String(code)} is not one a builder sends`);
  const error = data === undefined ? { code: value, message } : { code: value, message, data };
  return id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error };
}

/** -32022: carries the versions this server supports, so the client can pick one and retry instead of guessing. */
export function unsupportedProtocolVersion(
  table: ErrorCodeTable,
  id: RequestIdValue | undefined,
  requested: string,
  supported: readonly string[],
): JsonObject {
  return errorEnvelope(table, id, "UnsupportedProtocolVersion", "Unsupported protocol version", {
    requested,
    supported: [...supported],
  });
}

/** -32021: names the capabilities that are missing; otherwise the client cannot know what to add. */
export function missingRequiredClientCapability(
  table: ErrorCodeTable,
  id: RequestIdValue | undefined,
  requiredCapabilities: unknown,
): JsonObject {
  return errorEnvelope(
    table,
    id,
    "MissingRequiredClientCapability",
    "Missing required client capability",
    { requiredCapabilities },
  );
}

/** -32020: the HTTP headers disagree with the envelope (or are missing). */
export function headerMismatch(
  table: ErrorCodeTable,
  id: RequestIdValue | undefined,
  message: string,
): JsonObject {
  return errorEnvelope(table, id, "HeaderMismatch", message);
}
