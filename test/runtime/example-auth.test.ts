// The example server behind `--auth-issuer`, against a real authorization server (oidc-provider): the official
// SDK v2 client with its OAuth provider discovers the server's metadata, registers, runs the code flow with
// PKCE and the resource indicator, and calls a tool; a token without `mcp:tools` is refused with 403.
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
} from "@modelcontextprotocol/client";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type ExampleServer } from "../../examples/server.ts";
import { startAuthorizationServer, type AuthorizationServer } from "../support/authorization-server.ts";

const REDIRECT = "http://127.0.0.1:1/callback";

type Stored<K extends keyof OAuthClientProvider> = OAuthClientProvider[K] extends (...args: never[]) => infer R
  ? Awaited<R>
  : never;

/** An OAuth client provider kept in memory, whose "browser" is a test that records where it was sent. */
class MemoryProvider implements OAuthClientProvider {
  info: Stored<"clientInformation">;
  saved: Stored<"tokens">;
  verifier = "";
  sentTo: URL | undefined;
  readonly redirectUrl = REDIRECT;
  readonly clientMetadata = {
    client_name: "auth test",
    redirect_uris: [REDIRECT],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: NonNullable<Stored<"clientInformation">>) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: NonNullable<Stored<"tokens">>) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.sentTo = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** What a browser does with the authorization URL: follows the redirects, with cookies, to the callback. */
async function approve(url: URL): Promise<URLSearchParams> {
  const cookies = new Map<string, string>();
  let next = url.href;
  for (let hop = 0; hop < 10; hop++) {
    if (next.startsWith(REDIRECT)) return new URL(next).searchParams;
    const reply = await fetch(next, {
      redirect: "manual",
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const line of reply.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = reply.headers.get("location");
    if (location === null) throw new Error(`the flow stopped at ${reply.status}: ${await reply.text()}`);
    next = new URL(location, next).href;
  }
  throw new Error("too many redirects");
}

let as: AuthorizationServer;
let server: ExampleServer;
const errors: unknown[] = [];

beforeAll(async () => {
  as = await startAuthorizationServer();
  server = await startServer({ authIssuer: as.issuer, onError: (error) => errors.push(error) });
});
afterAll(async () => {
  await server.close();
  await as.stop();
});

describe("the example server with --auth-issuer", () => {
  it("the SDK v2 client completes the OAuth flow (discovery, registration, PKCE, resource) and calls a tool", async () => {
    const provider = new MemoryProvider();
    const first = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
    await expect(new Client({ name: "auth-test", version: "1" }).connect(first)).rejects.toThrow(UnauthorizedError);
    expect(provider.sentTo?.searchParams.get("resource")).toBe(server.url);
    await first.finishAuth(await approve(provider.sentTo!));
    expect(provider.saved?.access_token).toBeDefined();

    const client = new Client({ name: "auth-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider }));
    const result = await client.callTool({ name: "echo", arguments: { text: "through the gate" } });
    expect(JSON.stringify(result)).toContain("through the gate");
    await client.close();
    expect(errors).toEqual([]);
  });

  it("serves its metadata naming the issuer and the scope, and refuses a tools/call without mcp:tools with 403", async () => {
    const metadataUrl = server.url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
    expect(await (await fetch(metadataUrl)).json()).toMatchObject({
      resource: server.url,
      authorization_servers: [as.issuer],
      scopes_supported: ["mcp:tools"],
    });
    const token = await as.token(server.url, "mcp:admin");
    const call = (method: string, params: object) =>
      fetch(server.url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": method,
          ...("name" in params ? { "mcp-name": String(params.name) } : {}),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method,
          params: {
            ...params,
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        }),
      });
    const refused = await call("tools/call", { name: "echo", arguments: { text: "x" } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain('error="insufficient_scope", ');
    expect(refused.headers.get("www-authenticate")).toContain('scope="mcp:tools"');
    expect((await call("tools/list", {})).status).toBe(200);
  });

  it.each([
    ["empty", ["Authorization: "]],
    ["two tokens", ["Authorization: Bearer a b"]],
    ["two headers", ["Authorization: Bearer a", "Authorization: Bearer b"]],
    ["huge", [`Authorization: Bearer ${"x".repeat(12_000)}`]],
    ["non-ASCII bytes", ["Authorization: Bearer t\u00f6k\u00e9n"]],
    ["Basic", ["Authorization: Basic YWxpY2U6cHc="]],
    ["a lower-case scheme", ["Authorization: bearer not-a-jwt"]],
  ])(
    "over the wire, an Authorization header that is %s gets exactly one 401 or 400, and the server keeps serving",
    async (_, lines) => {
      const { port } = new URL(server.url);
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), "127.0.0.1");
        let text = "";
        socket.setEncoding("latin1");
        socket.on("data", (chunk: string) => (text += chunk));
        socket.on("end", () => resolve(text));
        socket.on("error", reject);
        const head = [
          "POST /mcp HTTP/1.1",
          `Host: 127.0.0.1:${port}`,
          "Content-Type: application/json",
          "Accept: application/json, text/event-stream",
          "MCP-Protocol-Version: 2026-07-28",
          "Connection: close",
          ...lines,
          `Content-Length: ${body.length}`,
        ];
        socket.end(Buffer.from(`${head.join("\r\n")}\r\n\r\n${body}`, "latin1"));
      });
      const statuses = [...raw.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));
      expect(statuses).toHaveLength(1);
      expect([400, 401]).toContain(statuses[0]);
      const metadata = await fetch(server.url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp"));
      expect(metadata.status).toBe(200);
    },
  );
});
