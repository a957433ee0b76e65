/**
 * Optional parts of the shipped runtime: each is a folder of generator/runtime/ that imports one package, copied into
 * the output only when the project's config lists it under `extras`, so a project that does not use the feature gets
 * neither the module nor a need for its package. The rest of the runtime imports nothing.
 */
export const EXTRAS = {
  jwt: {
    package: "jose",
    range: "^6.2.0",
    over: "server",
    what: "the server's verifier of JWT access tokens (issuer metadata, JWKS, audience)",
  },
  introspection: {
    package: "oauth4webapi",
    range: "^3.8.0",
    over: "server",
    what: "the server's verifier by RFC 7662 token introspection",
  },
  oauth: {
    package: "oauth4webapi",
    range: "^3.8.0",
    over: "client",
    what: "OAuth 2.1 for the client (discovery, PKCE, registration, refresh, step-up)",
  },
  opentelemetry: {
    package: "@opentelemetry/api",
    range: "^1.9.0",
    over: "core",
    what: "an adapter carrying OpenTelemetry's active trace context in requests' _meta (client) and back out (server)",
  },
  redis: {
    package: "ioredis",
    range: "^6.1.0",
    over: "server",
    what: "Redis session store, event store and message bus for servers run as many instances",
  },
} as const satisfies Record<string, Extra>;

interface Extra {
  /** The one package the part's modules import. */
  readonly package: string;
  /** The versions it is written and tested against, as `npm install` takes them. */
  readonly range: string;
  /** The part of the runtime it builds on (besides core and validation). */
  readonly over: "core" | "server" | "client";
  /** What it gives, for `--help`, the config schema and the message naming a missing package. */
  readonly what: string;
}

export type ExtraName = keyof typeof EXTRAS;

export const EXTRA_NAMES: readonly ExtraName[] = Object.keys(EXTRAS).sort() as ExtraName[];

export function isExtraName(name: unknown): name is ExtraName {
  return typeof name === "string" && Object.hasOwn(EXTRAS, name);
}
