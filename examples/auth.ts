/**
 * The example server's authorization (`--auth-issuer <issuer URL>`): an OAuth resource server that
 * takes only JWT access tokens from that issuer (its JWKS found through the issuer's metadata) for its
 * own URL, and requires the scope `mcp:tools` for `tools/call`. The server's URL is known once it
 * listens, so the gate is made then.
 */
import {
  createBearerGate,
  serveResourceMetadata,
  type BearerGate,
  type HttpHandler,
  type HttpServerOptions,
} from "../generated/index.js";
import * as legacy from "../generated/2025-11-25/index.js";
import * as modern from "../generated/2026-07-28/index.js";
import { createJwtVerifier } from "../generated/runtime/jwt/jwt-verifier.js";

export const TOOLS_SCOPE = "mcp:tools";

const SCOPES: modern.ScopeTable & legacy.ScopeTable = { methods: { "tools/call": [TOOLS_SCOPE] } };

export interface ExampleAuth {
  /** `authorize` and `permit` for `createHttpHandler`. */
  readonly transport: Pick<HttpServerOptions, "authorize" | "permit">;
  /** `handler` with the protected resource metadata served beside it. */
  serve(handler: HttpHandler): HttpHandler;
  /** Makes the gate for the server's URL (the tokens' audience), once it listens. */
  listening(url: string): void;
}

export function exampleAuth(issuer: string): ExampleAuth {
  let gate: BearerGate | undefined;
  const ready = (): BearerGate => {
    if (gate === undefined) throw new Error("the example server is not listening yet");
    return gate;
  };
  return {
    transport: {
      authorize: (request) => ready().authorize(request),
      permit: (identity, call, request) => ready().permit(identity, call, request),
    },
    // The metadata names the server's URL, so it is asked for on each request: none is served before `listening`.
    serve: (handler) => serveResourceMetadata(handler, () => gate?.metadata),
    listening(url) {
      gate = createBearerGate({
        resource: url,
        authorizationServers: [issuer],
        verify: createJwtVerifier({ issuer, audience: url }),
        rules: [modern.RESOURCE_SERVER_RULES, legacy.RESOURCE_SERVER_RULES],
        scopes: SCOPES,
        resourceName: "mcp-bindgen example server",
      });
    },
  };
}
