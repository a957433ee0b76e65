// The HTTP client transport with its session era's part, through `connect`, as integration tests over the
// generated tree: against the shipped server (the GET stream reopened after a cut) and a fake `fetch` (a
// function from request to `Response`, no sockets): SSE replies cut anywhere (resumed or failed, never hung),
// and random bytes from the server never escaping as a throw. Each module's own tests are in its own file
// (connect, http-client, http-session, stdio-client).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { connect, createHttpHandler, httpTransport, v2025_11_25, v2026_07_28 } from "../../../generated/index.ts";
import { DISCOVERED } from "../../support/discovered.ts";
import {
  callTool,
  CLIENT_INFO,
  fakeFetch,
  INITIALIZED,
  json,
  result,
  sse,
  URL_,
  type Fetch,
} from "../../support/fake-fetch.ts";

const RUNS = Number(process.env["FUZZ_RUNS"] ?? 60);

describe("the 2025 standalone GET stream, against the shipped server", () => {
  it("a dropped stream is reopened with Last-Event-ID, and what the server sent meanwhile arrives", async () => {
    // The tool answers at once and keeps a way to ask the client later, when only the GET stream reaches it.
    let ask: (() => Promise<unknown>) | undefined;
    const handler = createHttpHandler({
      sessions: v2025_11_25.sessionEra(
        {
          initialize: (params) => INITIALIZED(params.protocolVersion) as v2025_11_25.InitializeResult,
          "tools/call": (_params, ctx) => {
            ask = () => ctx.context.request("ping", {});
            return { content: [] };
          },
        },
        { requestTimeoutMs: 5000 },
      ),
      path: "/mcp",
    });
    let opened: () => void = () => undefined;
    const getOpen = new Promise<void>((resolve) => (opened = resolve));
    const gets: Record<string, string>[] = [];
    const fetch: Fetch = async (url, init) => {
      const request = new Request(url, {
        method: init.method,
        headers: { host: "127.0.0.1", ...init.headers },
        ...(init.body === undefined ? {} : { body: init.body }),
      });
      const response = await handler.fetch(request);
      if (init.method !== "GET") return response;
      gets.push(init.headers);
      if (gets.length > 1) return response;
      opened();
      return cutAfterFirstEvent(response);
    };
    const pinged: string[] = [];
    const session = await connect(httpTransport("http://127.0.0.1/mcp", { fetch, reconnectDelayMs: 0 }), {
      releases: [
        v2025_11_25.clientRelease({
          dispatcher: v2025_11_25.createClientDispatcher({ ping: (_params, ctx) => (pinged.push(String(ctx.id)), {}) }),
        }),
      ],
      clientInfo: CLIENT_INFO,
      timeoutMs: 5000,
    });
    try {
      await getOpen;
      await session.request("tools/call", { name: "t", arguments: {} });
      await ask?.(); // goes out on the first GET, which is then cut
      await ask?.(); // reaches the client only through the reopened stream
      expect(pinged).toHaveLength(2);
      expect(gets).toHaveLength(2);
      expect(gets[0]?.["Last-Event-ID"]).toBeUndefined();
      expect(gets[1]?.["Last-Event-ID"]).toMatch(/_1$/);
    } finally {
      await session.close();
      handler.close();
    }
  });
});

/** The response with its body cut off (a dropped connection) right after the first event. */
function cutAfterFirstEvent(response: Response): Response {
  const reader = response.body!.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      controller.enqueue(value);
      if (new TextDecoder().decode(value).includes("data:")) {
        controller.close();
        await reader.cancel();
      }
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

describe("SSE replies", () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  const event = (id: string | undefined, message: object) =>
    `${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(message)}\n\n`;
  const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } };

  /**
   * A session whose tools/call reply is `reply`; a GET with `Last-Event-ID` resumes with `resumed`. Resumption is
   * the session era's (2026-07-28 dropped it), so the session is 2025-11-25 unless `stateless` is set.
   */
  async function callWith(
    reply: (id: number | string) => Response,
    resumed: (id: number | string, lastEventId: string | undefined) => Response,
    stateless = false,
  ) {
    let callId: number | string = 0;
    const server = fakeFetch(({ method, headers, body }) => {
      if (method === "GET")
        return headers["Last-Event-ID"] === undefined
          ? new Response(null, { status: 405 })
          : resumed(callId, headers["Last-Event-ID"]);
      if (method === "DELETE") return new Response(null, { status: 200 });
      if (body?.method === "server/discover") return json(result(body.id, DISCOVERED));
      if (body?.method === "initialize")
        return json(result(body.id, INITIALIZED("2025-11-25")), 200, { "mcp-session-id": "s-1" });
      if (body?.id === undefined) return new Response(null, { status: 202 });
      callId = body.id;
      return reply(callId);
    });
    const session = await connect(httpTransport(URL_, { fetch: server.fetch, reconnectDelayMs: 0, maxReconnects: 2 }), {
      releases: stateless ? [v2026_07_28.clientRelease()] : [v2025_11_25.clientRelease()],
      clientInfo: CLIENT_INFO,
      timeoutMs: 2000,
    });
    const outcome = await callTool(session).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    await session.close();
    return { outcome, seen: server.seen };
  }

  it("a reply that ends before the response is resumed with GET and Last-Event-ID, after the server's retry delay", async () => {
    const { outcome, seen } = await callWith(
      () => sse(`retry: 1\n\n${event("e1", progress)}`),
      (id, last) =>
        last === "e1"
          ? sse(event("e2", result(id, { resultType: "complete", content: [] })))
          : new Response(null, { status: 400 }),
    );
    expect(outcome).toMatchObject({ ok: true, value: { content: [] } });
    expect(seen.filter((s) => s.headers["Last-Event-ID"] !== undefined)).toMatchObject([
      { method: "GET", headers: { "Last-Event-ID": "e1", Accept: "text/event-stream", "Mcp-Session-Id": "s-1" } },
    ]);
  });

  it("a stateless reply that ends before the response is not resumed (2026-07-28 has no Last-Event-ID): a clear error, no GET", async () => {
    const { outcome, seen } = await callWith(
      () => sse(`retry: 1\n\n${event("e1", progress)}`),
      (id) => sse(event("e2", result(id, { resultType: "complete", content: [] }))),
      true,
    );
    expect(String((outcome as { error?: unknown }).error)).toMatch(
      /ended before the response to request \d+ \(the stateless era does not resume streams\)/,
    );
    expect(seen.map((s) => s.method)).toEqual(["POST", "POST"]);
  });

  it("a reply that ends before the response, with no event id to resume from, fails the call with a clear error", async () => {
    const { outcome } = await callWith(
      () => sse(event(undefined, progress)),
      () => new Response(null, { status: 405 }),
    );
    expect(outcome.ok).toBe(false);
    expect(String((outcome as { error: unknown }).error)).toMatch(
      /ended before the response to request \d+ \(no event id to resume from\)/,
    );
  });

  it("a stream cut anywhere ends in the response (resumed) or a clear error, never a hang", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.boolean(), async (cut, withIds) => {
        let whole = "";
        const { outcome } = await callWith(
          (id) => {
            whole =
              event(withIds ? "e1" : undefined, progress) +
              event(withIds ? "e2" : undefined, result(id, { resultType: "complete", content: [] }));
            const bytes = encode(whole);
            return sse([bytes.subarray(0, cut % (bytes.length + 1))]);
          },
          (id, last) =>
            last === "e1"
              ? sse(event("e2", result(id, { resultType: "complete", content: [] })))
              : new Response(null, { status: 404 }),
        );
        if (outcome.ok) expect(outcome.value).toMatchObject({ content: [] });
        else expect(String(outcome.error)).toMatch(/ended before the response|HTTP 404/);
      }),
      { numRuns: RUNS },
    );
  });

  it("random bytes as a reply never throw out of the transport: the call settles, with an error, within its timeout", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 6 }),
        fc.boolean(),
        async (chunks, asStream) => {
          const { outcome } = await callWith(
            () =>
              asStream
                ? sse(chunks)
                : new Response(new Blob(chunks), { status: 200, headers: { "content-type": "application/json" } }),
            () => new Response(null, { status: 405 }),
          );
          expect(outcome.ok).toBe(false);
          expect((outcome as { error: unknown }).error).toBeInstanceOf(Error);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
