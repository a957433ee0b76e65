// The session era's part of the HTTP client (runtime/client/http-session.ts) through `connect`, against a fake
// `fetch`: the standalone GET stream reopened after it ends, drops or cannot be opened, with the server's
// `retry:` and a backoff measured on a fake clock (no wall time), and a session the server forgot.
import { afterEach, describe, expect, it, vi } from "vitest";
import { connect, httpTransport, v2025_11_25 } from "../../../generated/index.ts";
import { CLIENT_INFO, fakeFetch, INITIALIZED, json, result, sse, URL_, type Seen } from "../../support/fake-fetch.ts";

afterEach(() => vi.useRealTimers());

const LOG = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hi" } };

/** A 2025-11-25 server over `fetch` whose GET requests `get` answers (the nth GET as `index`). */
function sessionServer(get: (seen: Seen, index: number) => Response | Promise<Response>) {
  let gets = 0;
  const at: number[] = [];
  const server = fakeFetch((seen) => {
    const { method, body } = seen;
    if (method === "GET") return (at.push(Date.now()), get(seen, gets++));
    if (method === "DELETE") return new Response(null, { status: 200 });
    if (body?.method === "initialize")
      return json(result(body.id, INITIALIZED("2025-11-25")), 200, { "mcp-session-id": "s-1" });
    if (body?.id === undefined) return new Response(null, { status: 202 });
    return json(result(body.id, { tools: [] }));
  });
  return { ...server, at };
}

describe("the standalone GET stream", () => {
  it("is reopened after it ends, after a failed fetch and after a 503, with Last-Event-ID, the server's retry: doubled per reopening that brings nothing", async () => {
    vi.useFakeTimers();
    const server = sessionServer((_, index) => {
      if (index === 0) return sse(`retry: 100\nid: e1\ndata: ${JSON.stringify(LOG)}\n\n`);
      if (index === 1) throw new TypeError("fetch failed");
      if (index === 2) return new Response(null, { status: 503 });
      if (index === 3) return sse(`id: e2\ndata: ${JSON.stringify(LOG)}\n\n`);
      return new Response(null, { status: 405 });
    });
    const session = await connect(httpTransport(URL_, { fetch: server.fetch, reconnectDelayMs: 1000 }), {
      releases: [v2025_11_25.clientRelease()],
      clientInfo: CLIENT_INFO,
    });
    await vi.advanceTimersByTimeAsync(5000);
    const gets = server.seen.filter((s) => s.method === "GET");
    expect(gets.map((g) => g.headers["Last-Event-ID"])).toEqual([undefined, "e1", "e1", "e1", "e2"]);
    // After the live stream: its retry: 100; then 200 and 400 after the two that brought nothing; 100 again after a live one.
    expect(server.at.slice(1).map((t, i) => t - server.at[i]!)).toEqual([100, 200, 400, 100]);
    await session.close();
  });

  it("gives up after maxReconnects reopenings in a row that bring nothing, and after a 405 at once", async () => {
    vi.useFakeTimers();
    const failing = sessionServer(() => new Response(null, { status: 503 }));
    const session = await connect(
      httpTransport(URL_, { fetch: failing.fetch, reconnectDelayMs: 10, maxReconnects: 2 }),
      { releases: [v2025_11_25.clientRelease()], clientInfo: CLIENT_INFO },
    );
    await vi.advanceTimersByTimeAsync(60_000);
    expect(failing.seen.filter((s) => s.method === "GET")).toHaveLength(3);
    await session.close();
    const refusing = sessionServer(() => new Response(null, { status: 405 }));
    const other = await connect(httpTransport(URL_, { fetch: refusing.fetch, reconnectDelayMs: 10 }), {
      releases: [v2025_11_25.clientRelease()],
      clientInfo: CLIENT_INFO,
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(refusing.seen.filter((s) => s.method === "GET")).toHaveLength(1);
    await other.close();
  });
});
