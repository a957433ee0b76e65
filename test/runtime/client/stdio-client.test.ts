// The stdio client transport (runtime/client/stdio-client.ts) through `connect`: over a readable/writable pair
// played by a generated server dispatcher, and through a spawn function as the README shows it. What is
// checked: newline-delimited JSON-RPC both ways, a reply over maxLineBytes failing its call (or every
// pending call when its id cannot be read), and a server that cannot start or exits failing `connect`.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { connect, stdioTransport, v2025_11_25 } from "../../../generated/index.ts";
import { CLIENT_INFO, INITIALIZED, RELEASES } from "../../support/fake-fetch.ts";

/** A readable the test writes lines into, and a writable handing each line to `onLine`. */
function pipePair(onLine: (line: string, deliver: (text: string) => void) => void) {
  const written: string[] = [];
  let deliver: (text: string) => void = () => undefined;
  let finish: () => void = () => undefined;
  async function* readable(): AsyncGenerator<string> {
    const queue: string[] = [];
    let wake: (() => void) | undefined;
    let done = false;
    deliver = (text) => (queue.push(text), wake?.());
    finish = () => ((done = true), wake?.());
    for (;;) {
      if (queue.length > 0) yield queue.shift()!;
      else if (done) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  }
  const writable = {
    write(chunk: string) {
      written.push(chunk);
      for (const line of chunk.split("\n").filter(Boolean)) onLine(line, (text) => deliver(text));
    },
    end: () => finish(),
  };
  return { readable: readable(), writable, written };
}

/** A 2025-11-25 server dispatcher whose tools/call answers with `text` as its content. */
function serverWith(text: () => string) {
  return v2025_11_25.createServerDispatcher({
    initialize: (params) => INITIALIZED(params.protocolVersion) as v2025_11_25.InitializeResult,
    "tools/call": () => ({ content: [{ type: "text" as const, text: text() }] }),
  });
}

describe("a reply over maxLineBytes", () => {
  it("fails the call it answers, naming the limit; the session goes on", async () => {
    let size = 2000;
    const server = serverWith(() => "x".repeat(size));
    const pair = pipePair(
      (line, deliver) =>
        void server.handle(line).then((response) => response && deliver(`${JSON.stringify(response)}\n`)),
    );
    const session = await connect(stdioTransport({ ...pair, maxLineBytes: 1024 }), {
      releases: [v2025_11_25.clientRelease()],
      clientInfo: CLIENT_INFO,
    });
    if (session.version !== "2025-11-25") throw new Error("unexpected version");
    const call = () => session.request("tools/call", { name: "t", arguments: {} });
    await expect(call()).rejects.toThrow(/^the server's reply to request \d+ exceeds 1024 bytes \(maxLineBytes\)$/);
    size = 10;
    await expect(call()).resolves.toMatchObject({ content: [{ text: "xxxxxxxxxx" }] });
    await session.close();
  });

  it("whose id cannot be read in its first bytes fails every pending call", async () => {
    const server = serverWith(() => "x");
    let calls = 0;
    const pair = pipePair(
      (line, deliver) =>
        void server.handle(line).then((response) => {
          if (response === undefined) return;
          if (JSON.parse(line).method !== "tools/call") return deliver(`${JSON.stringify(response)}\n`);
          // The first call's reply has its id after a long result, the second's never comes.
          if (++calls > 1) return;
          const { id, ...rest } = response as { id: unknown };
          deliver(`${JSON.stringify({ ...rest, padding: "p".repeat(2000), id })}\n`);
        }),
    );
    const session = await connect(stdioTransport({ ...pair, maxLineBytes: 1024 }), {
      releases: [v2025_11_25.clientRelease()],
      clientInfo: CLIENT_INFO,
    });
    if (session.version !== "2025-11-25") throw new Error("unexpected version");
    const call = () => session.request("tools/call", { name: "t", arguments: {} }).catch((error: unknown) => error);
    const failures = await Promise.all([call(), call()]);
    expect(failures.map(String)).toEqual(
      Array(2).fill(
        "Error: a line from the server exceeds 1024 bytes (maxLineBytes); which call it answers is unknown",
      ),
    );
    await session.close();
  });

  it("a request of the server's over the limit fails none of our calls (its id is the server's)", async () => {
    let ask = false;
    const server = serverWith(() => "done");
    const pair = pipePair(
      (line, deliver) =>
        void server.handle(line).then((response) => {
          if (response === undefined) return;
          if (ask && JSON.parse(line).method === "tools/call") {
            const id = (response as { id: number }).id;
            deliver(
              `${JSON.stringify({ jsonrpc: "2.0", id, method: "sampling/createMessage", params: { pad: "p".repeat(2000) } })}\n`,
            );
          }
          deliver(`${JSON.stringify(response)}\n`);
        }),
    );
    const stderr: string[] = [];
    const session = await connect(
      stdioTransport({ ...pair, maxLineBytes: 1024, onStderr: (line) => stderr.push(line) }),
      { releases: [v2025_11_25.clientRelease()], clientInfo: CLIENT_INFO },
    );
    if (session.version !== "2025-11-25") throw new Error("unexpected version");
    ask = true;
    await expect(session.request("tools/call", { name: "t", arguments: {} })).resolves.toMatchObject({
      content: [{ text: "done" }],
    });
    expect(stderr).toEqual(["stdio: dropped a message from the server that exceeds 1024 bytes (maxLineBytes)"]);
    await session.close();
  });
});

describe("a server that cannot start", () => {
  it("a command that does not exist: connect rejects naming it and why (no crash from an unheard spawn error)", async () => {
    // The README's snippet, with a command that is not there.
    const failure = await connect(
      stdioTransport({
        spawn: () => spawn("no-such-mcp-server-command", ["server.js"], { stdio: ["pipe", "pipe", "pipe"] }),
      }),
      { releases: RELEASES(), clientInfo: CLIENT_INFO },
    ).catch((error: unknown) => error as Error);
    expect(failure).toMatchObject({
      name: "ConnectionError",
      message: "the server's command could not start: spawn no-such-mcp-server-command ENOENT",
    });
  });
});

describe("a server that exits", () => {
  it("a server that exits at once fails connect with the reason, not a crash (EPIPE) or the timeout", async () => {
    const transport = stdioTransport({
      spawn: () => spawn(process.execPath, ["-e", "process.exit(3)"], { stdio: ["pipe", "pipe", "pipe"] }),
    });
    await expect(
      connect(transport, { releases: RELEASES(), clientInfo: CLIENT_INFO, timeoutMs: 60_000 }),
    ).rejects.toThrow("the server closed its stdout");
  });
});

describe("stdio over a readable/writable pair", () => {
  it("newline-delimited JSON-RPC to a session-era server (its dispatcher), server requests answered by ours", async () => {
    const written: string[] = [];
    let deliver: (line: string) => void = () => undefined;
    let finish: () => void = () => undefined;
    async function* readable(): AsyncGenerator<string> {
      const queue: string[] = [];
      let wake: (() => void) | undefined;
      let done = false;
      deliver = (line) => (queue.push(line), wake?.());
      finish = () => ((done = true), wake?.());
      for (;;) {
        if (queue.length > 0) yield queue.shift()!;
        else if (done) return;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    }
    const server = v2025_11_25.createServerDispatcher({
      initialize: (params) => INITIALIZED(params.protocolVersion) as v2025_11_25.InitializeResult,
      "tools/list": () => ({ tools: [{ name: "t", inputSchema: { type: "object" as const } }] }),
    });
    const writable = {
      write(chunk: string) {
        written.push(chunk);
        for (const line of chunk.split("\n").filter(Boolean))
          void server.handle(line).then((response) => {
            // Split a reply across two writes, as a pipe may.
            if (response === undefined) return;
            const text = `${JSON.stringify(response)}\n`;
            deliver(text.slice(0, 5));
            deliver(text.slice(5));
          });
      },
      end: () => finish(),
    };
    const session = await connect(stdioTransport({ readable: readable(), writable }), {
      releases: RELEASES(),
      clientInfo: CLIENT_INFO,
    });
    expect(session.version).toBe("2025-11-25");
    if (session.version !== "2025-11-25") return;
    expect((await session.request("tools/list", {})).tools.map((t) => t.name)).toEqual(["t"]);
    await session.close();
    expect(written.every((chunk) => chunk.endsWith("\n") && chunk.indexOf("\n") === chunk.length - 1)).toBe(true);
    expect(written.map((chunk) => JSON.parse(chunk).method)).toEqual([
      "server/discover",
      "initialize",
      "notifications/initialized",
      "tools/list",
    ]);
  });
});
