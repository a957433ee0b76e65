// Backpressure for one event stream's connection (runtime/server/outbox.ts): output goes to the connection while it takes
// more, is held while it does not, and a reader too far behind is dropped with the reason reported. Driven with a
// fake connection, then through the HTTP handler's fetch face, whose body stream says stop through `desiredSize`.
import { describe, expect, it } from "vitest";
import { createHttpHandler } from "../../../generated/index.js";
import * as legacy from "../../../generated/2025-11-25/index.js";
import * as modern from "../../../generated/2026-07-28/index.js";
import { createOutbox, DEFAULT_MAX_UNSENT_BYTES } from "../../../generator/runtime/server/outbox.ts";

/** A connection whose buffer takes `room` chunks before it says it is full. */
function connection(room: number) {
  const sent: string[] = [];
  const calls: string[] = [];
  const decoder = new TextDecoder();
  return {
    sent,
    calls,
    target: {
      write(bytes: Uint8Array): boolean {
        sent.push(decoder.decode(bytes));
        return sent.length < room;
      },
      end: () => calls.push("end"),
      abort: () => calls.push("abort"),
    },
    read(more: number) {
      room = sent.length + more;
    },
  };
}

describe("createOutbox", () => {
  it("writes while the connection takes more, holds the rest, and sends it in order once drained", () => {
    const peer = connection(2);
    const overflows: number[] = [];
    const box = createOutbox(peer.target, { maxUnsentBytes: 100, onOverflow: (n) => overflows.push(n) });
    for (const chunk of ["a", "b", "c", "dé"]) box.write(chunk);
    expect(peer.sent).toEqual(["a", "b"]);
    expect(box.unsent).toBe(4);
    box.end();
    expect(peer.calls).toEqual([]);
    peer.read(1);
    box.drained();
    expect(peer.sent).toEqual(["a", "b", "c"]);
    peer.read(5);
    box.drained();
    expect(peer.sent).toEqual(["a", "b", "c", "dé"]);
    expect(peer.calls).toEqual(["end"]);
    expect(overflows).toEqual([]);
  });

  it("drops a reader that falls more than maxUnsentBytes behind, once, and says how far", () => {
    const peer = connection(1);
    const overflows: number[] = [];
    const box = createOutbox(peer.target, { maxUnsentBytes: 10, onOverflow: (n) => overflows.push(n) });
    box.write("first");
    for (const chunk of ["12345", "67890", "x"]) box.write(chunk);
    expect(peer.calls).toEqual(["abort"]);
    expect(overflows).toEqual([11]);
    expect(box.unsent).toBe(0);
    box.write("later");
    box.drained();
    box.end();
    expect(peer.sent).toEqual(["first"]);
    expect(peer.calls).toEqual(["abort"]);
  });

  it("always takes one event, however large, so a big result reaches a reader that keeps up", () => {
    const peer = connection(1);
    const overflows: number[] = [];
    const box = createOutbox(peer.target, { maxUnsentBytes: 10, onOverflow: (n) => overflows.push(n) });
    box.write("progress");
    box.write("r".repeat(1000));
    expect(overflows).toEqual([]);
    peer.read(10);
    box.drained();
    expect(peer.sent).toEqual(["progress", "r".repeat(1000)]);
  });

  it("holds a backlog written while attaching without counting it, and counts what comes after", () => {
    const peer = connection(1);
    const overflows: number[] = [];
    const box = createOutbox(peer.target, { maxUnsentBytes: 10, onOverflow: (n) => overflows.push(n) });
    box.backlog(() => {
      for (const chunk of ["first", "0123456789", "0123456789", "0123456789"]) box.write(chunk);
    });
    expect(overflows).toEqual([]);
    expect(box.unsent).toBe(0);
    box.write("12345");
    box.write("678901");
    expect(overflows).toEqual([11]);
    expect(peer.calls).toEqual(["abort"]);
  });

  it("defaults to 1 MiB", () => {
    expect(DEFAULT_MAX_UNSENT_BYTES).toBe(1024 * 1024);
  });
});

describe("the fetch face's event streams (http-server.ts toResponse)", () => {
  const EVENTS = 400;
  const PAD = "x".repeat(4096);

  function server() {
    const reports: unknown[] = [];
    const seen = { aborted: 0, emitted: 0 };
    let finished!: () => void;
    const ended = new Promise<void>((resolve) => (finished = resolve));
    const stateless = modern.statelessEra({
      "tools/call": async (_params, ctx) => {
        for (let i = 0; i < EVENTS && !ctx.signal.aborted; i++) {
          ctx.progress?.({ progress: i, message: PAD });
          seen.emitted++;
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        if (ctx.signal.aborted) seen.aborted++;
        finished();
        return { content: [{ type: "text", text: "done" }] };
      },
    });
    const handler = createHttpHandler({ stateless, maxUnsentBytes: 64 * 1024, onError: (e) => reports.push(e) });
    const call = () =>
      handler.fetch(
        new Request("http://127.0.0.1/mcp", {
          method: "POST",
          headers: {
            host: "127.0.0.1",
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "tools/call",
            "mcp-name": "flood",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: {
              name: "flood",
              arguments: {},
              _meta: {
                [modern.MetaKey.protocolVersion]: "2026-07-28",
                [modern.MetaKey.clientCapabilities]: {},
                progressToken: 1,
              },
            },
          }),
        }),
      );
    return { handler, reports, seen, call, ended };
  }

  it("a body nobody reads is errored past maxUnsentBytes, the reason reported, and the handler aborted", async () => {
    const { handler, reports, seen, call, ended } = server();
    const response = await call();
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    await ended;
    expect(seen.aborted).toBe(1);
    expect(seen.emitted).toBeLessThan(EVENTS);
    expect(reports.map(String)).toEqual([
      expect.stringMatching(/fell behind: \d+ bytes unsent, over maxUnsentBytes 65536$/),
    ]);
    await expect(response.text()).rejects.toThrow();
    handler.close();
  });

  it("a reader that keeps reading gets every event and the response", async () => {
    const { handler, reports, seen, call } = server();
    const text = await (await call()).text();
    expect(seen).toEqual({ aborted: 0, emitted: EVENTS });
    expect(text.split("event: message").length - 1).toBe(EVENTS + 1);
    expect(text).toContain('"text":"done"');
    expect(reports).toEqual([]);
    handler.close();
  });

  it("a session stream resumed with Last-Event-ID replays more than maxUnsentBytes whole: the backlog is not counted", async () => {
    const EVENTS_SENT = 40;
    let finished!: () => void;
    const ended = new Promise<void>((resolve) => (finished = resolve));
    const sessions = legacy.sessionEra({
      initialize: () => ({
        protocolVersion: legacy.PROTOCOL_VERSION,
        capabilities: { tools: {} },
        serverInfo: { name: "s", version: "1" },
      }),
      "tools/call": async (_params, ctx) => {
        for (let i = 0; i < EVENTS_SENT; i++) {
          ctx.progress?.({ progress: i, message: PAD });
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        finished();
        return { content: [{ type: "text", text: "done" }] };
      },
    });
    const reports: unknown[] = [];
    const handler = createHttpHandler({ sessions, maxUnsentBytes: 64 * 1024, onError: (e) => reports.push(e) });
    const headers = {
      host: "127.0.0.1",
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const opened = await handler.fetch(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
        }),
      }),
    );
    const session = { "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
    const leaving = new AbortController();
    const call = await handler.fetch(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { ...headers, ...session },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "t", arguments: {}, _meta: { progressToken: 1 } },
        }),
        signal: leaving.signal,
      }),
    );
    const first = new TextDecoder().decode((await call.body!.getReader().read()).value);
    const lastEventId = /^id: (\S+)$/m.exec(first)![1]!;
    leaving.abort();
    await ended;

    const resumed = await handler.fetch(
      new Request("http://127.0.0.1/mcp", {
        method: "GET",
        headers: { host: "127.0.0.1", accept: "text/event-stream", ...session, "last-event-id": lastEventId },
      }),
    );
    const replay = await resumed.text();
    expect(replay.split("event: message").length - 1).toBe(EVENTS_SENT);
    expect(replay).toContain('"text":"done"');
    expect(reports).toEqual([]);
    handler.close();
  });
});
