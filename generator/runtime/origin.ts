/**
 * DNS-rebinding protection for HTTP servers (basic/transports, "Security Warning": servers MUST validate the
 * `Origin` header of every incoming connection and answer an invalid one with 403; local servers SHOULD bind
 * to 127.0.0.1 only). A page on evil.example whose name is rebound to 127.0.0.1 reaches a local server with its
 * own name in `Host` and `Origin`; checking both against what the server really answers to stops it.
 */

/** Names a loopback-bound server answers to, with any port. */
export const LOOPBACK_HOSTS: readonly string[] = Object.freeze(["localhost", "127.0.0.1", "[::1]"]);

export interface OriginPolicy {
  /** Host names (no port) accepted in `Host` and in `Origin`. Defaults to `LOOPBACK_HOSTS`. */
  readonly allowedHosts?: readonly string[];
  /** Whole origins accepted besides those on `allowedHosts`, e.g. `"https://app.example.com"`. */
  readonly allowedOrigins?: readonly string[];
}

export type OriginCheck =
  { readonly ok: true } | { readonly ok: false; readonly status: 403; readonly message: string };

/** Header values as node:http gives them (`IncomingHttpHeaders`) or any lower-cased record. */
export type HeaderValues = Readonly<Record<string, string | readonly string[] | undefined>>;

const DENIED_HOST: OriginCheck = Object.freeze({
  ok: false,
  status: 403,
  message: "Host not allowed",
});
const DENIED_ORIGIN: OriginCheck = Object.freeze({
  ok: false,
  status: 403,
  message: "Origin not allowed",
});
const ALLOWED: OriginCheck = Object.freeze({ ok: true });

/** `Host` must name an allowed host; `Origin`, when a browser sends one, must be an allowed origin. Never throws. */
export function checkOrigin(headers: HeaderValues, policy: OriginPolicy = {}): OriginCheck {
  const hosts = policy.allowedHosts ?? LOOPBACK_HOSTS;
  const host = single(headers["host"]);
  if (host === undefined || !hosts.includes(hostName(host))) return DENIED_HOST;
  const origin = single(headers["origin"]);
  if (origin === undefined) return ALLOWED;
  if (policy.allowedOrigins?.includes(origin)) return ALLOWED;
  const parsed = parseOrigin(origin);
  return parsed !== undefined && hosts.includes(parsed) ? ALLOWED : DENIED_ORIGIN;
}

/** A repeated header is ambiguous, so it is treated like a missing one. */
function single(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** `Host` without its port, lower-cased; IPv6 literals keep their brackets. */
function hostName(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith("[")) {
    const end = lower.indexOf("]");
    return end < 0 ? lower : lower.slice(0, end + 1);
  }
  const colon = lower.indexOf(":");
  return colon < 0 ? lower : lower.slice(0, colon);
}

/**
 * The host name of a serialized `http(s)` origin (`scheme://host[:port]`, RFC 6454), lower-cased, or
 * undefined for `null`, other schemes and anything else. Parsed by hand: the runtime has no `URL`.
 */
function parseOrigin(origin: string): string | undefined {
  const match = /^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i.exec(origin);
  return match?.[1]?.toLowerCase();
}
