// The high-level server's typed face: one declaration for 2026-07-28 and 2025-11-25, arguments typed
// from the inputSchema literal, results held to what both releases carry, and the mistakes the
// low-level API catches still compile errors here.
import { createHttpHandler, createMcpServer, LEGACY_VERSIONS } from "../../generated/index.js";
import * as legacy from "../../generated/2025-11-25/index.js";
import * as modern from "../../generated/2026-07-28/index.js";

const server = createMcpServer([modern.MCP_RELEASE, legacy.MCP_RELEASE], {
  info: { name: "compile", version: "1.0.0" },
});

server.tool(
  {
    name: "weather",
    description: "The weather in a city",
    annotations: { readOnlyHint: true },
    inputSchema: {
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer" } },
      required: ["city"],
    },
    outputSchema: {
      type: "object",
      properties: { tempC: { type: "number" } },
      required: ["tempC"],
    },
  },
  (args, ctx) => {
    const city: string = args.city;
    const days: number | undefined = args.days;
    // @ts-expect-error a misspelt argument
    void args.cty;
    // @ts-expect-error an argument of the wrong type
    const wrong: number = args.city;
    void wrong;
    ctx.log("info", `weather for ${city} over ${days ?? 1} days`);
    // @ts-expect-error no such logging level
    ctx.log("verbose", "x");
    if (ctx.era === "stateless") {
      const version: "2026-07-28" = ctx.version;
      void version;
      void ctx.raw.context.inputRequired;
    } else {
      void ctx.raw.context.session.id;
    }
    return { content: [{ type: "text", text: city }], structuredContent: { tempC: 21 } };
  },
);

server.tool(
  {
    name: "hot",
    outputSchema: { type: "object", properties: { tempC: { type: "number" } }, required: ["tempC"] },
  },
  // @ts-expect-error the structured result does not fit the outputSchema (a string for a number)
  () => ({ content: [], structuredContent: { tempC: "hot" } }),
);

// @ts-expect-error a content block no served release knows
server.tool({ name: "bad-content" }, () => ({ content: [{ type: "txt", text: "x" }] }));

server.tool({ name: "ask" }, (_args, ctx) =>
  // @ts-expect-error an input_required result is no result a 2025 session can carry
  ctx.era === "stateless" ? ctx.raw.context.inputRequired({}) : { content: [] },
);

// Declared for the stateless era alone, a tool may answer what only that era carries.
server.only("stateless").tool({ name: "ask-modern" }, async (_args, ctx) => {
  const sessionOnly: "stateless" = ctx.era;
  void sessionOnly;
  return ctx.raw.context.inputRequired({
    name: {
      method: "elicitation/create",
      params: { message: "Name?", requestedSchema: { type: "object", properties: {} } },
    },
  });
});

// @ts-expect-error a misspelt reserved _meta key in a result
server.tool({ name: "meta" }, () => ({ content: [], _meta: { "io.modelcontextprotocol/serverInfoo": 1 } }));
server.tool({ name: "meta-ok" }, () => ({ content: [], _meta: { "com.example/trace": 1 } }));
// A key 2025-11-25 reserved and 2026-07-28 no longer does is no misspelling in either; misspelt, it is one.
server.tool({ name: "task" }, () => ({
  content: [],
  _meta: { "io.modelcontextprotocol/related-task": { taskId: "t" } },
}));
// @ts-expect-error a misspelt related-task in a result
server.tool({ name: "task-typo" }, () => ({ content: [], _meta: { "io.modelcontextprotocol/related-tsk": 1 } }));

server.prompt(
  {
    name: "greet",
    arguments: [{ name: "who", required: true }, { name: "tone" }],
    complete: { who: (value) => ["world", "moon"].filter((v) => v.startsWith(value)) },
  },
  (args) => {
    const who: string = args.who;
    const tone: string | undefined = args.tone;
    // @ts-expect-error a misspelt prompt argument
    void args.whom;
    return { messages: [{ role: "user", content: { type: "text", text: `${tone ?? "Hi"} ${who}` } }] };
  },
);

// @ts-expect-error a message role no release knows
server.prompt({ name: "bad-role" }, () => ({ messages: [{ role: "robot", content: { type: "text", text: "x" } }] }));

server.resource({ uri: "test://a", name: "a", mimeType: "text/plain" }, (uri) => ({
  contents: [{ uri, text: "a" }],
}));

server.resourceTemplate(
  {
    uriTemplate: "test://items/{id}{?rev}",
    name: "items",
    complete: { id: () => ["1", "2"] },
  },
  (uri, vars) => {
    const id: string = vars.id;
    const rev: string | undefined = vars.rev;
    // @ts-expect-error no such template variable
    void vars.nope;
    return { contents: [{ uri, text: `${id}@${rev ?? "head"}` }] };
  },
);

createHttpHandler({
  ...server.eras({ sessions: { versions: LEGACY_VERSIONS } }),
  path: "/mcp",
});
// @ts-expect-error options of an era the server's releases do not speak
server.eras({ other: {} });

server.tool({ name: "mistakes" }, async (_args, ctx) => {
  if (ctx.era === "sessions") {
    // @ts-expect-error a request the server does not send (tools/list is the client's)
    await ctx.raw.context.request("tools/list", {});
  }
  // @ts-expect-error an error code the release does not define
  throw new modern.RpcError(12345, "quota");
});

server.prompt({ name: "completed", arguments: [{ name: "who" }] }, () => ({ messages: [] }));
// @ts-expect-error a completer for an argument the prompt does not declare
server.prompt({ name: "misspelt", arguments: [{ name: "who" }], complete: { whom: () => [] } }, () => ({
  messages: [],
}));
// @ts-expect-error a list the server does not serve
server.listChanged("roots");
// @ts-expect-error a misspelt kind
server.remove("tool", "weather");
