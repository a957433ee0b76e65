// The session era on the client (runtime/client/session-era.ts) through `connect`, against a fake `fetch`: the
// `initialize` handshake, and a session the server forgot (a 404 to a request carrying its id) renewed with a
// new `initialize` and the call made once more, as the 2025-11-25 transports page requires.
import { describe, expect, it } from "vitest";
import { connect, httpTransport } from "../../../generated/index.ts";
import { DISCOVERED } from "../../support/discovered.ts";
import {
  callTool,
  CLIENT_INFO,
  fakeFetch,
  INITIALIZED,
  json,
  RELEASES,
  result,
  URL_,
} from "../../support/fake-fetch.ts";

describe("a 2025 session the server forgot (HTTP 404 to a request carrying its id)", () => {
  /** A 2025-11-25 server whose sessions are numbered; `known(id, method)` says whether a request's session is still known. */
  function forgetfulServer(known: (sessionId: string, method: string | undefined) => boolean) {
    let sessions = 0;
    return fakeFetch(({ method, headers, body }) => {
      if (method !== "POST") return new Response(null, { status: method === "GET" ? 405 : 200 });
      if (body?.method === "server/discover") return new Response("Not Found", { status: 404 });
      // A third session is refused, so that a client renewing without end stops (and fails the test) at once.
      if (body?.method === "initialize")
        return sessions === 2
          ? new Response("no more sessions", { status: 503 })
          : json(result(body.id, INITIALIZED("2025-11-25")), 200, { "mcp-session-id": `s-${++sessions}` });
      if (!known(headers["Mcp-Session-Id"] ?? "", body?.method))
        return new Response("session not found", { status: 404 });
      if (body?.id === undefined) return new Response(null, { status: 202 });
      return json(result(body.id, { content: [] }));
    });
  }

  it("starts a new session (initialize without the old id) and makes the call again on it", async () => {
    let restarted = false;
    const server = forgetfulServer((id) => id !== "s-1" || !restarted);
    const session = await connect(httpTransport(URL_, { fetch: server.fetch }), {
      releases: RELEASES(),
      clientInfo: CLIENT_INFO,
    });
    restarted = true;
    await expect(callTool(session)).resolves.toEqual({ content: [] });
    await expect(callTool(session)).resolves.toEqual({ content: [] });
    await session.close();
    const posts = server.seen.filter((s) => s.method === "POST").slice(3);
    expect(posts.map((s) => [s.body?.method, s.headers["Mcp-Session-Id"]])).toEqual([
      ["tools/call", "s-1"],
      ["initialize", undefined],
      ["notifications/initialized", "s-2"],
      ["tools/call", "s-2"],
      ["tools/call", "s-2"],
    ]);
  });

  it("renews once per call: a server that forgets every session at its calls fails the call with the 404", async () => {
    let restarted = false;
    const server = forgetfulServer((_, method) => method !== "tools/call" || !restarted);
    const session = await connect(httpTransport(URL_, { fetch: server.fetch }), {
      releases: RELEASES(),
      clientInfo: CLIENT_INFO,
    });
    restarted = true;
    await expect(callTool(session)).rejects.toThrow(`${URL_} no longer knows the session (HTTP 404)`);
    await session.close();
    expect(server.seen.filter((s) => s.body?.method === "initialize")).toHaveLength(2);
  });

  it("calls in flight together share one new session", async () => {
    let restarted = false;
    const server = forgetfulServer((id) => id !== "s-1" || !restarted);
    const session = await connect(httpTransport(URL_, { fetch: server.fetch }), {
      releases: RELEASES(),
      clientInfo: CLIENT_INFO,
    });
    restarted = true;
    await Promise.all([callTool(session), callTool(session), callTool(session)]);
    await session.close();
    expect(server.seen.filter((s) => s.body?.method === "initialize")).toHaveLength(2);
  });

  it("a 404 to a request without a session id (a stateless server) is an error, not a renewal", async () => {
    const server = fakeFetch(({ body }) =>
      body?.method === "server/discover"
        ? json(result(body.id, DISCOVERED))
        : new Response("Not Found", { status: 404 }),
    );
    const session = await connect(httpTransport(URL_, { fetch: server.fetch }), {
      releases: RELEASES(),
      clientInfo: CLIENT_INFO,
    });
    await expect(callTool(session)).rejects.toThrow("HTTP 404 Not Found");
    expect(server.seen.map((s) => s.body?.method)).toEqual(["server/discover", "tools/call"]);
    await session.close();
  });
});
