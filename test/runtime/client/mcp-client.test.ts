// The one-call client (runtime/client/mcp-client.ts `connectClientWith`, generated as `connectClient`) from outside:
// against the official SDK v2 server and the example server in both eras, and against a server played by hand
// where what is sent must be seen (a bad argument refused before anything goes out, a bad structuredContent).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, httpTransport, ToolValidationError } from "../../../generated/index.ts";
import { startServer, type ExampleServer } from "../../../examples/server.ts";
import { DISCOVERED } from "../../support/discovered.ts";
import { CLIENT_INFO, fakeFetch, json, RELEASES, result, sse, URL_ } from "../../support/fake-fetch.ts";
import { serveFetch } from "../../support/serve-fetch.ts";
import type { RunningServer } from "../../support/sdk-servers.ts";

const WEATHER_INPUT = {
  type: "object",
  properties: { city: { type: "string" }, days: { type: "integer" } },
  required: ["city"],
} as const;
const WEATHER_OUTPUT = {
  type: "object",
  properties: { tempC: { type: "number" } },
  required: ["tempC"],
} as const;

/** SDK v2's `createMcpHandler` (2026-07-28, and stateless 2025 as its fallback) with a tool that reports progress. */
function startSdkV2(): Promise<RunningServer> {
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "sdk-v2", version: "2.0.0" });
    server.registerTool(
      "weather",
      {
        description: "The temperature in a city",
        inputSchema: fromJsonSchema<{ city: string; days?: number }>(WEATHER_INPUT),
        outputSchema: fromJsonSchema<{ tempC: number }>(WEATHER_OUTPUT),
      },
      async ({ city }, ctx) => {
        const token = ctx.mcpReq._meta?.progressToken;
        if (token !== undefined)
          for (const progress of [1, 2])
            await ctx.mcpReq.notify({
              method: "notifications/progress",
              params: { progressToken: token, progress, total: 2, message: city },
            });
        return { content: [{ type: "text", text: "21" }], structuredContent: { tempC: 21 } };
      },
    );
    server.registerPrompt("greet", { description: "Greets" }, () => ({
      messages: [{ role: "user", content: { type: "text", text: "hello" } }],
    }));
    return server;
  });
  const http = createServer((req, res) => void serveFetch(handler.fetch, req, res));
  return new Promise((resolve) => {
    http.listen(0, "127.0.0.1", () => {
      const { port } = http.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/mcp`,
        close: () =>
          new Promise((done) => {
            http.close(() => done());
            http.closeAllConnections();
          }),
      });
    });
  });
}

const ERAS = [
  ["2026-07-28", {}],
  ["2025-11-25", { protocolVersion: "2025-11-25" }],
] as const;

describe("connectClient against the official SDK v2 server", () => {
  let sdk: RunningServer;
  beforeAll(async () => {
    sdk = await startSdkV2();
  });
  afterAll(async () => {
    await sdk.close();
  });

  it.each(ERAS)("%s: lists, calls with progress delivered to the call, gets a prompt", async (version, era) => {
    const client = await connectClient(httpTransport(sdk.url), {
      releases: RELEASES(),
      clientInfo: CLIENT_INFO,
      ...era,
    });
    try {
      expect(client.version).toBe(version);
      expect((await client.listTools()).map((tool) => tool.name)).toEqual(["weather"]);
      const progress: unknown[] = [];
      const called = await client.callTool("weather", { city: "Oslo" }, { onProgress: (p) => progress.push(p) });
      expect(called).toMatchObject({ structuredContent: { tempC: 21 } });
      expect(progress).toEqual([
        expect.objectContaining({ progress: 1, total: 2, message: "Oslo" }),
        expect.objectContaining({ progress: 2, total: 2, message: "Oslo" }),
      ]);
      const prompt = await client.getPrompt("greet");
      expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "hello" } }]);
    } finally {
      await client.close();
    }
  });

  it.each(ERAS)(
    "%s: a bad argument is refused with its pointer, and the server never sees it",
    async (_version, era) => {
      const client = await connectClient(httpTransport(sdk.url), {
        releases: RELEASES(),
        clientInfo: CLIENT_INFO,
        ...era,
      });
      try {
        const refused = await client.callTool("weather", { city: 42 }).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(ToolValidationError);
        expect(refused).toMatchObject({ tool: "weather", phase: "arguments", issues: [{ pointer: "/city" }] });
        // Turned off, the same call reaches the server, whose own check answers.
        const answered = await client
          .callTool("weather", { city: 42 }, { validate: false })
          .catch((error: unknown) => error);
        expect(answered).not.toBeInstanceOf(ToolValidationError);
      } finally {
        await client.close();
      }
    },
  );
});

describe("connectClient against the example server", () => {
  let server: ExampleServer;
  beforeAll(async () => {
    server = await startServer({ onError: () => undefined });
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(ERAS)(
    "%s: every page of each listing, a resource, a completion, progress to the right call only",
    async (version, era) => {
      const client = await connectClient(httpTransport(server.url), {
        releases: RELEASES(),
        clientInfo: CLIENT_INFO,
        ...era,
      });
      try {
        expect(client.version).toBe(version);
        const tools = await client.listTools();
        expect(tools.map((tool) => tool.name)).toContain("test_tool_with_progress");
        const iterated: string[] = [];
        for await (const tool of client.listTools()) iterated.push(tool.name);
        expect(iterated).toEqual(tools.map((tool) => tool.name));
        expect((await client.listPrompts()).map((prompt) => prompt.name)).toContain("test_simple_prompt");
        const [resource] = await client.listResources();
        expect((await client.readResource(resource!.uri)).contents.length).toBeGreaterThan(0);
        expect(await client.listResourceTemplates()).not.toEqual([]);
        const completion = await client.complete({
          ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
          argument: { name: "arg1", value: "" },
        });
        expect(Array.isArray(completion.completion.values)).toBe(true);
        // Three calls at once, two listening: each hears its own call's progress, none the others'.
        const heard: [number[], number[]] = [[], []];
        const [first] = await Promise.all([
          client.callTool("test_tool_with_progress", {}, { onProgress: (p) => heard[0].push(p.progress) }),
          client.callTool("test_tool_with_progress", {}, { onProgress: (p) => heard[1].push(p.progress) }),
          client.callTool("test_tool_with_progress", {}),
        ]);
        expect(first.isError).not.toBe(true);
        expect(heard).toEqual([
          [0, 50, 100],
          [0, 50, 100],
        ]);
      } finally {
        await client.close();
      }
    },
  );
});

describe("connectClient against a server played by hand", () => {
  const TOOLS = [
    { name: "weather", inputSchema: WEATHER_INPUT, outputSchema: WEATHER_OUTPUT },
    { name: "loose", inputSchema: { type: "object" } },
  ];
  function server(callResult: object, pages?: object[]) {
    return fakeFetch(({ body }) => {
      if (body?.method === "server/discover") return json(result(body.id, DISCOVERED));
      if (body?.method === "tools/list") {
        const cursor = body.params?.["cursor"];
        const page = pages?.[typeof cursor === "string" ? Number(cursor) : 0];
        return json(result(body.id, { resultType: "complete", ...(page ?? { tools: TOOLS }) }));
      }
      return json(result(body?.id, { resultType: "complete", ...callResult }));
    });
  }
  const open = (fetch: ReturnType<typeof fakeFetch>["fetch"], validate?: boolean) =>
    connectClient(httpTransport(URL_, { fetch }), {
      releases: RELEASES(),
      clientInfo: CLIENT_INFO,
      ...(validate === undefined ? {} : { validate }),
    });

  it("a bad argument is refused before anything is sent: the listing goes out, no tools/call", async () => {
    const peer = server({ content: [] });
    const client = await open(peer.fetch);
    const refused = await client.callTool("weather", { days: 2 }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: "ToolValidationError", phase: "arguments" });
    expect(peer.seen.map((s) => s.body?.method)).toEqual(["server/discover", "tools/list"]);
    await client.close();
  });

  it("a server's structuredContent that does not fit the outputSchema is reported with the result", async () => {
    const bad = { content: [], structuredContent: { tempC: "hot" } };
    const client = await open(server(bad).fetch);
    const reported = await client.callTool("weather", { city: "Oslo" }).catch((error: unknown) => error);
    expect(reported).toBeInstanceOf(ToolValidationError);
    expect(reported).toMatchObject({
      phase: "result",
      issues: [{ pointer: "/structuredContent/tempC" }],
      result: { structuredContent: { tempC: "hot" } },
    });
    await client.close();
  });

  it("an error result is returned as it came, whatever its structuredContent; validate: false checks nothing", async () => {
    const failed = { content: [{ type: "text", text: "no" }], isError: true };
    expect(await (await open(server(failed).fetch)).callTool("weather", { city: "x" })).toMatchObject(failed);
    const peer = server({ content: [], structuredContent: { tempC: "hot" } });
    const client = await open(peer.fetch, false);
    expect(await client.callTool("weather", { days: "x" })).toMatchObject({ structuredContent: { tempC: "hot" } });
    expect(peer.seen.map((s) => s.body?.method)).toEqual(["server/discover", "tools/call"]);
  });

  it("a name the snapshot lacks is refused before anything is sent; a schema the compiler refuses is left to the server", async () => {
    const peer = fakeFetch(({ body }) => {
      if (body?.method === "server/discover") return json(result(body.id, DISCOVERED));
      if (body?.method === "tools/list")
        return json(
          result(body.id, {
            resultType: "complete",
            tools: [{ name: "remote", inputSchema: { $ref: "https://example.com/schema.json" } }],
          }),
        );
      return json(result(body?.id, { resultType: "complete", content: [] }));
    });
    const client = await connectClient(httpTransport(URL_, { fetch: peer.fetch }), {
      releases: RELEASES(),
      clientInfo: CLIENT_INFO,
      tools: { names: ["remote"] },
    });
    await expect(client.callTool("other" as "remote", {})).rejects.toThrow(RangeError);
    expect(peer.seen.map((s) => s.body?.method)).toEqual(["server/discover"]);
    expect(await client.callTool("remote", { anything: 1 })).toMatchObject({ content: [] });
    expect(peer.seen.map((s) => s.body?.method)).toEqual(["server/discover", "tools/list", "tools/call"]);
    await client.close();
  });

  it("pages: every page by cursor, awaited or iterated; a cursor handed twice fails instead of looping", async () => {
    const pages = [{ tools: [TOOLS[0]], nextCursor: "1" }, { tools: [TOOLS[1]], nextCursor: "2" }, { tools: [] }];
    const peer = server({}, pages);
    const client = await open(peer.fetch);
    expect((await client.listTools()).map((t) => t.name)).toEqual(["weather", "loose"]);
    const cursors = peer.seen.filter((s) => s.body?.method === "tools/list").map((s) => s.body?.params?.["cursor"]);
    expect(cursors).toEqual([undefined, "1", "2"]);
    const looping = await open(
      server({}, [
        { tools: [], nextCursor: "1" },
        { tools: [], nextCursor: "1" },
      ]).fetch,
    );
    await expect(looping.listTools()).rejects.toThrow(/cursor "1" twice/);
  });

  it("progress for a call's token goes to its callback until the call settles, and only then", async () => {
    const progress = (token: unknown, value: number) =>
      `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: value } })}\n\n`;
    const peer = fakeFetch(({ body }) => {
      if (body?.method === "server/discover") return json(result(body.id, DISCOVERED));
      const meta = body?.params?.["_meta"] as { progressToken?: string } | undefined;
      const token = meta?.progressToken;
      return sse(
        progress("someone-else", 7) +
          (token === undefined ? "" : progress(token, 1)) +
          `event: message\ndata: ${JSON.stringify(result(body?.id, { resultType: "complete", tools: [] }))}\n\n` +
          (token === undefined ? "" : progress(token, 2)),
      );
    });
    const client = await open(peer.fetch);
    const heard: number[] = [];
    await client.listTools({ onProgress: (p) => heard.push(p.progress) });
    expect(heard).toEqual([1]);
    const token = (peer.seen[1]?.body?.params?.["_meta"] as { progressToken?: unknown }).progressToken;
    expect(typeof token).toBe("string");
  });
});
