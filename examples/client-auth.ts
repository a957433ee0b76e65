/**
 * OAuth for the example client (examples/client.ts): the `auth` of its HTTP transport, an `oauthClient` that
 * follows the authorization page of the release it speaks. A server that asks for nothing never sees it.
 *
 * Headless, as the conformance suite runs it: the authorization URL is followed without a browser
 * (`followRedirect`), which suits an authorization server that approves without a user. The suite's contract:
 * MCP_CONFORMANCE_SCENARIO names the scenario and MCP_CONFORMANCE_CONTEXT may carry pre-registered
 * credentials (`client_id`, `client_secret`, `issuer`).
 */
import {
  followRedirect,
  type ClientAuthorizer,
  type RequestAuthorizer,
} from "../generated/runtime/client/client-auth.js";
import { oauthClient } from "../generated/runtime/oauth/oauth-client.js";
import { CLIENT_AUTH as LEGACY_AUTH } from "../generated/2025-11-25/index.js";
import { CLIENT_AUTH as MODERN_AUTH, PROTOCOL_VERSION as MODERN } from "../generated/2026-07-28/index.js";

/** Where the authorization server sends the user back; nothing listens there in headless use. */
const REDIRECT_URI = "http://127.0.0.1:8976/callback";
/** The client's metadata document, its client id where the server takes one (the conformance suite expects this one). */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

interface Context {
  readonly client_id?: unknown;
  readonly client_secret?: unknown;
  readonly issuer?: unknown;
}

function context(text: string | undefined): Context {
  if (text === undefined) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? value : {};
  } catch {
    return {};
  }
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The authorizer for a server at `url`, speaking `protocolVersion` (the newest by default). */
export function exampleAuth(url: string, protocolVersion?: string): ClientAuthorizer & RequestAuthorizer {
  const given = context(process.env["MCP_CONFORMANCE_CONTEXT"]);
  const clientId = typeof given.client_id === "string" ? given.client_id : undefined;
  const clientSecret = typeof given.client_secret === "string" ? given.client_secret : undefined;
  const issuer = typeof given.issuer === "string" ? given.issuer : undefined;
  return oauthClient({
    facts: protocolVersion === undefined || protocolVersion === MODERN ? MODERN_AUTH : LEGACY_AUTH,
    redirectUri: REDIRECT_URI,
    openAuthorizationUrl: followRedirect(),
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientName: "mcp-bindgen-example-client",
    // The suite's client credentials scenario (an ext-auth extension) wants a machine's grant, not a user's.
    ...(process.env["MCP_CONFORMANCE_SCENARIO"] === "auth/client-credentials-basic"
      ? { grant: "client_credentials" as const }
      : {}),
    // A server on this machine may run its authorization server over plain HTTP too.
    allowHttp: LOOPBACK.has(new URL(url).hostname),
    ...(clientId === undefined
      ? {}
      : {
          client: {
            clientId,
            ...(clientSecret === undefined ? {} : { clientSecret }),
            ...(issuer === undefined ? {} : { issuer }),
          },
        }),
  });
}
