/**
 * OAuth for the example client (examples/client.ts): the `auth` of its HTTP transport, an `oauthClient` that
 * follows the authorization page of the release it speaks. A server that asks for nothing never sees it.
 *
 * Headless, as the conformance suite runs it: the authorization URL is followed without a browser
 * (`followRedirect`), which suits an authorization server that approves without a user. The suite's contract:
 * MCP_CONFORMANCE_SCENARIO names the scenario and MCP_CONFORMANCE_CONTEXT may carry pre-registered
 * credentials (`client_id`, `client_secret`, `issuer`), or a key for `private_key_jwt` (`private_key_pem`, a
 * PKCS #8 PEM, and `signing_algorithm`).
 */
import { webcrypto } from "node:crypto";
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
  readonly private_key_pem?: unknown;
  readonly signing_algorithm?: unknown;
}

/** The WebCrypto import parameters of each JWS algorithm a PKCS #8 key may be given for. */
const KEY_ALGORITHMS: Readonly<Record<string, webcrypto.EcKeyImportParams | webcrypto.RsaHashedImportParams>> = {
  ES256: { name: "ECDSA", namedCurve: "P-256" },
  ES384: { name: "ECDSA", namedCurve: "P-384" },
  RS256: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
  PS256: { name: "RSA-PSS", hash: "SHA-256" },
};

/** A PKCS #8 PEM private key as a WebCrypto key that signs with `algorithm` (ES256 when not given). */
async function importPrivateKey(pem: string, algorithm = "ES256"): Promise<webcrypto.CryptoKey> {
  const params = KEY_ALGORITHMS[algorithm];
  if (params === undefined) throw new Error(`the signing algorithm ${algorithm} is not supported`);
  const base64 = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----|\s/g, "");
  return webcrypto.subtle.importKey("pkcs8", Buffer.from(base64, "base64"), params, false, ["sign"]);
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
export async function exampleAuth(
  url: string,
  protocolVersion?: string,
): Promise<ClientAuthorizer & RequestAuthorizer> {
  const given = context(process.env["MCP_CONFORMANCE_CONTEXT"]);
  const clientId = typeof given.client_id === "string" ? given.client_id : undefined;
  const clientSecret = typeof given.client_secret === "string" ? given.client_secret : undefined;
  const issuer = typeof given.issuer === "string" ? given.issuer : undefined;
  const key =
    typeof given.private_key_pem === "string"
      ? await importPrivateKey(
          given.private_key_pem,
          typeof given.signing_algorithm === "string" ? given.signing_algorithm : undefined,
        )
      : undefined;
  const scenario = process.env["MCP_CONFORMANCE_SCENARIO"] ?? "";
  return oauthClient({
    facts: protocolVersion === undefined || protocolVersion === MODERN ? MODERN_AUTH : LEGACY_AUTH,
    redirectUri: REDIRECT_URI,
    openAuthorizationUrl: followRedirect(),
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientName: "mcp-bindgen-example-client",
    // The suite's client credentials scenarios (an ext-auth extension) want a machine's grant, not a user's.
    ...(scenario.startsWith("auth/client-credentials-") ? { grant: "client_credentials" as const } : {}),
    ...(key === undefined ? {} : { clientAuthentication: { method: "private_key_jwt" as const, key } }),
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
