/**
 * One server of the auth bench, in its own process: `open` (createHttpHandler, 2026-07-28, no auth), `jwt` (the same
 * behind createBearerGate + createJwtVerifier, `mcp:tools` for tools/call), `jwt-checking` (the same verifier with
 * `maxCacheSeconds: 0`, so the signature is checked on every request) or `sdk` (SDK v2's createMcpHandler behind
 * its requireBearerAuth, whose verifier does the same jose work: jwtVerify against the same remote JWKS, issuer,
 * audience and algorithms). The process also serves its issuer's metadata and JWKS, fetched once by either verifier,
 * and reports its port and a token for itself; "cpu" answers with its process.cpuUsage().
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, McpServer, requireBearerAuth } from "@modelcontextprotocol/server";
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT } from "jose";
import { createBearerGate, createHttpHandler, toNodeListener } from "../generated/index.js";
import * as modern from "../generated/2026-07-28/index.js";
import { createJwtVerifier } from "../generated/runtime/jwt/jwt-verifier.js";
import { serveFetch } from "../test/support/serve-fetch.ts";

export const TOOL_TEXT = "hello";
const ALGORITHMS = ["RS256"];
const SCOPE = "mcp:tools";

const listen = (server: ReturnType<typeof createServer>): Promise<number> =>
  new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));

const { publicKey, privateKey } = await generateKeyPair("RS256");
const jwk = { ...(await exportJWK(publicKey)), kid: "bench", alg: "RS256", use: "sig" };
const issuerServer = createServer((req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify(
      req.url === "/jwks"
        ? { keys: [jwk] }
        : { issuer: `http://127.0.0.1:${issuerPort}`, jwks_uri: `http://127.0.0.1:${issuerPort}/jwks` },
    ),
  );
});
const issuerPort = await listen(issuerServer);
const issuer = `http://127.0.0.1:${issuerPort}`;

let listener: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
const server = createServer((req, res) => listener(req, res));
const port = await listen(server);
const resource = `http://127.0.0.1:${port}/mcp`;
const token = await new SignJWT({ scope: SCOPE, client_id: "bench" })
  .setProtectedHeader({ alg: "RS256", kid: "bench", typ: "at+jwt" })
  .setIssuer(issuer)
  .setSubject("bench-user")
  .setAudience(resource)
  .setIssuedAt()
  .setExpirationTime("2h")
  .sign(privateKey);

const content = [{ type: "text" as const, text: TOOL_TEXT }];
const stateless = () => modern.statelessEra({ "tools/call": () => ({ content }) });

const kind = process.argv[2] ?? "open";
if (kind === "open") listener = toNodeListener(createHttpHandler({ stateless: stateless(), path: "/mcp" }));
else if (kind === "jwt" || kind === "jwt-checking") {
  const gate = createBearerGate({
    resource,
    authorizationServers: [issuer],
    verify: createJwtVerifier({
      issuer,
      audience: resource,
      algorithms: ALGORITHMS,
      ...(kind === "jwt-checking" ? { maxCacheSeconds: 0 } : {}),
    }),
    rules: [modern.RESOURCE_SERVER_RULES],
    scopes: { methods: { "tools/call": [SCOPE] } },
  });
  listener = toNodeListener(
    createHttpHandler({ stateless: stateless(), path: "/mcp", authorize: gate.authorize, permit: gate.permit }),
  );
} else {
  const keys = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const auth = requireBearerAuth({
    verifier: {
      async verifyAccessToken(presented) {
        const { payload } = await jwtVerify(presented, keys, {
          issuer,
          audience: resource,
          algorithms: ALGORITHMS,
          clockTolerance: 30,
        });
        return {
          token: presented,
          clientId: String(payload["client_id"]),
          scopes: String(payload["scope"]).split(" "),
          expiresAt: payload.exp!,
          resource: new URL(resource),
        };
      },
    },
    requiredScopes: [SCOPE],
    expectedResource: new URL(resource),
  });
  // As bench/server-child.ts serves SDK v2: a server per request from the factory.
  const handler = createMcpHandler(() => {
    const sdk = new McpServer({ name: "bench", version: "1" });
    sdk.registerTool("echo", { description: "Answers with a fixed text" }, () => ({ content }));
    return sdk;
  });
  const guarded = async (request: Request): Promise<Response> => {
    const verdict = await auth(request);
    return verdict instanceof Response ? verdict : handler.fetch(request, { authInfo: verdict });
  };
  listener = (req, res) => void serveFetch(guarded, req, res);
}

process.send?.({ port, token });
process.on("message", (message: string) => {
  if (message === "cpu") process.send?.({ cpu: process.cpuUsage() });
  if (message === "exit") server.close(() => process.exit(0));
});
