// Bad input on the wire: random bodies and header sets against the example server on 127.0.0.1. Every
// request gets an HTTP answer whose status fits what it was sent, every JSON body is a JSON-RPC message, and
// the server still serves a well-formed request afterwards. Requests cut off at random points (while the body
// is sent, while the handler runs, mid-stream) leave nothing pending.
import { request as httpRequest, Agent } from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type ExampleServer } from "../../examples/server.ts";
import { officialSchema } from "../support/official-schema.ts";

const RUNS = Number(process.env["FUZZ_RUNS"] ?? 10_000);
const BODY_LIMIT = 4096;

let server: ExampleServer;
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

beforeAll(async () => {
  // Disconnected 2025 requests are aborted at once, so the disconnect fuzz can see nothing is left pending.
  server = await startServer({ port: 0, bodyLimit: BODY_LIMIT, resumeWindowMs: 0 });
});

afterAll(async () => {
  agent.destroy();
  await server.close();
});

interface Answer {
  readonly status: number;
  readonly type: string | undefined;
  readonly session: string | undefined;
  readonly body: string;
}

function send(method: string, headers: Record<string, string>, body: string | Buffer): Promise<Answer> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const session = res.headers["mcp-session-id"];
          resolve({
            status: res.statusCode ?? 0,
            type: res.headers["content-type"],
            session: typeof session === "string" ? session : undefined,
            body: Buffer.concat(chunks).toString("utf8"),
          });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** Bodies from plain garbage to almost-valid requests: wrong types in every envelope field, unknown methods, odd params. */
const body = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.json({ maxDepth: 4 }),
  fc
    .record(
      {
        jsonrpc: fc.oneof(fc.constant("2.0"), fc.string({ maxLength: 5 }), fc.anything()),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), fc.anything()),
        method: fc.oneof(
          fc.constantFrom(
            "tools/call",
            "tools/list",
            "server/discover",
            "initialize",
            "resources/read",
            "prompts/get",
            "subscriptions/listen",
          ),
          fc.string({ maxLength: 20 }),
        ),
        params: fc.oneof(
          fc.constant({ _meta: META }),
          fc.record({ _meta: fc.anything(), name: fc.anything(), uri: fc.anything(), arguments: fc.anything() }),
          fc.anything(),
        ),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc.integer({ min: BODY_LIMIT + 1, max: BODY_LIMIT * 4 }).map((size) => "x".repeat(size)),
);

const headers = fc.record(
  {
    "content-type": fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", ""),
    accept: fc.constantFrom("application/json, text/event-stream", "text/html", "*/*"),
    "mcp-protocol-version": fc.constantFrom("2026-07-28", "2025-11-25", "1999-01-01", "=?base64?MjAyNi0wNy0yOA==?="),
    "mcp-method": fc.constantFrom("tools/call", "tools/list", "server/discover", "nope"),
    "mcp-name": fc.oneof(
      fc.constantFrom("test_simple_text", "test://static-text"),
      fc.stringMatching(/^[\x21-\x7e]{0,12}$/),
    ),
    "mcp-session-id": fc.oneof(fc.uuid(), fc.stringMatching(/^[\x21-\x7e]{1,12}$/)),
    origin: fc.constantFrom("http://127.0.0.1", "http://evil.example.com", "null"),
  },
  { requiredKeys: [] },
);

const method = fc.constantFrom("POST", "POST", "POST", "GET", "DELETE", "PUT", "PATCH");

function check(answer: Answer): void {
  expect(answer.status).toBeGreaterThanOrEqual(200);
  expect(answer.status).toBeLessThan(500);
  if (answer.type?.startsWith("application/json")) {
    const message: unknown = JSON.parse(answer.body);
    expect(message).toMatchObject({ jsonrpc: "2.0" });
    expect(typeof message === "object" && message !== null && ("result" in message || "error" in message)).toBe(true);
  }
}

describe("example server under random input", () => {
  it(`answers ${RUNS} random requests with a fitting status and JSON-RPC bodies, and keeps serving`, async () => {
    await fc.assert(
      fc.asyncProperty(method, headers, body, async (verb, extra, text) => {
        const answer = await send(verb, { ...extra, "content-length": String(Buffer.byteLength(text)) }, text);
        check(answer);
        if (
          Buffer.byteLength(text) > BODY_LIMIT &&
          verb === "POST" &&
          answer.status !== 403 &&
          answer.status !== 415 &&
          answer.status !== 406
        )
          expect(answer.status).toBe(413);
        if (verb !== "POST" && verb !== "GET" && verb !== "DELETE" && answer.status !== 403)
          expect(answer.status).toBe(405);
      }),
      { numRuns: RUNS },
    );
    const alive = await send(
      "POST",
      { "content-type": "application/json", "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" },
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } }),
    );
    expect(alive.status).toBe(200);
    expect(JSON.parse(alive.body)).toMatchObject({ id: 1, result: { supportedVersions: ["2026-07-28"] } });
  });

  it.each([
    ["a body over the limit", "POST", { "content-type": "application/json" }, "x".repeat(BODY_LIMIT + 1), 413, -32600],
    [
      "not JSON",
      "POST",
      { "content-type": "application/json", "mcp-protocol-version": "2026-07-28" },
      "{",
      400,
      -32700,
    ],
    [
      "a JSON value that is no message",
      "POST",
      { "content-type": "application/json", "mcp-protocol-version": "2026-07-28" },
      "[1,2]",
      400,
      -32600,
    ],
    ["the wrong content type", "POST", { "content-type": "text/plain" }, "{}", 415, -32600],
    [
      "a foreign Origin",
      "POST",
      { "content-type": "application/json", origin: "http://evil.example.com" },
      "{}",
      403,
      -32600,
    ],
    [
      "a legacy notification without a session",
      "POST",
      { "content-type": "application/json", "mcp-protocol-version": "2025-11-25" },
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      400,
      -32600,
    ],
    [
      "an unknown session",
      "POST",
      { "content-type": "application/json", "mcp-session-id": "nope" },
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      404,
      -32600,
    ],
    ["GET without a session (no standalone stream in 2026-07-28)", "GET", {}, "", 405, -32600],
    ["PUT", "PUT", {}, "", 405, -32600],
  ])(
    "answers %s with its HTTP status and a JSON-RPC error without id (none could be read)",
    async (_, verb, extra, text, status, code) => {
      const answer = await send(verb, extra, text);
      expect(answer.status).toBe(status);
      expect(JSON.parse(answer.body)).toEqual({ jsonrpc: "2.0", error: { code, message: expect.any(String) } });
    },
  );
});

/** Sends a request and drops the connection after `afterMs` (or once the first bytes arrive, whichever is first). */
function sendAndLeave(method: string, headers: Record<string, string>, body: string, afterMs: number): Promise<void> {
  const url = new URL(server.url);
  return new Promise((resolve) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method, headers }, (res) => {
      res.once("data", () => req.destroy());
      res.on("end", resolve);
      res.on("error", () => resolve());
      res.on("close", () => resolve());
    });
    req.on("error", () => resolve());
    req.on("close", () => resolve());
    req.write(body.slice(0, Math.floor(body.length / 2)));
    setTimeout(() => {
      if (afterMs % 2 === 0) req.end(body.slice(Math.floor(body.length / 2)));
      setTimeout(() => req.destroy(), afterMs);
    }, afterMs);
  });
}

describe("example server under early disconnects", () => {
  const modern = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
  };
  const call = (id: number, name: string) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: { text: "x" }, _meta: { ...META, progressToken: id } },
    });

  it("requests cut off while their body is sent, while their handler runs or mid-stream leave nothing pending, and the server keeps serving", async () => {
    const init = await send(
      "POST",
      { "content-type": "application/json", accept: "application/json, text/event-stream" },
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    );
    const session = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      "mcp-session-id": init.session!,
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("test_tool_with_progress", "test_tool_with_logging", "echo", "test_simple_text", "listen"),
        fc.boolean(),
        fc.integer({ min: 0, max: 30 }),
        async (tool, inSession, afterMs) => {
          // subscriptions/listen holds its stream until the client leaves: only the disconnect ends it.
          if (tool === "listen") {
            const listen = {
              jsonrpc: "2.0",
              id: afterMs + 2,
              method: "subscriptions/listen",
              params: { notifications: { toolsListChanged: true }, _meta: META },
            };
            return sendAndLeave(
              "POST",
              { ...modern, "mcp-method": "subscriptions/listen" },
              JSON.stringify(listen),
              afterMs,
            );
          }
          const headers = inSession ? session : { ...modern, "mcp-name": tool };
          await sendAndLeave("POST", headers, call(afterMs + 2, tool), afterMs);
        },
      ),
      { numRuns: Math.min(RUNS, 300) },
    );
    // Handlers that were cut off finish their current step (at most one 20 ms pause) before they see the abort.
    for (let i = 0; i < 50 && server.handler.pending > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.handler.pending).toBe(0);
    const alive = await send("POST", { ...modern, "mcp-name": "echo" }, call(1, "echo"));
    expect(alive.status).toBe(200);
  });
});

describe("example server errors carry the request's id when it can be read", () => {
  const JSON_TYPE = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const MODERN = { ...JSON_TYPE, "mcp-protocol-version": "2026-07-28" };
  const judge = { "2026-07-28": officialSchema("2026-07-28"), "2025-11-25": officialSchema("2025-11-25") };
  let session: string;

  beforeAll(async () => {
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const answer = await send("POST", JSON_TYPE, JSON.stringify(initialize));
    expect(answer.status).toBe(200);
    session = answer.session!;
  });

  const inSession = (id: string) => ({ ...JSON_TYPE, "mcp-protocol-version": "2025-11-25", "mcp-session-id": id });

  // given a body and headers (of the session opened above) on one era's path, want the HTTP status (as before) and the error
  // code, with the request's id.
  it.each([
    [
      "2026-07-28",
      "a request with params by position",
      () => ({ ...MODERN, "mcp-method": "tools/list" }),
      { jsonrpc: "2.0", id: 7, method: "tools/list", params: [] },
      400,
      -32602,
    ],
    [
      "2026-07-28",
      "a request whose method is no string",
      () => MODERN,
      { jsonrpc: "2.0", id: "req-8", method: 8 },
      400,
      -32600,
    ],
    [
      "2026-07-28",
      "an unknown method",
      () => ({ ...MODERN, "mcp-method": "nope" }),
      { jsonrpc: "2.0", id: 9, method: "nope", params: { _meta: META } },
      404,
      -32601,
    ],
    [
      "2025-11-25",
      "a request with params by position",
      inSession,
      { jsonrpc: "2.0", id: 10, method: "tools/list", params: [1] },
      400,
      -32602,
    ],
    [
      "2025-11-25",
      "a request with params null",
      inSession,
      { jsonrpc: "2.0", id: "req-11", method: "tools/list", params: null },
      400,
      -32600,
    ],
    ["2025-11-25", "an unknown method", inSession, { jsonrpc: "2.0", id: 12, method: "nope" }, 200, -32601],
    [
      "2025-11-25",
      "a request without a session",
      () => ({ ...JSON_TYPE, "mcp-protocol-version": "2025-11-25" }),
      { jsonrpc: "2.0", id: 13, method: "tools/list" },
      400,
      -32600,
    ],
    [
      "2025-11-25",
      "a request to an unknown session",
      () => ({ ...JSON_TYPE, "mcp-session-id": "nope" }),
      { jsonrpc: "2.0", id: 14, method: "tools/list" },
      404,
      -32600,
    ],
    [
      "2025-11-25",
      "a request in the session under another MCP-Protocol-Version",
      (id: string) => ({ ...inSession(id), "mcp-protocol-version": "2025-06-18" }),
      { jsonrpc: "2.0", id: "req-15", method: "tools/list" },
      400,
      -32600,
    ],
  ] as const)("%s: %s", async (era, _label, headersIn, message, status, code) => {
    const headers = headersIn(session);
    const answer = await send("POST", headers, JSON.stringify(message));
    expect(answer.status).toBe(status);
    const response: unknown = JSON.parse(answer.body);
    expect(response).toEqual({ jsonrpc: "2.0", id: message.id, error: { code, message: expect.any(String) } });
    expect(judge[era]("JSONRPCErrorResponse", response)).toBeNull();
  });
});
