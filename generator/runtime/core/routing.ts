// What the envelope itself says for Streamable HTTP routing: the protocol version in `_meta` and
// the name a method routes by. The header names and routed methods are a release's data
// (`RoutingFacts`); the headers themselves (values, Mcp-Param, checks, statuses) are http-headers.ts.
import { isObject, own } from "./json.js";
import { metaOf } from "./builders.js";

/** What a release's HTTP transport routes on, as the emitter writes it from the model. */
export interface RoutingFacts {
  readonly protocolVersionHeader: string;
  readonly methodHeader: string;
  readonly nameHeader: string;
  /** method → the params key whose value is the name header. */
  readonly nameParam: Readonly<Record<string, string>>;
  /** The `_meta` key holding the protocol version. */
  readonly protocolVersionKey: string;
}

/** An envelope as these functions read it: any message, typed or not. */
export type EnvelopeLike = {
  readonly method: string;
  readonly id?: unknown;
  readonly params?: unknown;
};

/**
 * The protocol version written in an envelope's `params._meta`, or `undefined`. The HTTP transport reads the
 * version header from here instead of keeping its own copy: a header that disagrees with the envelope gets -32020.
 */
export function protocolVersionIn(
  envelope: { readonly params?: unknown },
  protocolVersionKey: string,
): string | undefined {
  const version = metaOf(envelope.params)?.[protocolVersionKey];
  return typeof version === "string" ? version : undefined;
}

/** The name header's value: the routed params key of a request whose method routes by name; `undefined` otherwise and for notifications. */
export function routingNameIn(envelope: EnvelopeLike, facts: RoutingFacts): string | undefined {
  const key = own(facts.nameParam, envelope.method) ? facts.nameParam[envelope.method] : undefined;
  if (key === undefined || !own(envelope, "id") || !isObject(envelope.params)) return undefined;
  const name = envelope.params[key];
  return typeof name === "string" ? name : undefined;
}
