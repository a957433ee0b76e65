// An in-process authorization server and protected resource for the OAuth client's tests: real node:http
// servers on 127.0.0.1, honest by default, each answer replaceable to play a hostile server.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Route = (request: IncomingMessage, response: ServerResponse, body: string) => void;

export interface FakeServer {
  readonly url: string;
  /** Every request, as "METHOD /path?query". */
  readonly seen: string[];
  /** Form bodies of POST requests, by path. */
  readonly forms: Map<string, URLSearchParams[]>;
  routes: Map<string, Route>;
  close(): Promise<void>;
}

export async function fakeServer(routes: Record<string, Route> = {}): Promise<FakeServer> {
  const seen: string[] = [];
  const forms = new Map<string, URLSearchParams[]>();
  const state = { routes: new Map(Object.entries(routes)) };
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      seen.push(`${request.method} ${request.url}`);
      const path = new URL(request.url ?? "/", "http://x").pathname;
      if (request.method === "POST" && request.headers["content-type"]?.includes("form"))
        forms.set(path, [...(forms.get(path) ?? []), new URLSearchParams(body)]);
      const route = state.routes.get(`${request.method} ${path}`) ?? state.routes.get(path);
      if (route === undefined) return void response.writeHead(404).end();
      route(request, response, body);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    forms,
    get routes() {
      return state.routes;
    },
    set routes(next) {
      state.routes = next;
    },
    close: () => new Promise((done) => (server.closeAllConnections(), server.close(() => done()))),
  };
}

export function json(value: unknown, status = 200): Route {
  return (_request, response) =>
    void response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

/** An authorization server at `server.url` that approves every request without a user, as the conformance suite's does. */
export function honestAuthorizationServer(
  server: FakeServer,
  options: { readonly metadata?: Record<string, unknown>; readonly token?: () => Record<string, unknown> } = {},
): void {
  const challenges = new Map<string, string>();
  let issued = 0;
  server.routes.set(
    "/.well-known/oauth-authorization-server",
    json({
      issuer: server.url,
      authorization_endpoint: `${server.url}/authorize`,
      token_endpoint: `${server.url}/token`,
      registration_endpoint: `${server.url}/register`,
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      authorization_response_iss_parameter_supported: true,
      ...options.metadata,
    }),
  );
  server.routes.set("/register", (_request, response, body) => {
    const metadata = JSON.parse(body) as Record<string, unknown>;
    json({ ...metadata, client_id: "registered-client" }, 201)(_request, response, body);
  });
  server.routes.set("/authorize", (request, response) => {
    const query = new URL(request.url ?? "/", server.url).searchParams;
    const code = `code-${challenges.size}`;
    challenges.set(code, query.get("code_challenge") ?? "");
    const back = new URL(query.get("redirect_uri") ?? "");
    back.searchParams.set("code", code);
    back.searchParams.set("state", query.get("state") ?? "");
    back.searchParams.set("iss", server.url);
    response.writeHead(302, { location: back.href }).end();
  });
  server.routes.set("/token", (_request, response, body) => {
    const form = new URLSearchParams(body);
    if (form.get("grant_type") === "authorization_code") {
      const expected = challenges.get(form.get("code") ?? "");
      const actual = createHash("sha256")
        .update(form.get("code_verifier") ?? "")
        .digest("base64url");
      if (expected !== actual) return json({ error: "invalid_grant" }, 400)(_request, response, body);
    }
    issued++;
    json(
      options.token?.() ?? {
        access_token: `token-${issued}`,
        token_type: "Bearer",
        expires_in: 3600,
        refresh_token: `refresh-${issued}`,
        ...(form.get("scope") === null ? {} : { scope: form.get("scope") }),
      },
    )(_request, response, body);
  });
}

/** A protected resource at `server.url/mcp` whose metadata names the authorization server at `issuer`. */
export function protectedResource(server: FakeServer, issuer: string, metadata: Record<string, unknown> = {}): void {
  server.routes.set(
    "/.well-known/oauth-protected-resource/mcp",
    json({ resource: `${server.url}/mcp`, authorization_servers: [issuer], ...metadata }),
  );
}
