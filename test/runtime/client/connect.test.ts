// `connect` (runtime/client/connect.ts) from outside, against a fake `fetch`: the era negotiation of the spec's
// versioning page (a -32022 retried once with a version the server lists, another modern signal final,
// anything else `initialize`).
import { describe, expect, it, vi } from "vitest";
import { connect, httpTransport, v2025_11_25, v2026_07_28 } from "../../../generated/index.ts";
import { authorizeRequests } from "../../../generated/runtime/client/client-auth.ts";
import { DISCOVERED } from "../../support/discovered.ts";
import { CLIENT_INFO, fakeFetch, INITIALIZED, json, RELEASES, result, URL_ } from "../../support/fake-fetch.ts";

const unsupported = (id: unknown, supported: string[]) =>
  json({ jsonrpc: "2.0", id, error: { code: -32022, message: "Unsupported", data: { supported } } }, 400);

describe("connect over HTTP: the era", () => {
  it("a stateless server: server/discover with the 2026-07-28 headers and _meta, then typed calls", async () => {
    const server = fakeFetch(({ body }) =>
      body?.method === "server/discover"
        ? json(result(body.id, DISCOVERED))
        : json(result(body?.id, { resultType: "complete", tools: [] })),
    );
    const session = await connect(httpTransport(URL_, { fetch: server.fetch }), {
      releases: RELEASES(),
      clientInfo: CLIENT_INFO,
    });
    expect(session.version).toBe("2026-07-28");
    if (session.version !== "2026-07-28") return;
    expect(session.server.supportedVersions).toEqual(["2026-07-28"]);
    await session.request("tools/list", {});
    const [discover, list] = server.seen;
    expect(discover?.headers).toMatchObject({ "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover" });
    expect(list?.body?.params?.["_meta"]).toMatchObject({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    });
    expect(list?.headers["Mcp-Session-Id"]).toBeUndefined();
    await session.close();
    expect(server.seen.map((s) => s.method)).toEqual(["POST", "POST"]);
  });

  it("-32022 naming only 2025-11-25: initialize at it, then its session id and version on every request, a GET stream, DELETE on close", async () => {
    const server = fakeFetch(({ method, body }) => {
      if (method === "GET") return new Response(null, { status: 405 });
      if (method === "DELETE") return new Response(null, { status: 200 });
      if (body?.method === "server/discover")
        return json(
          {
            jsonrpc: "2.0",
            id: body.id,
            error: {
              code: -32022,
              message: "Unsupported",
              data: { supported: ["2025-11-25"], requested: "2026-07-28" },
            },
          },
          400,
        );
      if (body?.method === "initialize")
        return json(result(body.id, INITIALIZED("2025-11-25")), 200, { "mcp-session-id": "s-1" });
      if (body?.id === undefined) return new Response(null, { status: 202 });
      return json(result(body.id, { tools: [] }));
    });
    const fallbacks: string[] = [];
    const session = await connect(httpTransport(URL_, { fetch: server.fetch }), {
      releases: RELEASES(),
      clientInfo: CLIENT_INFO,
      onFallback: (r) => fallbacks.push(r),
    });
    expect(session.version).toBe("2025-11-25");
    if (session.version !== "2025-11-25") return;
    await session.request("tools/list", {});
    await session.close();
    expect(fallbacks).toEqual(["2026-07-28: the server supports 2025-11-25"]);
    const calls = server.seen.map((s) => `${s.method} ${s.body?.method ?? ""}`.trim());
    expect(calls).toEqual([
      "POST server/discover",
      "POST initialize",
      "POST notifications/initialized",
      "GET",
      "POST tools/list",
      "DELETE",
    ]);
    expect(server.seen[1]?.body?.params).toMatchObject({ protocolVersion: "2025-11-25", clientInfo: CLIENT_INFO });
    for (const later of server.seen.slice(2))
      expect(later.headers).toMatchObject({ "Mcp-Session-Id": "s-1", "MCP-Protocol-Version": "2025-11-25" });
  });

  it("-32022 naming our version is retried once with it (the server may have wanted a fresh choice)", async () => {
    const server = fakeFetch(({ body }, index) =>
      index === 0
        ? json(
            {
              jsonrpc: "2.0",
              id: body?.id,
              error: { code: -32022, message: "Unsupported", data: { supported: ["2026-07-28"] } },
            },
            400,
          )
        : json(result(body?.id, DISCOVERED)),
    );
    const session = await connect(httpTransport(URL_, { fetch: server.fetch }), {
      releases: RELEASES(),
      clientInfo: CLIENT_INFO,
    });
    expect(session.version).toBe("2026-07-28");
    expect(server.seen).toHaveLength(2);
  });

  it("-32022 naming our version every time: retried once, not twice, then the server's error", async () => {
    const server = fakeFetch(({ body }) => unsupported(body?.id, ["2026-07-28"]));
    const failure = await connect(httpTransport(URL_, { fetch: server.fetch }), {
      releases: [v2026_07_28.clientRelease()],
      clientInfo: CLIENT_INFO,
    }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: -32022 });
    expect(server.seen.map((s) => s.body?.method)).toEqual(["server/discover", "server/discover"]);
  });

  it("any other answer to server/discover (a plain 404, -32601) means a session-era server", async () => {
    for (const refuse of [
      () => new Response("Not Found", { status: 404 }),
      (id: unknown) => json({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } }),
    ]) {
      const server = fakeFetch(({ method, body }) => {
        if (method !== "POST") return new Response(null, { status: 405 });
        if (body?.method === "server/discover") return refuse(body.id);
        return body?.method === "initialize"
          ? json(result(body.id, INITIALIZED("2025-11-25")))
          : new Response(null, { status: 202 });
      });
      const session = await connect(httpTransport(URL_, { fetch: server.fetch }), {
        releases: RELEASES(),
        clientInfo: CLIENT_INFO,
      });
      expect(session.version).toBe("2025-11-25");
      await session.close();
    }
  });

  it("another modern signal (-32021) proves a stateless server: no fallback, the error is the caller's", async () => {
    const server = fakeFetch(({ body }) =>
      json(
        {
          jsonrpc: "2.0",
          id: body?.id,
          error: { code: -32021, message: "Missing capability", data: { requiredCapabilities: { sampling: {} } } },
        },
        400,
      ),
    );
    const failure = await connect(httpTransport(URL_, { fetch: server.fetch }), {
      releases: RELEASES(),
      clientInfo: CLIENT_INFO,
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(v2026_07_28.RpcError);
    expect((failure as v2026_07_28.RpcError).code).toBe(-32021);
    expect(server.seen).toHaveLength(1);
  });

  it("initialize answered with a version no release offered fails, naming it", async () => {
    const server = fakeFetch(({ body }) =>
      body?.method === "initialize"
        ? json(result(body.id, INITIALIZED("2024-11-05")))
        : new Response("no", { status: 404 }),
    );
    await expect(
      connect(httpTransport(URL_, { fetch: server.fetch }), { releases: RELEASES(), clientInfo: CLIENT_INFO }),
    ).rejects.toThrow(/2024-11-05, which is not among the releases offered/);
  });

  it("tools/call carries Mcp-Name and the Mcp-Param headers of the listed tool's x-mcp-header; a tool with invalid annotations is dropped", async () => {
    const tools = [
      {
        name: "weather",
        inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
      },
      { name: "broken", inputSchema: { type: "object", properties: { a: { type: "object", "x-mcp-header": "A" } } } },
      // A name that is no string (String() of it would throw) is listed as sent, and names nothing to call.
      { name: { toString: 1 }, inputSchema: { type: "object" } },
    ];
    const server = fakeFetch(({ body }) =>
      json(
        result(
          body?.id,
          body?.method === "server/discover"
            ? DISCOVERED
            : body?.method === "tools/list"
              ? { resultType: "complete", tools }
              : { resultType: "complete", content: [] },
        ),
      ),
    );
    const session = await connect(httpTransport(URL_, { fetch: server.fetch }), {
      releases: [v2026_07_28.clientRelease()],
      clientInfo: CLIENT_INFO,
    });
    const listed = await session.request("tools/list", {});
    expect(listed.tools.map((t) => t.name)).toEqual(["weather", { toString: 1 }]);
    await session.request("tools/call", { name: "weather", arguments: { region: "Oslo" } });
    expect(server.seen.at(-1)?.headers).toMatchObject({
      "Mcp-Method": "tools/call",
      "Mcp-Name": "weather",
      "Mcp-Param-Region": "Oslo",
    });
  });
});

describe("connect's timeout counts the servers' time, not the user's login", () => {
  const refused = () => new Response(null, { status: 401, headers: { "www-authenticate": "Bearer" } });

  /** An authorizer whose login (the user at the authorization URL) is a promise the test settles, after `discoveryMs`. */
  function loginAuthorizer(discoveryMs = 0) {
    let token: string | undefined;
    let loggedIn: () => void = () => undefined;
    let loginStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (loginStarted = resolve));
    const auth = authorizeRequests({
      authorization: async () => token,
      refused: async (_endpoint, _status, _challenge, untimed = (waiting) => waiting) => {
        if (discoveryMs > 0) await new Promise((resolve) => setTimeout(resolve, discoveryMs));
        const login = new Promise<void>((resolve) => (loggedIn = resolve));
        loginStarted();
        await untimed(login);
        token = "Bearer t";
        return true;
      },
    });
    return { auth, started, logIn: () => loggedIn() };
  }

  it("a login that takes longer than timeoutMs still connects: the wait for the user stops the clock", async () => {
    vi.useFakeTimers();
    try {
      const { auth, started, logIn } = loginAuthorizer();
      const server = fakeFetch(({ headers, body }) =>
        headers["Authorization"] === "Bearer t" ? json(result(body?.id, DISCOVERED)) : refused(),
      );
      const connecting = connect(httpTransport(URL_, { fetch: server.fetch, auth }), {
        releases: [v2026_07_28.clientRelease()],
        clientInfo: CLIENT_INFO,
        timeoutMs: 1000,
      }).catch((error: unknown) => error);
      await started;
      await vi.advanceTimersByTimeAsync(10_000);
      logIn();
      const session = await connecting;
      expect(session).toMatchObject({ version: "2026-07-28" });
      expect(server.seen.map((seen) => seen.headers["Authorization"])).toEqual([undefined, "Bearer t"]);
      await (session as { close(): Promise<void> }).close();
    } finally {
      vi.useRealTimers();
    }
  });

  it("the time before and after the login counts: a server that never answers then fails at timeoutMs in all", async () => {
    vi.useFakeTimers();
    try {
      const { auth, started, logIn } = loginAuthorizer(400);
      const server = fakeFetch(({ headers }) =>
        headers["Authorization"] === "Bearer t" ? new Promise<Response>(() => undefined) : refused(),
      );
      let settled = false;
      const connecting = connect(httpTransport(URL_, { fetch: server.fetch, auth }), {
        releases: [v2025_11_25.clientRelease()],
        clientInfo: CLIENT_INFO,
        timeoutMs: 1000,
      })
        .catch((error: unknown) => error)
        .finally(() => (settled = true));
      await vi.advanceTimersByTimeAsync(400);
      await started;
      await vi.advanceTimersByTimeAsync(10_000);
      logIn();
      await vi.advanceTimersByTimeAsync(599);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await connecting).toMatchObject({ name: "TimeoutError", message: "No response within 1000 ms" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("without an authorizer, a server that never answers fails at timeoutMs", async () => {
    vi.useFakeTimers();
    try {
      const server = fakeFetch(() => new Promise<Response>(() => undefined));
      let settled = false;
      const connecting = connect(httpTransport(URL_, { fetch: server.fetch }), {
        releases: [v2025_11_25.clientRelease()],
        clientInfo: CLIENT_INFO,
        timeoutMs: 1000,
      })
        .catch((error: unknown) => error)
        .finally(() => (settled = true));
      await vi.advanceTimersByTimeAsync(999);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await connecting).toMatchObject({ name: "TimeoutError", message: "No response within 1000 ms" });
    } finally {
      vi.useRealTimers();
    }
  });
});
