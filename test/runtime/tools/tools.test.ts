import { describe, expect, it } from "vitest";
import { HTTP } from "../../../generated/2026-07-28/http.js";
import { buildDefinitionTable, encodeTable } from "../../../generator/emit/validate-table.ts";
import type { RequestContext } from "../../../generator/runtime/core/dispatcher.ts";
import { toolHeaderParams } from "../../../generator/runtime/core/http-headers.ts";
import { RpcError } from "../../../generator/runtime/core/rpc-error.ts";
import {
  callTool,
  publishedSchema,
  toolDeclaration,
  toolServer,
  ToolResultError,
  type ToolCallOptions,
  type ToolsSpec,
} from "../../../generator/runtime/tools/tools.ts";
import { decodeTable } from "../../../generator/runtime/validation/validator.ts";
import { toolSet } from "../../../generator/tools/tool-set.ts";

/** One server's tools as its generated `servers/<name>.ts` holds them: built from a snapshot the way `generate` builds them. */
const snapshot = {
  server: "demo",
  release: "2026-07-28",
  sha256: "",
  tools: [
    {
      name: "echo",
      inputSchema: { type: "object", properties: { text: { type: "string" } } },
    },
    {
      name: "weather",
      inputSchema: {
        type: "object",
        properties: {
          city: { type: "string", "x-mcp-header": "City" },
          days: { type: "integer", minimum: 1 },
        },
        required: ["city"],
      },
      outputSchema: { type: "object", properties: { temp: { type: "number" } }, required: ["temp"] },
    },
  ],
};
const set = toolSet("mcp-tools/demo.json", snapshot);
const tables = decodeTable(encodeTable(buildDefinitionTable(set.schema, "demo")));
const headersOf = (name: string) => {
  const found = toolHeaderParams(HTTP, set.tools.find((t) => t.name === name)!.listed);
  if (!found.ok) throw new Error(found.reason);
  return found.params;
};
const SPEC: ToolsSpec = {
  server: "demo",
  tables: () => tables,
  tools: Object.fromEntries(
    set.tools.map((t) => [t.name, { arguments: t.arguments, structured: t.structured, headers: headersOf(t.name) }]),
  ),
  http: HTTP,
};

/** A session that records each request and answers with `reply`. */
function session(reply: unknown) {
  const sent: { method: string; params: unknown; options: ToolCallOptions | undefined }[] = [];
  return {
    sent,
    async request(method: "tools/call", params: unknown, options?: ToolCallOptions) {
      sent.push({ method, params, options });
      return reply;
    },
  };
}

describe("callTool", () => {
  it("sends tools/call with the arguments and each annotated argument as its Mcp-Param header, beside the caller's", async () => {
    const peer = session({ content: [], structuredContent: { temp: 21.5 } });
    const result = await callTool(SPEC, peer, "weather", { city: "Zürich", days: 2 }, { headers: { "X-Trace": "t" } });
    expect(result).toEqual({ content: [], structuredContent: { temp: 21.5 } });
    expect(peer.sent).toEqual([
      {
        method: "tools/call",
        params: { name: "weather", arguments: { city: "Zürich", days: 2 } },
        options: { headers: { "X-Trace": "t", "Mcp-Param-City": "=?base64?WsO8cmljaA==?=" } },
      },
    ]);
  });

  it("adds no header where the tool has no annotation or the release sends none, and keeps the caller's options", async () => {
    const signal = new AbortController().signal;
    const peer = session({ content: [], structuredContent: { temp: 1 } });
    await callTool(SPEC, peer, "echo", { text: "hi" }, { signal, timeoutMs: 5 });
    await callTool({ ...SPEC, http: null }, peer, "weather", { city: "Oslo" }, { timeoutMs: 7 });
    expect(peer.sent.map((s) => s.options)).toEqual([{ signal, timeoutMs: 5 }, { timeoutMs: 7 }]);
  });

  it.each(["nope", "toString", "__proto__"])(
    "a tool the server does not have (%s) is a RangeError, and nothing is sent",
    async (name) => {
      const peer = session({ content: [] });
      await expect(callTool(SPEC, peer, name, {})).rejects.toThrow(RangeError);
      expect(peer.sent).toEqual([]);
    },
  );

  it("an error reply comes back as it came, without checking its structuredContent", async () => {
    const reply = { isError: true, content: [{ type: "text", text: "down" }], structuredContent: { temp: "cold" } };
    await expect(callTool(SPEC, session(reply), "weather", { city: "Oslo" })).resolves.toBe(reply);
  });

  it.each([
    { name: "a result that is no object", reply: 5, pointer: "", message: "the result is not an object" },
    {
      name: "structuredContent against the outputSchema",
      reply: { content: [], structuredContent: { temp: "cold" } },
      pointer: "/structuredContent/temp",
      message: "structuredContent does not fit the outputSchema",
    },
    {
      name: "missing structuredContent",
      reply: { content: [] },
      pointer: "/structuredContent",
      message: "structuredContent does not fit the outputSchema",
    },
    {
      name: "an input_required result",
      reply: { resultType: "input_required", inputRequests: {} },
      pointer: "/resultType",
      message: "not complete",
    },
  ])("$name is a ToolResultError naming the tool and the pointer", async ({ reply, pointer, message }) => {
    const error = await callTool(SPEC, session(reply), "weather", { city: "Oslo" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolResultError);
    const { tool, issues, message: text } = error as ToolResultError;
    expect(tool).toBe("weather");
    expect(text).toContain('tool "weather"');
    expect(text).toContain(message);
    expect(issues[0]?.pointer).toBe(pointer);
  });

  it("a tool without an outputSchema takes any complete result", async () => {
    const reply = { content: [], structuredContent: { anything: [1] }, resultType: "complete" };
    await expect(callTool(SPEC, session(reply), "echo", {})).resolves.toBe(reply);
  });
});

describe("toolServer", () => {
  const ctx = { id: 1, method: "tools/call" } as unknown as RequestContext<null>;
  const calls: unknown[][] = [];
  const handlers = {
    echo: (args: never, c: RequestContext<null>) => {
      calls.push([args, c]);
      return { content: [{ type: "text", text: (args as { text?: string }).text ?? "" }] };
    },
    weather: (args: never) => ({
      content: [],
      structuredContent: { temp: (args as { city: string }).city === "Oslo" ? "cold" : 20 },
    }),
  };
  const list = () => snapshot.tools.map((t) => ({ ...t }));

  it("routes tools/call by name to the handler with the checked arguments and the request's context", async () => {
    const server = toolServer(SPEC, list, handlers);
    calls.length = 0;
    await expect(server["tools/call"]({ name: "echo", arguments: { text: "hi" } }, ctx)).resolves.toEqual({
      content: [{ type: "text", text: "hi" }],
    });
    expect(calls).toEqual([[{ text: "hi" }, ctx]]);
  });

  it("tools/list answers with the list given", () => {
    expect(toolServer(SPEC, list, handlers)["tools/list"](undefined, ctx)).toEqual({ tools: list() });
  });

  it("tools/list carries the cache members the spec names, with the options' values or 5 minutes and public", () => {
    const cached = { ...SPEC, cache: { ttl: "ttlMs", scope: "cacheScope" } };
    expect(toolServer(cached, list, handlers)["tools/list"](undefined, ctx)).toEqual({
      tools: list(),
      ttlMs: 300_000,
      cacheScope: "public",
    });
    const options = { listTtlMs: 0, cacheScope: "private" } as const;
    expect(toolServer(cached, list, handlers, options)["tools/list"](undefined, ctx)).toEqual({
      tools: list(),
      ttlMs: 0,
      cacheScope: "private",
    });
    // A release without them: the options change nothing.
    const none = { ...SPEC, cache: null };
    expect(toolServer(none, list, handlers, options)["tools/list"](undefined, ctx)).toEqual({ tools: list() });
  });

  it.each([
    { name: "a tool the server does not have", params: { name: "nope", arguments: {} } },
    { name: "a name from Object.prototype", params: { name: "toString", arguments: {} } },
    { name: "a name that is no string", params: { name: 5, arguments: {} } },
  ])("$name is -32602 Unknown tool", async ({ params }) => {
    const server = toolServer(SPEC, list, handlers);
    const error = await server["tools/call"](params, ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool") });
  });

  it("a tool in the snapshot without a handler is -32602 Unknown tool too", async () => {
    const server = toolServer(SPEC, list, { echo: handlers.echo });
    await expect(server["tools/call"]({ name: "weather", arguments: { city: "Oslo" } }, ctx)).rejects.toMatchObject({
      code: -32602,
      message: 'Unknown tool: "weather"',
    });
  });

  it.each([
    { name: "a wrong type", args: { city: "Oslo", days: "2" }, pointer: "/arguments/days" },
    { name: "a value under the minimum", args: { city: "Oslo", days: 0 }, pointer: "/arguments/days" },
    { name: "a missing required argument", args: {}, pointer: "/arguments/city" },
    { name: "no arguments at all (checked as {})", args: undefined, pointer: "/arguments/city" },
  ])(
    "$name is -32602 with each issue's pointer under /arguments, before the handler runs",
    async ({ args, pointer }) => {
      let ran = false;
      const server = toolServer(SPEC, list, { weather: () => ((ran = true), { content: [] }) });
      const error = await server["tools/call"]({ name: "weather", ...(args && { arguments: args }) }, ctx).catch(
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: -32602, message: "Invalid arguments for tool weather" });
      expect((error as RpcError).data).toMatchObject({ issues: [{ pointer }] });
      expect(ran).toBe(false);
    },
  );

  it("checkResults holds a handler's structuredContent to the outputSchema; without it the result goes out as is", async () => {
    const checking = toolServer(SPEC, list, handlers, { checkResults: true });
    await expect(checking["tools/call"]({ name: "weather", arguments: { city: "Oslo" } }, ctx)).rejects.toMatchObject({
      name: "ToolResultError",
      tool: "weather",
      issues: [{ pointer: "/temp" }],
    });
    await expect(checking["tools/call"]({ name: "weather", arguments: { city: "Rome" } }, ctx)).resolves.toEqual({
      content: [],
      structuredContent: { temp: 20 },
    });
    const trusting = toolServer(SPEC, list, handlers);
    await expect(trusting["tools/call"]({ name: "weather", arguments: { city: "Oslo" } }, ctx)).resolves.toEqual({
      content: [],
      structuredContent: { temp: "cold" },
    });
  });

  it("checkResults leaves an error result alone", async () => {
    const failing = { isError: true, content: [{ type: "text", text: "no" }] };
    const server = toolServer(SPEC, list, { weather: () => failing }, { checkResults: true });
    await expect(server["tools/call"]({ name: "weather", arguments: { city: "Oslo" } }, ctx)).resolves.toBe(failing);
  });
});

describe("publishedSchema", () => {
  const list = () => snapshot.tools.map((t) => structuredClone(t) as { [key: string]: unknown });

  it("gives a tool's inputSchema for its arguments, its outputSchema for its structured result, nothing for the rest", () => {
    expect(publishedSchema(SPEC, list, "WeatherArguments")).toEqual(snapshot.tools[1]!.inputSchema);
    expect(publishedSchema(SPEC, list, "WeatherResult")).toEqual(snapshot.tools[1]!.outputSchema);
    expect(publishedSchema(SPEC, list, "EchoArguments")).toEqual(snapshot.tools[0]!.inputSchema);
    expect(publishedSchema(SPEC, list, "EchoResult")).toBeUndefined();
    expect(publishedSchema(SPEC, list, "toString")).toBeUndefined();
  });
});

describe("toolDeclaration", () => {
  const list = () => [
    { ...structuredClone(snapshot.tools[0]!), title: "Echo", _meta: { "com.example/x": 1 }, icons: [] },
    { ...structuredClone(snapshot.tools[1]!), annotations: { readOnlyHint: true } },
  ];
  const schemas = (definition: string) => ({ definition }) as never;

  it("declares a tool with its listed title, description and annotations, and a schema per definition it has", () => {
    expect(toolDeclaration(SPEC, list, schemas, "echo")).toEqual({
      name: "echo",
      title: "Echo",
      inputSchema: { definition: "EchoArguments" },
    });
    expect(toolDeclaration(SPEC, list, schemas, "weather")).toEqual({
      name: "weather",
      annotations: { readOnlyHint: true },
      inputSchema: { definition: "WeatherArguments" },
      outputSchema: { definition: "WeatherResult" },
    });
  });

  it("refuses a tool the module does not have", () => {
    expect(() => toolDeclaration(SPEC, list, schemas, "toString")).toThrow(
      new RangeError('demo has no tool "toString"'),
    );
  });
});
