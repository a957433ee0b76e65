/**
 * W3C trace context in a request's `_meta`, for releases that reserve the keys (`traceparent`,
 * `tracestate`, `baggage`: the spec's basic/index, "OpenTelemetry trace context"). The client puts the
 * caller's context into each request it sends; the server reads it back for the handler (`ctx.traceContext`).
 * The keys come from the release's generated code; a release without them carries none. Values are checked
 * and bounded both ways: a malformed `traceparent` is neither sent nor handed on, and with it go its
 * `tracestate` and `baggage`, which mean nothing without it.
 */
import { isObject, type JsonObject } from "./json.js";

/** One request's trace context, as the `_meta` keys carry it. */
export interface TraceContext {
  /** `version-traceid-parentid-flags` (W3C Trace Context), lowercase hex. */
  readonly traceparent: string;
  /** Vendor entries (W3C Trace Context), at most `MAX_TRACESTATE` characters. */
  readonly tracestate?: string;
  /** Application entries (W3C Baggage), at most `MAX_BAGGAGE` characters. */
  readonly baggage?: string;
}

/** The `_meta` keys a release reserves for trace context: its `MetaKey` entries, handed on by its generated code. */
export interface TraceContextKeys {
  readonly traceparent: string;
  readonly tracestate: string;
  readonly baggage: string;
}

/** The caller's trace context at the moment a request goes out; undefined when there is none. */
export type TraceContextSource = () => TraceContext | undefined;

/**
 * What `connect`'s `traceContext` option takes (`traceContextFrom(source)`): puts a context into an outgoing
 * message's `_meta` under the agreed release's keys. An object rather than the source itself, so that a client
 * that traces nothing bundles none of this module.
 */
export interface TraceContextCarrier {
  /** `message` as it goes out; unchanged where the release reserves no keys (`keys` undefined). */
  carry(message: object, keys: TraceContextKeys | undefined): object;
}

/** The carrier for `connect`'s `traceContext`: each request gets the context `source` gives as it goes out. */
export function traceContextFrom(source: TraceContextSource): TraceContextCarrier {
  return {
    carry: (message, keys) =>
      keys === undefined ? message : withTraceContext(message, keys, source),
  };
}

/** W3C Trace Context asks that at least 512 characters of `tracestate` be propagated; more is dropped here. */
export const MAX_TRACESTATE = 512;
/** W3C Baggage's limit for the whole header (8192 bytes; printable ASCII is a byte a character). */
export const MAX_BAGGAGE = 8192;

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(-[^]*)?$/;
const PRINTABLE = /^[\x20-\x7e]*$/;
/** A later version's `traceparent` may carry more fields after the four; no sane one is longer. */
const MAX_TRACEPARENT = 256;

/**
 * Whether `value` is a W3C `traceparent`: version `ff` is invalid, all-zero trace and parent ids are
 * invalid, version `00` has exactly four fields, and a later version may append fields after a `-`.
 */
export function isTraceparent(value: unknown): value is string {
  if (typeof value !== "string" || value.length > MAX_TRACEPARENT) return false;
  const match = TRACEPARENT.exec(value);
  if (match === null) return false;
  const [, version, traceId, parentId, rest] = match;
  if (version === "ff" || (version === "00" && rest !== undefined)) return false;
  return !/^0+$/.test(traceId!) && !/^0+$/.test(parentId!) && PRINTABLE.test(value);
}

/** `value` when it is printable ASCII of at most `max` characters (a list member never has a control character). */
function bounded(value: unknown, max: number): string | undefined {
  return typeof value === "string" && value.length <= max && PRINTABLE.test(value)
    ? value
    : undefined;
}

/** The trace context `candidate` holds, checked and bounded: undefined without a valid `traceparent`. */
export function checkedTraceContext(candidate: unknown): TraceContext | undefined {
  if (!isObject(candidate) || !isTraceparent(candidate["traceparent"])) return undefined;
  const tracestate = bounded(candidate["tracestate"], MAX_TRACESTATE);
  const baggage = bounded(candidate["baggage"], MAX_BAGGAGE);
  return {
    traceparent: candidate["traceparent"],
    ...(tracestate === undefined || tracestate === "" ? {} : { tracestate }),
    ...(baggage === undefined || baggage === "" ? {} : { baggage }),
  };
}

/** The trace context a request's `_meta` carries under the release's `keys`; undefined when it carries no valid one. */
export function readTraceContext(
  keys: TraceContextKeys,
  meta: JsonObject | undefined,
): TraceContext | undefined {
  if (meta === undefined) return undefined;
  return checkedTraceContext({
    traceparent: meta[keys.traceparent],
    tracestate: meta[keys.tracestate],
    baggage: meta[keys.baggage],
  });
}

/**
 * `message` with the context `source` gives in its `params._meta`, under the release's `keys`, when it is a
 * request (not a notification or a response). A `_meta` that already has a `traceparent` (the caller's own) is
 * left as it is, and so is everything when the source gives none, gives an invalid one or throws: tracing
 * never fails a call.
 */
export function withTraceContext(
  message: object,
  keys: TraceContextKeys,
  source: TraceContextSource,
): object {
  const request = message as JsonObject;
  if (typeof request["method"] !== "string" || !("id" in request)) return message;
  const params = isObject(request["params"]) ? request["params"] : {};
  const meta = isObject(params["_meta"]) ? params["_meta"] : {};
  if (keys.traceparent in meta) return message;
  let trace: TraceContext | undefined;
  try {
    trace = checkedTraceContext(source());
  } catch {
    return message;
  }
  if (trace === undefined) return message;
  const carried: JsonObject = { [keys.traceparent]: trace.traceparent };
  if (trace.tracestate !== undefined) carried[keys.tracestate] = trace.tracestate;
  if (trace.baggage !== undefined) carried[keys.baggage] = trace.baggage;
  return { ...request, params: { ...params, _meta: { ...meta, ...carried } } };
}
