// The node:http adapter (runtime/server/node-http.ts) over real sockets on 127.0.0.1: backpressure end to end. A client
// that never reads its event stream while a tool emits events must not grow the server without bound: the adapter
// waits for `drain`, each stream may hold `maxUnsentBytes` of unsent output, and a reader that falls further
// behind is closed with a reason reported through `onError`, while other clients keep being served.
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import {
  createHttpHandler,
  toNodeListener,
  type HttpHandler,
  type NodeRequestLike,
  type NodeResponseLike,
} from "../../../generated/index.js";
import * as legacy from "../../../generated/2025-11-25/index.js";
import * as modern from "../../../generated/2026-07-28/index.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/**
 * 100 stalled streams, each offered up to 6 MiB of events: loopback sockets absorb about 3.7 MiB each in the
 * kernel, so the rest is what the server would hold.
 */
const STREAMS = 100;
const EVENTS = 768;
const PAD = "x".repeat(8 * 1024);
const BUDGET = 256 * 1024;
/**
 * The stated bound (README, "Backpressure"): with 100 streams that never read, the server's memory (heap and
 * buffers) grows by less than 48 MiB: at most STREAMS × (maxUnsentBytes + one event + node's 16 KiB socket
 * buffer) ≈ 27 MiB here, and the dropped streams free theirs. Without backpressure the same run held 245 MiB.
 */
const MEMORY_BOUND = 48 * 1024 * 1024;

const MODERN_META = {
  [modern.MetaKey.protocolVersion]: "2026-07-28",
  [modern.MetaKey.clientCapabilities]: {},
};

interface Flood {
  started: number;
  finished: number;
  onFinished?: () => void;
}

async function flood(
  flooding: Flood,
  signal: AbortSignal,
  progress: ((p: { progress: number; message: string }) => void) | undefined,
) {
  flooding.started++;
  for (let i = 0; i < EVENTS && !signal.aborted; i++) {
    progress?.({ progress: i, message: PAD });
    // Yields to I/O now and then, as a tool awaiting anything would: sockets drain and close meanwhile.
    if (i % 8 === 7) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  flooding.finished++;
  if (flooding.finished === STREAMS) flooding.onFinished?.();
}

function handlerFor(flooding: Flood, reports: unknown[]): HttpHandler {
  const stateless = modern.statelessEra({
    "tools/call": async (params, ctx) => {
      if (params.name === "flood") await flood(flooding, ctx.signal, ctx.progress);
      return { content: [{ type: "text", text: `done ${params.name}` }] };
    },
  });
  const sessions = legacy.sessionEra({
    initialize: () => ({
      protocolVersion: legacy.PROTOCOL_VERSION,
      capabilities: { tools: {} },
      serverInfo: { name: "s", version: "1" },
    }),
    "tools/call": async (params, ctx) => {
      if (params.name === "flood") await flood(flooding, ctx.signal, ctx.progress);
      return { content: [{ type: "text", text: `done ${params.name}` }] };
    },
  });
  return createHttpHandler({
    stateless,
    sessions,
    maxUnsentBytes: BUDGET,
    // A stalled session stream is not kept for resumption here: the replay buffer is the event store's to bound.
    resumeWindowMs: 0,
    replayBytes: 16_384,
    onError: (error) => reports.push(error),
  });
}

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.reverse()) step();
  cleanup = [];
});

async function listen(handler: HttpHandler): Promise<number> {
  const server: Server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(() => {
    server.closeAllConnections();
    server.close();
    handler.close();
  });
  return (server.address() as AddressInfo).port;
}

/** A client that sends one POST and never reads a byte of the answer. */
function stalled(port: number, body: object, headers: Record<string, string>): Socket {
  const text = JSON.stringify(body);
  const socket = connect(port, "127.0.0.1");
  socket.pause();
  socket.on("error", () => undefined);
  const lines = [
    "POST /mcp HTTP/1.1",
    `Host: 127.0.0.1:${port}`,
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
    `Content-Length: ${Buffer.byteLength(text)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.write(`${lines.join("\r\n")}\r\n\r\n${text}`);
  cleanup.push(() => socket.destroy());
  return socket;
}

async function post(port: number, body: object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

/** The process's memory that buffered output can take: the V8 heap and the buffers outside it, after GC. */
function heldMemory(): number {
  gc();
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

const modernCall = (id: number, name: string) => ({
  body: {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: {}, _meta: { ...MODERN_META, progressToken: id } },
  },
  headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name },
});

async function openSession(port: number): Promise<Record<string, string>> {
  const opened = await post(port, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
  });
  await opened.text();
  return { "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
}

describe("slow readers (100 streams that never read)", () => {
  it.each(["stateless", "sessions"] as const)(
    "%s: the server's memory stays under the stated bound, each stalled stream is closed with a reason, others are served",
    async (era) => {
      const flooding: Flood = { started: 0, finished: 0 };
      const reports: unknown[] = [];
      const port = await listen(handlerFor(flooding, reports));
      const session = era === "sessions" ? await openSession(port) : {};
      const call = (id: number, name: string) =>
        era === "stateless"
          ? modernCall(id, name)
          : {
              body: {
                jsonrpc: "2.0",
                id,
                method: "tools/call",
                params: { name, arguments: {}, _meta: { progressToken: id } },
              },
              headers: session,
            };
      const before = heldMemory();
      const allFinished = new Promise<void>((resolve) => (flooding.onFinished = resolve));
      for (let i = 1; i <= STREAMS; i++) {
        const { body, headers } = call(i, "flood");
        stalled(port, body, headers);
      }
      // Another client is served while the floods run, and after.
      const during = call(1000, "hello");
      const answer = await post(port, during.body, during.headers);
      expect(await answer.text()).toContain("done hello");
      await allFinished;
      const grown = heldMemory() - before;
      const after = call(1001, "hello");
      expect(await (await post(port, after.body, after.headers)).text()).toContain("done hello");

      expect(flooding.started).toBe(STREAMS);
      expect(grown).toBeLessThan(MEMORY_BOUND);
      const closed = reports.filter((error) => String(error).includes("fell behind"));
      expect(closed.length).toBe(STREAMS);
      expect(String(closed[0])).toMatch(/unsent.*maxUnsentBytes 262144/);
    },
    // A bound on a stuck run, not a timing assertion: a run takes a few seconds.
    60_000,
  );
});

describe("toNodeListener's event streams", () => {
  it("sends a stream's head before its first event: a quiet GET stream is open for its client", async () => {
    const port = await listen(handlerFor({ started: 0, finished: 0 }, []));
    const session = await openSession(port);
    const stream = await fetch(`http://127.0.0.1:${port}/mcp`, {
      headers: { accept: "text/event-stream", ...session },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    await stream.body?.cancel();
  });

  /** A response whose socket buffer takes `room` writes before `write` returns false, as node's does past its high-water mark. */
  function response(room: number) {
    const listeners = new Map<string, (() => void)[]>();
    const written: string[] = [];
    const calls: string[] = [];
    const fake: NodeResponseLike = {
      writableEnded: false,
      writeHead: () => calls.push("head"),
      write: (chunk) => {
        written.push(new TextDecoder().decode(chunk));
        return written.length < room;
      },
      end: () => calls.push("end"),
      destroy: () => calls.push("destroy"),
      on: (event, listener) => listeners.set(event, [...(listeners.get(event) ?? []), listener]),
    };
    const emit = (event: string) => {
      for (const listener of listeners.get(event) ?? []) listener();
    };
    return { fake, written, calls, emit, read: (more: number) => (room = written.length + more) };
  }

  function request(): NodeRequestLike {
    const { body } = modernCall(1, "three");
    const text = JSON.stringify(body);
    const on = (event: string, listener: (chunk?: string) => void) => {
      if (event === "data") queueMicrotask(() => listener(text));
      if (event === "end") queueMicrotask(() => queueMicrotask(() => listener()));
      return undefined;
    };
    return {
      method: "POST",
      url: "/mcp",
      headers: {
        host: "127.0.0.1",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...modernCall(1, "three").headers,
      },
      on: on as NodeRequestLike["on"],
      destroy: () => undefined,
    };
  }

  function serving(maxUnsentBytes: number, burst = false) {
    const reports: unknown[] = [];
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const stateless = modern.statelessEra({
      "tools/call": async (_params, ctx) => {
        // Each event after a turn of the loop, so that the stream is attached by then: live output. In a
        // burst, all three are queued before the adapter attaches: the stream's backlog.
        for (const progress of [1, 2, 3]) {
          if (!burst) await new Promise<void>((resolve) => setImmediate(resolve));
          ctx.progress?.({ progress, message: "p".repeat(100) });
        }
        done();
        return { content: [{ type: "text", text: "three" }] };
      },
    });
    const handler = createHttpHandler({ stateless, maxUnsentBytes, onError: (error) => reports.push(error) });
    cleanup.push(() => handler.close());
    return { listener: toNodeListener(handler), reports, finished };
  }

  it("a client that leaves while its JSON answer's handler runs aborts that handler's signal; one that stays is answered", async () => {
    const heard: string[] = [];
    const stateless = modern.statelessEra({
      "tools/call": (params, ctx) =>
        new Promise((resolve) => {
          if (params.name === "quick") resolve({ content: [{ type: "text", text: "quick" }] });
          ctx.signal.addEventListener("abort", () => heard.push(params.name));
        }),
    });
    const handler = createHttpHandler({ stateless });
    cleanup.push(() => handler.close());
    const listener = toNodeListener(handler);
    const jsonOnly = (name: string): NodeRequestLike => {
      const call = modernCall(1, name);
      const text = JSON.stringify(call.body);
      return {
        ...request(),
        headers: { host: "127.0.0.1", "content-type": "application/json", accept: "application/json", ...call.headers },
        on: ((event: string, on: (chunk?: string) => void) => {
          if (event === "data") queueMicrotask(() => on(text));
          if (event === "end") queueMicrotask(() => queueMicrotask(() => on()));
          return undefined;
        }) as NodeRequestLike["on"],
      };
    };
    const leaving = response(10);
    listener(jsonOnly("slow"), leaving.fake);
    const staying = response(10);
    listener(jsonOnly("quick"), staying.fake);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect([heard, handler.pending]).toEqual([[], 1]);
    leaving.emit("close");
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect([heard, handler.pending]).toEqual([["slow"], 0]);
    expect(staying.calls).toEqual(["head", "end"]);
  });

  it("writes until write() returns false, then waits for drain", async () => {
    const { listener, reports, finished } = serving(1024 * 1024);
    const socket = response(1);
    listener(request(), socket.fake);
    await finished;
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(socket.written).toHaveLength(1);
    expect(socket.calls).toEqual(["head"]);
    socket.read(2);
    socket.emit("drain");
    expect(socket.written).toHaveLength(3);
    socket.read(10);
    socket.emit("drain");
    expect(socket.written).toHaveLength(4);
    expect(socket.written[3]).toContain('"text":"three"');
    expect(socket.calls).toEqual(["head", "end"]);
    expect(reports).toEqual([]);
  });

  it("destroys the connection of a reader past maxUnsentBytes and tells onError", async () => {
    const { listener, reports, finished } = serving(300);
    const socket = response(1);
    listener(request(), socket.fake);
    await finished;
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(socket.calls).toEqual(["head", "destroy"]);
    expect(reports.map(String)).toEqual([
      expect.stringMatching(/fell behind: \d+ bytes unsent, over maxUnsentBytes 300$/),
    ]);
  });

  it("holds the backlog it attaches to without counting it against maxUnsentBytes", async () => {
    const { listener, reports, finished } = serving(300, true);
    const socket = response(1);
    listener(request(), socket.fake);
    await finished;
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(socket.calls).toEqual(["head"]);
    socket.read(10);
    socket.emit("drain");
    expect(socket.written).toHaveLength(4);
    expect(socket.calls).toEqual(["head", "end"]);
    expect(reports).toEqual([]);
  });
});
