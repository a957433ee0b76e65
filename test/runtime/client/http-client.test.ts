// The Streamable HTTP client transport (runtime/client/http-client.ts) through `connect`, as a user calls it:
// against real in-process `node:http` servers where the platform's fetch matters (redirects, a closed
// port), against a fake `fetch` elsewhere. What is checked: redirects followed only within the origin,
// JSON replies bounded, a failed call's reply no longer read, and errors that say what went wrong.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { connect, httpTransport, v2025_11_25, v2026_07_28 } from "../../../generated/index.ts";
import { authorizeRequests } from "../../../generated/runtime/client/client-auth.ts";
import { DISCOVERED } from "../../support/discovered.ts";
import {
  callTool,
  CLIENT_INFO,
  fakeFetch,
  INITIALIZED,
  json,
  RELEASES,
  result,
  sse,
  URL_,
} from "../../support/fake-fetch.ts";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise((done) => (server.closeAllConnections(), server.close(done)))),
  );
});

interface Received {
  readonly path: string;
  readonly method: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

/** An in-process server on its own port (its own origin); every request it receives is recorded. */
async function serve(
  answer: (request: Received, response: ServerResponse) => void,
): Promise<{ origin: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const entry = { path: req.url ?? "", method: req.method ?? "", headers: req.headers, body };
      received.push(entry);
      answer(entry, res);
    });
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/** A stateless server's answer: discovery, then an empty tool result. */
function stateless(request: Received, response: ServerResponse): void {
  const message = JSON.parse(request.body) as { id?: number; method: string };
  if (message.id === undefined) return void response.writeHead(202).end();
  response.writeHead(200, { "content-type": "application/json" });
  response.end(
    JSON.stringify(
      result(message.id, message.method === "server/discover" ? DISCOVERED : { resultType: "complete", content: [] }),
    ),
  );
}

describe("redirects", () => {
  it("a redirect to another origin is not followed: connect fails naming it, the other origin hears nothing, no era is tried after", async () => {
    const elsewhere = await serve(stateless);
    const first = await serve((_, response) => response.writeHead(307, { location: `${elsewhere.origin}/mcp` }).end());
    const fallbacks: string[] = [];
    const failure = await connect(httpTransport(`${first.origin}/mcp`, { headers: { "X-Api-Key": "s3cret-key" } }), {
      releases: RELEASES(),
      clientInfo: CLIENT_INFO,
      onFallback: (why) => fallbacks.push(why),
    }).catch((error: unknown) => error as Error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe(
      `HTTP 307 from ${first.origin}/mcp redirects to ${elsewhere.origin}/mcp: the transport follows only a 307 or 308 within the origin, which keep the POST and send its credentials nowhere else`,
    );
    expect((failure as Error).name).toBe("ConnectionError");
    expect(elsewhere.received).toEqual([]);
    expect(first.received).toHaveLength(1);
    expect(fallbacks).toEqual([]);
  });

  it("a 307 or 308 within the origin is followed with the method, the body and the headers", async () => {
    for (const status of [307, 308]) {
      const server = await serve((request, response) =>
        request.path === "/mcp"
          ? response.writeHead(status, { location: "/moved" }).end()
          : stateless(request, response),
      );
      const session = await connect(httpTransport(`${server.origin}/mcp`, { headers: { "X-Api-Key": "k" } }), {
        releases: [v2026_07_28.clientRelease()],
        clientInfo: CLIENT_INFO,
      });
      await callTool(session);
      await session.close();
      const moved = server.received.filter((r) => r.path === "/moved");
      expect(moved.map((r) => [r.method, JSON.parse(r.body).method, r.headers["x-api-key"]])).toEqual([
        ["POST", "server/discover", "k"],
        ["POST", "tools/call", "k"],
      ]);
    }
  });

  it("a 301, 302 or 303 (which would turn the POST into a GET) fails naming the URL it redirects to", async () => {
    for (const status of [301, 302, 303]) {
      const server = await serve((request, response) =>
        request.path === "/mcp"
          ? response.writeHead(status, { location: "/moved" }).end()
          : stateless(request, response),
      );
      await expect(
        connect(httpTransport(`${server.origin}/mcp`), { releases: RELEASES(), clientInfo: CLIENT_INFO }),
      ).rejects.toThrow(
        `HTTP ${status} from ${server.origin}/mcp redirects to ${server.origin}/moved: the transport follows only a 307 or 308 within the origin`,
      );
      expect(server.received.map((r) => r.path)).toEqual(["/mcp"]);
    }
  });
});

describe("errors that say what went wrong", () => {
  it("a server nobody listens for: connect fails at once naming the URL and why, no initialize tried", async () => {
    const closed = await serve(stateless);
    const url = `${closed.origin}/mcp`;
    const server = servers.pop()!;
    await new Promise((done) => server.close(done));
    const fallbacks: string[] = [];
    const failure = await connect(httpTransport(url), {
      releases: RELEASES(),
      clientInfo: CLIENT_INFO,
      onFallback: (why) => fallbacks.push(why),
    }).catch((error: unknown) => error as Error);
    expect(failure).toMatchObject({ name: "ConnectionError" });
    expect((failure as Error).message).toMatch(new RegExp(`^cannot reach ${url} \\(connect ECONNREFUSED .*\\)$`));
    expect(fallbacks).toEqual([]);
  });

  it("names the URL without the credentials a userinfo or a query carries", async () => {
    const closed = await serve(stateless);
    const server = servers.pop()!;
    await new Promise((done) => server.close(done));
    const url = `${closed.origin.replace("//", "//alice:s3cret@")}/mcp?api_key=s3cret#s3cret`;
    const failure = await connect(httpTransport(url), { releases: RELEASES(), clientInfo: CLIENT_INFO }).catch(
      (error: unknown) => error as Error,
    );
    expect((failure as Error).message).toMatch(new RegExp(`^cannot reach ${closed.origin}/mcp \\(`));
    expect((failure as Error).message).not.toContain("s3cret");
  });

  it.each([
    [401, "HTTP 401 from http://127.0.0.1:1/mcp: credentials missing or refused"],
    [403, "HTTP 403 from http://127.0.0.1:1/mcp: the credentials do not allow this request"],
  ])("a %i says so, without the token, and no other era is tried", async (status, message) => {
    const server = fakeFetch(() => new Response(JSON.stringify({ error: "invalid_token" }), { status }));
    const failure = await connect(
      httpTransport(URL_, { fetch: server.fetch, headers: { Authorization: "Bearer s3cret" } }),
      { releases: RELEASES(), clientInfo: CLIENT_INFO },
    ).catch((error: unknown) => error as Error);
    expect(failure).toMatchObject({ name: "ConnectionError", message });
    expect(server.seen).toHaveLength(1);
  });
});

/** A stateless session over `fetch` whose tools/call is answered by `reply`. */
async function statelessSession(
  reply: (id: number | string | undefined) => Response | Promise<Response>,
  maxReplyBytes?: number,
) {
  const server = fakeFetch(({ body }) =>
    body?.method === "server/discover" ? json(result(body.id, DISCOVERED)) : reply(body?.id),
  );
  const session = await connect(
    httpTransport(URL_, { fetch: server.fetch, ...(maxReplyBytes === undefined ? {} : { maxReplyBytes }) }),
    { releases: [v2026_07_28.clientRelease()], clientInfo: CLIENT_INFO },
  );
  return { session, seen: server.seen };
}

describe("a JSON reply is bounded (maxReplyBytes)", () => {
  const big = (id: unknown) =>
    result(id, { resultType: "complete", content: [{ type: "text", text: "x".repeat(4000) }] });

  it("a larger reply fails its call with the limit named; one within it is read", async () => {
    const { session } = await statelessSession((id) => json(big(id)), 4096);
    await expect(callTool(session)).rejects.toThrow(`the reply from ${URL_} exceeds 4096 bytes (maxReplyBytes)`);
    await session.close();
    const roomy = await statelessSession((id) => json(big(id)), 8192);
    await expect(callTool(roomy.session)).resolves.toMatchObject({ content: [{ type: "text" }] });
    await roomy.session.close();
  });

  it("a reply with no Content-Length that never ends is cut at the limit, its stream cancelled", async () => {
    let cancelled = false;
    const { session } = await statelessSession(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull: (controller) => controller.enqueue(new Uint8Array(1024).fill(0x20)),
            cancel: () => void (cancelled = true),
          }),
          { headers: { "content-type": "application/json" } },
        ),
      65_536,
    );
    await expect(callTool(session)).rejects.toThrow("exceeds 65536 bytes (maxReplyBytes)");
    expect(cancelled).toBe(true);
    await session.close();
  });

  it("the default limit is 16 MiB", async () => {
    const mib = new Uint8Array(2 ** 20).fill(0x20);
    let sent = 0;
    const { session } = await statelessSession(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull: (controller) => (sent++ < 17 ? controller.enqueue(mib) : controller.close()),
          }),
          { headers: { "content-type": "application/json" } },
        ),
    );
    await expect(callTool(session)).rejects.toThrow("exceeds 16777216 bytes");
    await session.close();
  });
});

describe("a call that failed stops reading its reply", () => {
  it("a timed-out call aborts its fetch: the server sees its SSE reply's connection closed", async () => {
    let closed: () => void = () => undefined;
    const replyClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = await serve((request, response) => {
      const message = JSON.parse(request.body) as { method: string };
      if (message.method !== "tools/call") return stateless(request, response);
      response.on("close", () => closed());
      response.writeHead(200, { "content-type": "text/event-stream" }).write(": keep-alive\n\n");
    });
    const session = await connect(httpTransport(`${server.origin}/mcp`), {
      releases: [v2026_07_28.clientRelease()],
      clientInfo: CLIENT_INFO,
    });
    await expect(callTool(session, { timeoutMs: 100 })).rejects.toMatchObject({ name: "TimeoutError" });
    // Without the abort the reply stays open until the session closes: the test's timeout is the witness.
    await replyClosed;
    await session.close();
  });

  it("an aborted call whose server never answers aborts its fetch (no socket left waiting for headers)", async () => {
    const { session, seen } = await statelessSession((id) =>
      id === undefined ? new Response(null, { status: 202 }) : new Promise<Response>(() => undefined),
    );
    const abort = new AbortController();
    const call = callTool(session, { signal: abort.signal });
    await new Promise((resolve) => setImmediate(resolve));
    abort.abort(new Error("no longer wanted"));
    await expect(call).rejects.toThrow("no longer wanted");
    expect(seen.find((s) => s.body?.method === "tools/call")?.signal.aborted).toBe(true);
    await session.close();
  });
});

describe("an answered call stops reading its reply", () => {
  it("an SSE reply is read up to its call's answer: then it is cancelled, though the server keeps it open", async () => {
    let closed: () => void = () => undefined;
    const replyClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = await serve((request, response) => {
      const message = JSON.parse(request.body) as { id: number; method: string };
      if (message.method !== "tools/call") return stateless(request, response);
      response.on("close", () => closed());
      const answer = result(message.id, { resultType: "complete", content: [] });
      response.writeHead(200, { "content-type": "text/event-stream" }).write(`data: ${JSON.stringify(answer)}\n\n`);
    });
    const session = await connect(httpTransport(`${server.origin}/mcp`), {
      releases: [v2026_07_28.clientRelease()],
      clientInfo: CLIENT_INFO,
    });
    await expect(callTool(session)).resolves.toMatchObject({ content: [] });
    // Read on, the reply would stay open until the session closes: the test's timeout is the witness.
    await replyClosed;
    await session.close();
  });
});

describe("every POST carries its era's headers", () => {
  it("a cancelled call's notifications/cancelled: MCP-Protocol-Version and Mcp-Method in 2026-07-28, the session's id and version in 2025-11-25", async () => {
    for (const release of [v2026_07_28.clientRelease(), v2025_11_25.clientRelease()]) {
      let cancelled: () => void = () => undefined;
      const cancelSeen = new Promise<void>((resolve) => (cancelled = resolve));
      const server = fakeFetch(async ({ method, body }) => {
        if (method === "GET") return new Response(null, { status: 405 });
        if (method === "DELETE") return new Response(null, { status: 200 });
        if (body?.method === "server/discover") return json(result(body.id, DISCOVERED));
        if (body?.method === "initialize")
          return json(result(body.id, INITIALIZED("2025-11-25")), 200, { "mcp-session-id": "s-1" });
        if (body?.method === "notifications/cancelled") cancelled();
        if (body?.id === undefined) return new Response(null, { status: 202 });
        // The call is answered only once it has been cancelled: with nothing.
        await cancelSeen;
        return sse("");
      });
      const session = await connect(httpTransport(URL_, { fetch: server.fetch }), {
        releases: [release],
        clientInfo: CLIENT_INFO,
      });
      const abort = new AbortController();
      const call = callTool(session, { signal: abort.signal });
      abort.abort(new Error("no longer wanted"));
      await expect(call).rejects.toThrow("no longer wanted");
      await cancelSeen;
      await session.close();
      const cancel = server.seen.find((s) => s.body?.method === "notifications/cancelled");
      expect(cancel?.headers).toMatchObject(
        release.version === "2026-07-28"
          ? { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "notifications/cancelled" }
          : { "MCP-Protocol-Version": "2025-11-25", "Mcp-Session-Id": "s-1" },
      );
    }
  });
});

describe("an authorizer (the auth option)", () => {
  /** An authorizer that hands out token-N, counting what it was asked; `again` says whether a refusal is worth a retry. */
  function authorizer(again: (status: number) => boolean | Promise<boolean> = () => true) {
    const refusals: { status: number; challenge: string | null }[] = [];
    let token: string | undefined;
    const auth = authorizeRequests({
      authorization: async () => token && `Bearer ${token}`,
      refused: async (_endpoint, status, challenge) => {
        refusals.push({ status, challenge });
        token = `token-${refusals.length}`;
        return again(status);
      },
    });
    return { auth, refusals };
  }

  it("a 401 authorizes and retries the request once with the token; a 403 insufficient_scope steps up once", async () => {
    const { auth, refusals } = authorizer();
    const server = fakeFetch(({ body, headers }) => {
      const token = headers["Authorization"];
      if (token === undefined) return json({}, 401, { "www-authenticate": 'Bearer scope="read"' });
      if (body?.method === "server/discover") return json(result(body.id, DISCOVERED));
      if (token === "Bearer token-1")
        return json({}, 403, { "www-authenticate": 'Bearer error="insufficient_scope", scope="write"' });
      return json(result(body?.id, { resultType: "complete", content: [] }));
    });
    const session = await connect(httpTransport(URL_, { fetch: server.fetch, auth }), {
      releases: [v2026_07_28.clientRelease()],
      clientInfo: CLIENT_INFO,
    });
    await expect(callTool(session)).resolves.toMatchObject({ content: [] });
    await session.close();
    expect(refusals).toEqual([
      { status: 401, challenge: 'Bearer scope="read"' },
      { status: 403, challenge: 'Bearer error="insufficient_scope", scope="write"' },
    ]);
    expect(server.seen.map(({ headers }) => headers["Authorization"])).toEqual([
      undefined,
      "Bearer token-1",
      "Bearer token-1",
      "Bearer token-2",
    ]);
  });

  it("a server that keeps refusing gets one retry per status, then the request fails as before", async () => {
    const { auth, refusals } = authorizer();
    const server = fakeFetch(() => json({}, 401));
    const failure = await connect(httpTransport(URL_, { fetch: server.fetch, auth }), {
      releases: RELEASES(),
      clientInfo: CLIENT_INFO,
    }).catch((error: unknown) => error as Error);
    expect(failure).toMatchObject({ name: "ConnectionError", message: expect.stringMatching(/^HTTP 401/) });
    expect(refusals).toHaveLength(1);
    expect(server.seen).toHaveLength(2);
  });

  it("a session's every request carries the token, the DELETE on close too", async () => {
    const { auth } = authorizer();
    const server = fakeFetch(({ method, body, headers }) => {
      if (headers["Authorization"] === undefined) return json({}, 401);
      if (method === "GET") return new Response(null, { status: 405 });
      if (method === "DELETE") return new Response(null, { status: 200 });
      if (body?.method === "initialize")
        return json(result(body.id, INITIALIZED("2025-11-25")), 200, { "mcp-session-id": "s-1" });
      return json(result(body?.id, { content: [] }));
    });
    const session = await connect(httpTransport(URL_, { fetch: server.fetch, auth }), {
      releases: [v2025_11_25.clientRelease()],
      clientInfo: CLIENT_INFO,
    });
    await session.close();
    const sent = server.seen.filter(({ headers }) => headers["Authorization"] === "Bearer token-1");
    expect(sent.map(({ method }) => method)).toEqual(expect.arrayContaining(["POST", "DELETE"]));
  });

  it("an authorization that fails is a connection error with its message, and no other era is tried", async () => {
    const { auth } = authorizer(() => Promise.reject(new Error("the authorization server is refused")));
    const server = fakeFetch(() => json({}, 401));
    const failure = await connect(httpTransport(URL_, { fetch: server.fetch, auth }), {
      releases: RELEASES(),
      clientInfo: CLIENT_INFO,
    }).catch((error: unknown) => error as Error);
    expect(failure).toMatchObject({ name: "ConnectionError", message: "the authorization server is refused" });
    expect(server.seen).toHaveLength(1);
  });
});
