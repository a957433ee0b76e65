// Newline-delimited JSON framing (runtime/core/ndjson.ts) and the stdio server over an in-memory readable/writable pair,
// with the generated eras. The requestState codec's tests are in request-state.test.ts.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLineSplitter, encodeLine } from "../../../generator/runtime/core/ndjson.ts";
import { serveStdio } from "../../../generated/index.js";
import * as legacy from "../../../generated/2025-11-25/index.js";
import * as modern from "../../../generated/2026-07-28/index.js";

describe("createLineSplitter", () => {
  // given the chunks pushed (then end()), want the lines and the overflow count
  const rows: { name: string; given: (string | Uint8Array)[]; max?: number; want: string[]; overflows?: number }[] = [
    { name: "one line per newline", given: ["a\nb\n"], want: ["a", "b"] },
    { name: "a line split across chunks", given: ['{"a":', "1}\n"], want: ['{"a":1}'] },
    { name: "CRLF loses its CR", given: ["a\r\nb\r\n"], want: ["a", "b"] },
    { name: "a last line without newline at end()", given: ["a\nb"], want: ["a", "b"] },
    {
      name: "a UTF-8 character split across byte chunks",
      given: [new Uint8Array([0x22, 0xc3]), new Uint8Array([0xa9, 0x22, 0x0a])],
      want: ['"é"'],
    },
    {
      name: "an overlong line is dropped whole, the next one kept",
      given: ["aaaaaa", "aaaa\nok\n"],
      max: 5,
      want: ["ok"],
      overflows: 1,
    },
    { name: "an overlong line inside one chunk", given: ["toolong\nok\n"], max: 5, want: ["ok"], overflows: 1 },
    { name: "multi-byte characters count as bytes", given: ["ééé\n"], max: 5, want: [], overflows: 1 },
  ];
  it.each(rows)("$name", ({ given, max, want, overflows = 0 }) => {
    const lines: string[] = [];
    let overflowed = 0;
    const splitter = createLineSplitter(
      (line) => lines.push(line),
      max === undefined ? { onOverflow: () => overflowed++ } : { maxLineBytes: max, onOverflow: () => overflowed++ },
    );
    for (const chunk of given) splitter.push(chunk);
    splitter.end();
    expect({ lines, overflowed }).toEqual({ lines: want, overflowed: overflows });
  });

  it("encodeLine writes one line per message, newlines inside strings escaped", () => {
    expect(encodeLine({ text: "a\nb" })).toBe('{"text":"a\\nb"}\n');
  });
});

/** Serves the given lines through stdio and returns what came out, one message a line, once the input ends. */
async function exchange(lines: string[], answer?: (message: { id: number; method: string }) => object | undefined) {
  const input = new PassThrough();
  const out: unknown[] = [];
  const logged: string[] = [];
  const splitter = createLineSplitter((line) => {
    const message = JSON.parse(line) as { id: number; method: string };
    out.push(message);
    const reply = answer?.(message);
    if (reply !== undefined) input.write(encodeLine(reply));
  });
  const sessions = legacy.sessionEra({
    initialize: () => ({
      protocolVersion: legacy.PROTOCOL_VERSION,
      capabilities: {},
      serverInfo: { name: "s", version: "1" },
    }),
    "tools/call": async ({ name }, ctx) => {
      const roots = await ctx.context.request("roots/list", {}, { signal: ctx.signal });
      return { content: [{ type: "text", text: `${name}: ${roots.roots.length} roots` }] };
    },
  });
  const stateless = modern.statelessEra({ "tools/call": ({ name }) => ({ content: [{ type: "text", text: name }] }) });
  const server = serveStdio({
    stateless,
    sessions,
    input,
    output: { write: (chunk: string) => splitter.push(chunk) },
    log: (text) => logged.push(text),
  });
  for (const line of lines) input.write(line + "\n");
  // Ends the input once every request read so far has been answered.
  setTimeout(() => input.end(), 100);
  await server.done;
  return { out, logged, pending: server.pending };
}

describe("serveStdio", () => {
  it("an initialize makes the connection a session; a handler's request to the client is answered over stdin", async () => {
    const { out, pending } = await exchange(
      [
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: { roots: {} },
            clientInfo: { name: "c", version: "1" },
          },
        }),
        JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo" } }),
      ],
      (message) =>
        message.method === "roots/list"
          ? { jsonrpc: "2.0", id: message.id, result: { roots: [{ uri: "file:///a" }] } }
          : undefined,
    );
    // Lines are handled concurrently (a cancel can overtake its request), so answers come in any order.
    expect(out).toHaveLength(3);
    expect(out).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 1, result: expect.objectContaining({ protocolVersion: "2025-11-25" }) }),
        expect.objectContaining({ method: "roots/list" }),
        { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "echo: 1 roots" }] } },
      ]),
    );
    expect(pending).toBe(0);
  });

  it("any other first request is the stateless era's; bad lines get JSON-RPC errors on stdout and nothing else goes there", async () => {
    const meta = { [modern.MetaKey.protocolVersion]: "2026-07-28", [modern.MetaKey.clientCapabilities]: {} };
    const { out, logged } = await exchange([
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", _meta: meta } }),
      "{not json",
      JSON.stringify({ jsonrpc: "2.0", id: 7, result: {} }),
      "",
    ]);
    expect(out).toHaveLength(2);
    expect(out).toEqual(
      expect.arrayContaining([
        { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "echo" }], resultType: "complete" } },
        { jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.any(String) } },
      ]),
    );
    expect(logged).toEqual([expect.stringContaining("a response nothing waits for")]);
  });

  it("stops reading input while its output is blocked, and reads on once the output drains", async () => {
    const LINES = 200;
    let pulled = 0;
    async function* input() {
      pulled++;
      yield (
        JSON.stringify({
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
        }) + "\n"
      );
      for (let id = 1; id <= LINES; id++) {
        pulled++;
        yield JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }) + "\n";
      }
    }
    // A client that does not read its answers: the pipe's buffer holds 256 bytes, a few answers.
    const output = new PassThrough({ highWaterMark: 256 });
    const sessions = legacy.sessionEra({
      initialize: () => ({
        protocolVersion: legacy.PROTOCOL_VERSION,
        capabilities: {},
        serverInfo: { name: "s", version: "1" },
      }),
    });
    // A budget a few answers wide: it counts what is written while blocked, so a client that reads is never dropped.
    const server = serveStdio({ sessions, input: input(), output, maxUnsentBytes: 1024 });
    while (output.writableLength <= 256) await new Promise<void>((resolve) => setImmediate(resolve));
    // Many turns of the event loop: an unblocked server reads every line in the first.
    for (let turn = 0; turn < 50; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(pulled).toBeLessThan(LINES / 4);

    const answers: string[] = [];
    const splitter = createLineSplitter((line) => answers.push(line));
    output.on("data", (chunk: Buffer) => splitter.push(chunk));
    await server.done;
    expect(pulled).toBe(LINES + 1);
    expect(answers).toHaveLength(LINES + 1);
  });

  it("a client that reads nothing while a handler streams is dropped past maxUnsentBytes held, and says why", async () => {
    async function* input() {
      yield (
        JSON.stringify({
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
        }) + "\n"
      );
      yield (
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "chatty", _meta: { progressToken: "p" } },
        }) + "\n"
      );
      for (let id = 2; id < 102; id++) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        pulled++;
        yield JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }) + "\n";
      }
    }
    let pulled = 0;
    const output = new PassThrough({ highWaterMark: 256 });
    const logged: string[] = [];
    const sessions = legacy.sessionEra({
      initialize: () => ({
        protocolVersion: legacy.PROTOCOL_VERSION,
        capabilities: { tools: {} },
        serverInfo: { name: "s", version: "1" },
      }),
      "tools/call": (_params, ctx) => {
        for (let progress = 1; progress <= 1000; progress++) ctx.progress?.({ progress, message: "x".repeat(100) });
        return { content: [] };
      },
    });
    const server = serveStdio({
      sessions,
      input: input(),
      output,
      maxUnsentBytes: 4096,
      log: (text) => logged.push(text),
    });
    await server.done;
    // What the output holds: at most the budget, the pipe's own buffer and the line that went over.
    expect(output.writableLength).toBeLessThan(4096 + 256 + 1024);
    expect(logged).toEqual([expect.stringContaining("maxUnsentBytes")]);
    expect(server.pending).toBe(0);
    // Nothing more is read from a dropped client.
    expect(pulled).toBeLessThan(10);
  });

  /** A session era whose `chatty` tool streams `bursts` of 20 progress events, yielding between them, asking for roots meanwhile if told. */
  function chattySessions(bursts: number, ask = false) {
    return legacy.sessionEra({
      initialize: () => ({
        protocolVersion: legacy.PROTOCOL_VERSION,
        capabilities: { tools: {} },
        serverInfo: { name: "s", version: "1" },
      }),
      "tools/call": async (_params, ctx) => {
        const asked = ask ? ctx.context.request("roots/list", {}).catch(() => undefined) : undefined;
        for (let burst = 0; burst < bursts; burst++) {
          for (let n = 1; n <= 20; n++) ctx.progress?.({ progress: burst * 20 + n, message: "x".repeat(100) });
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        await asked;
        return { content: [] };
      },
    });
  }
  const initializeLine =
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    }) + "\n";
  const chattyLine =
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "chatty", _meta: { progressToken: "p" } },
    }) + "\n";

  it("the budget counts what is written while blocked, anew each time: a client that keeps reading is never dropped", async () => {
    const output = new PassThrough({ highWaterMark: 256 });
    const lines: string[] = [];
    const splitter = createLineSplitter((line) => lines.push(line));
    // A client that reads what is there once per turn of the event loop: the output blocks during each burst.
    let finished = false;
    const reading = (async () => {
      while (!finished) {
        for (let chunk: unknown = output.read(); chunk !== null; chunk = output.read()) splitter.push(chunk as Buffer);
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    })();
    const logged: string[] = [];
    const server = serveStdio({
      sessions: chattySessions(50),
      input: [initializeLine, chattyLine],
      output,
      maxUnsentBytes: 8192,
      log: (text) => logged.push(text),
    });
    await server.done;
    await new Promise<void>((resolve) => setImmediate(resolve));
    finished = true;
    await reading;
    expect(logged).toEqual([]);
    expect(lines).toHaveLength(1 + 1000 + 1);
  });

  it("a dropped client's session fails its requests to the client at once, while the input stays open", async () => {
    const input = new PassThrough();
    const output = new PassThrough({ highWaterMark: 256 });
    const logged: string[] = [];
    const server = serveStdio({
      sessions: chattySessions(5, true),
      input,
      output,
      maxUnsentBytes: 1024,
      log: (text) => logged.push(text),
    });
    input.write(initializeLine + chattyLine);
    while (server.pending > 0 || logged.length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(logged).toEqual([expect.stringContaining("maxUnsentBytes")]);
    input.end();
    await server.done;
  });
});
