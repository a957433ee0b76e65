// The high-level server's typed face: one declaration for 2026-07-28 and 2025-11-25, arguments typed
// from the inputSchema (a literal, a Standard Schema, a snapshot's tool), results held to what both
// releases carry, and the mistakes the low-level API catches still compile errors here.
import { createHttpHandler, createMcpServer, LEGACY_VERSIONS } from "../../generated/index.js";
import * as legacy from "../../generated/2025-11-25/index.js";
import * as modern from "../../generated/2026-07-28/index.js";
import { standardSchema, type StandardSchema } from "../../generated/2026-07-28/validate.js";

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

server.tool(
  { name: "ask" },
  // @ts-expect-error an input_required result is no result a 2025 session can carry (named at the handler)
  (_args, ctx) => (ctx.era === "stateless" ? ctx.raw.context.inputRequired({}) : { content: [] }),
);

// A result and a promise of one from the same handler, both fit for every served release.
server.tool({ name: "either" }, (_args, ctx) =>
  ctx.era === "stateless" ? Promise.resolve({ content: [] }) : { content: [{ type: "text", text: "x" }] },
);

// @ts-expect-error a misspelt reserved _meta key in an async handler's result
server.tool({ name: "meta-async" }, async () => ({ content: [], _meta: { "io.modelcontextprotocol/serverInfoo": 1 } }));

// The releases in the other order: results are inferred against 2025-11-25's answers, and held to 2026-07-28's.
const reversed = createMcpServer([legacy.MCP_RELEASE, modern.MCP_RELEASE], { info: { name: "r", version: "1" } });
reversed.tool({ name: "plain" }, () => ({ content: [{ type: "text", text: "x" }], isError: false }));
reversed.tool({ name: "ask" }, (_args, ctx) =>
  // @ts-expect-error an input_required result is no result a 2025 session can carry
  ctx.era === "stateless" ? ctx.raw.context.inputRequired({}) : { content: [] },
);
// @ts-expect-error a message role no release knows
reversed.prompt({ name: "role" }, () => ({ messages: [{ role: "robot", content: { type: "text", text: "x" } }] }));

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

// ---- Standard Schema v1 objects: the same mistakes are compile errors --------------------------------

server.tool({ name: "implementation", inputSchema: standardSchema("Implementation") }, (args) => {
  const name: string = args.name;
  // @ts-expect-error a misspelt argument (the schema's type has no nmae)
  void args.nmae;
  // @ts-expect-error an argument of the wrong type
  const wrong: number = args.version;
  void wrong;
  return { content: [{ type: "text", text: name }] };
});

/** A library's schema (zod's shape): validate answers a promise, and input and output differ (a default, a transform). */
interface LibrarySchema<I, O> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => Promise<{ readonly value: O } | { readonly issues: readonly { readonly message: string }[] }>;
    readonly types?: { readonly input: I; readonly output: O } | undefined;
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
      readonly output: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}
declare const trip: LibrarySchema<{ city: string; days?: number }, { city: string; days: number }>;
declare const stamped: LibrarySchema<{ at: Date }, { at: string }>;

server.tool({ name: "trip", inputSchema: trip, outputSchema: stamped }, (args) => {
  // The handler gets what validate gives back: days defaulted.
  const days: number = args.days;
  // @ts-expect-error a misspelt argument
  void args.cty;
  return { content: [], structuredContent: { at: new Date(days) } };
});

server.tool(
  { name: "trip-out", inputSchema: trip, outputSchema: stamped },
  // @ts-expect-error the structured result is what validate takes (a Date), not what it gives back
  () => ({ content: [], structuredContent: { at: "2026-01-01" } }),
);

// @ts-expect-error a content block no served release knows, with a Standard Schema too
server.tool({ name: "trip-content", inputSchema: trip }, () => ({ content: [{ type: "txt", text: "x" }] }));

server.tool(
  { name: "trip-ask", inputSchema: trip },
  // @ts-expect-error an input_required result is no result a 2025 session can carry (named at the handler)
  (_args, ctx) => (ctx.era === "stateless" ? ctx.raw.context.inputRequired({}) : { content: [] }),
);

// @ts-expect-error a misspelt reserved _meta key in a result
server.tool({ name: "trip-key", inputSchema: trip }, () => ({
  content: [],
  _meta: { "io.modelcontextprotocol/serverInfoo": 1 },
}));

// ---- A snapshot's tools: toolDeclaration as servers/<name>.ts emits it (emit/server-tools.ts) ----------

interface GetForecastArguments {
  city: string;
  days?: number;
}
interface Tools {
  "get-forecast": { arguments: GetForecastArguments; result: { structuredContent: { temperature: number } } };
  echo: { arguments: { text?: string }; result: { structuredContent?: { [key: string]: unknown } } };
}
type ToolName = keyof Tools;
type StructuredToolName = "get-forecast";
type ArgumentsOf<N extends ToolName> = Tools[N]["arguments"];
/** `typeof ANNOTATIONS` in the module. */
interface Annotations {
  readonly "get-forecast": { readonly readOnlyHint: true };
}
type ToolDeclarationOf<N extends ToolName> = {
  readonly name: N;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: StandardSchema<ArgumentsOf<N>>;
} & (N extends keyof Annotations ? { readonly annotations: Annotations[N] } : unknown) &
  (N extends StructuredToolName
    ? { readonly outputSchema: StandardSchema<Tools[N]["result"]["structuredContent"]> }
    : unknown);
declare function toolDeclaration<N extends ToolName>(name: N): ToolDeclarationOf<N>;

server.tool(toolDeclaration("get-forecast"), (args) => {
  const city: string = args.city;
  const days: number | undefined = args.days;
  // @ts-expect-error a misspelt argument
  void args.cty;
  return { content: [{ type: "text", text: `${city} ${days ?? 1}` }], structuredContent: { temperature: 4 } };
});
server.tool(toolDeclaration("echo"), ({ text }) => ({ content: [{ type: "text", text: text ?? "" }] }));
server.tool({ ...toolDeclaration("echo"), description: "Says it back" }, () => ({ content: [] }));

// @ts-expect-error a misspelt tool: the snapshot has no "get-forcast"
server.tool(toolDeclaration("get-forcast"), () => ({ content: [] }));

server.tool(
  toolDeclaration("get-forecast"),
  // @ts-expect-error the structured result does not fit the snapshot's outputSchema
  () => ({ content: [], structuredContent: { temperature: "cold" } }),
);

server.tool(
  toolDeclaration("get-forecast"),
  // @ts-expect-error a result without the structuredContent the snapshot's outputSchema promises
  () => ({ content: [] }),
);
