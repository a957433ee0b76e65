/**
 * DNS-rebinding protection for HTTP servers (basic/transports, "Security Warning": servers MUST validate the
 * `Origin` header of every incoming connection and answer an invalid one with 403; local servers SHOULD bind
 * to 127.0.0.1 only). A page on evil.example whose name is rebound to 127.0.0.1 reaches a local server with its
 * own name in `Host` and `Origin`; checking both against what the server really answers to stops it. An
 * origin is a scheme, a host and a port (RFC 6454): a page on another loopback port is another web app, so
 * by default only the server's own port is accepted in `Origin`; other origins are listed whole.
 */

/** Names a loopback-bound server answers to. */
export const LOOPBACK_HOSTS: readonly string[] = Object.freeze(["localhost", "127.0.0.1", "[::1]"]);

export interface OriginPolicy {
  /**
   * Host names (no port) accepted in `Host`, with any port, and in `Origin` on the port `Host` names
   * (the server's own). Defaults to `LOOPBACK_HOSTS`.
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Whole origins accepted besides, compared exactly (scheme, host and port), e.g.
   * `"https://app.example.com"` or `"http://localhost:5173"`; a port of `*` (`"http://localhost:*"`)
   * accepts that scheme and host on any port.
   */
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

/** A serialized `http(s)` origin (RFC 6454): the scheme and the authority; no path, user or query. */
const ORIGIN = /^(https?):\/\/([^/?#@]*)$/;

/** A host name (IPv6 literals keep their brackets) and a decimal port; anything else after the name fails. */
const AUTHORITY = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/;

/**
 * `Host` must name an allowed host; `Origin`, when a browser sends one, must be an allowed host on the
 * port `Host` names (the server's own) or a listed origin. Never throws.
 */
export function checkOrigin(headers: HeaderValues, policy: OriginPolicy = {}): OriginCheck {
  const hosts = policy.allowedHosts ?? LOOPBACK_HOSTS;
  const host = authority(single(headers["host"]) ?? "");
  if (host === undefined || !hosts.includes(host.name)) return DENIED_HOST;
  const origin = single(headers["origin"])?.trim().toLowerCase();
  if (origin === undefined) return ALLOWED;
  const parsed = ORIGIN.exec(origin);
  const from = parsed === null ? undefined : authority(parsed[2]!);
  if (parsed === null || from === undefined) return DENIED_ORIGIN;
  if (hosts.includes(from.name) && from.port === host.port) return ALLOWED;
  const anyPort = `${parsed[1]!}://${from.name}:*`;
  const listed = policy.allowedOrigins ?? [];
  return listed.some((entry) => {
    const lower = entry.toLowerCase();
    return lower === origin || lower === anyPort;
  })
    ? ALLOWED
    : DENIED_ORIGIN;
}

/** A repeated header is ambiguous, so it is treated like a missing one. */
function single(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** `host[:port]`, lower-cased, split; undefined for anything that is not exactly that. */
function authority(text: string): { readonly name: string; readonly port: string } | undefined {
  const match = AUTHORITY.exec(text.trim().toLowerCase());
  return match === null ? undefined : { name: match[1]!, port: match[2] ?? "" };
}
