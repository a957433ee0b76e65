// Types as exact as the wire (issue #23), in every release where a row applies. Checked by tsc through
// test/compile.test.ts: each @ts-expect-error row must stay a compile error, everything else must compile.
import { v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28 } from "../../generated/index.js";

// RpcError takes the release's ErrorCode; an application's own code goes through RpcError.custom, visibly.
export const rpcErrors: readonly Error[] = [
  new v2024_11_05.RpcError(v2024_11_05.ErrorCode.InvalidParams, "bad"),
  new v2025_03_26.RpcError(-32601, "no such method"),
  new v2025_06_18.RpcError(v2025_06_18.ErrorCode.InternalError, "failed", { detail: 1 }),
  new v2025_11_25.RpcError(v2025_11_25.ErrorCode.URLElicitationRequired, "needs a URL"),
  new v2026_07_28.RpcError(v2026_07_28.ErrorCode.MissingRequiredClientCapability, "needs elicitation"),
  v2024_11_05.RpcError.custom(12345, "an application's own code"),
  v2025_03_26.RpcError.custom(-1, "declined"),
  v2025_06_18.RpcError.custom(1, "quota"),
  v2025_11_25.RpcError.custom(42, "quota", { retryAfter: 3 }),
  v2026_07_28.RpcError.custom(-31999, "custom"),
  // @ts-expect-error 2024-11-05: 12345 is no ErrorCode; RpcError.custom says so on purpose
  new v2024_11_05.RpcError(12345, "typo"),
  // @ts-expect-error 2025-03-26: 12345 is no ErrorCode
  new v2025_03_26.RpcError(12345, "typo"),
  // @ts-expect-error 2025-06-18: 12345 is no ErrorCode
  new v2025_06_18.RpcError(12345, "typo"),
  // @ts-expect-error 2025-11-25: 12345 is no ErrorCode
  new v2025_11_25.RpcError(12345, "typo"),
  // @ts-expect-error 2026-07-28: 12345 is no ErrorCode
  new v2026_07_28.RpcError(12345, "typo"),
  // @ts-expect-error 2025-06-18: -32042 (URL elicitation required) came with 2025-11-25
  new v2025_06_18.RpcError(-32042, "too early"),
  // @ts-expect-error 2026-07-28: -32042 is 2025-11-25's alone
  new v2026_07_28.RpcError(-32042, "gone"),
];

// One RpcError class behind every release: what a requester rejects with is an instance of each.
export function codeOf(error: unknown): number | undefined {
  return error instanceof v2026_07_28.RpcError || error instanceof v2024_11_05.RpcError ? error.code : undefined;
}

// Standalone handlers: ServerHandler / ClientHandler name the table's own handler type.
type Ctx = { readonly user: string };
export const callTool: v2026_07_28.ServerHandler<"tools/call", Ctx> = async (params, ctx) => ({
  content: [{ type: "text", text: `${params.name} for ${ctx.context.user}` }],
});
export const listTools: v2025_11_25.ServerHandler<"tools/list"> = () => ({ tools: [] });
export const cancelled: v2025_06_18.ServerHandler<"notifications/cancelled", Ctx> = (params, ctx) =>
  void [params.requestId, ctx.context.user];
export const elicit: v2026_07_28.ClientHandler<"elicitation/create", Ctx> = (params, ctx) => ({
  action: "accept",
  content: { key: ctx.key, message: params.message },
});
export const roots: v2024_11_05.ClientHandler<"roots/list"> = () => ({ roots: [] });
export const server2026 = v2026_07_28.createServerDispatcher<Ctx>({ "tools/call": callTool });
export const server2025 = v2025_11_25.createServerDispatcher({ "tools/list": listTools });
// @ts-expect-error a handler alias is typed by the method: tools/call answers a CallToolResult
export const wrongResult: v2025_03_26.ServerHandler<"tools/call"> = () => ({ tools: [] });
// @ts-expect-error the method must be one the side receives: a server does not receive roots/list
export type NotReceived = v2025_11_25.ServerHandler<"roots/list">;
// A handler's parts by method name, as the tables write them: its context and its answer (resultType left out).
export async function readResource(
  params: v2026_07_28.ParamsOf<"resources/read">,
  ctx: v2026_07_28.ServerContextOf<"resources/read", Ctx>,
): Promise<v2026_07_28.ServerAnswerOf<"resources/read">> {
  ctx.requireClientCapability("roots");
  return { contents: [{ uri: params.uri, text: ctx.context.user }], ttlMs: 0, cacheScope: "public" };
}
export const server2026Parts = v2026_07_28.createServerDispatcher<Ctx>({ "resources/read": readResource });
export const rootsAnswer: v2025_11_25.ClientAnswerOf<"roots/list"> = { roots: [] };
// @ts-expect-error an answer is typed by the method: resources/read answers contents, not tools
export const wrongAnswer: v2026_07_28.ServerAnswerOf<"resources/read"> = { tools: [] };
// @ts-expect-error a context is the server's only for what a client asks: elicitation/create is no client request
export type NotAClientRequest = v2026_07_28.ServerContextOf<"elicitation/create", Ctx>;

// ResultType (2026-07-28): the known values are literal members, any other string still fits (the spec keeps it open).
export const complete: v2026_07_28.ResultType = "complete";
export const future: v2026_07_28.ResultType = "some_future_kind";
export function finished(result: v2026_07_28.CallToolResult): boolean {
  // Narrowing by a known value works, and a known value is what a result's resultType is typed as.
  const kind: v2026_07_28.ResultType = result.resultType;
  return kind === "complete";
}
export const answered = v2026_07_28.resultResponse<"tools/list">(
  1,
  { tools: [], ttlMs: 0, cacheScope: "private" },
  { resultType: "complete" },
);
// The known values are listed in the type itself, so editors complete them: not folded into a plain string.
type LiteralMembers<U> = U extends string ? (string extends U ? never : U) : never;
type Listed = LiteralMembers<v2026_07_28.ResultType>;
export const listed: readonly Listed[] = ["complete", "input_required"];
// @ts-expect-error "completed" is no listed value (it still fits ResultType, which stays open)
export const notListed: Listed = "completed";

// What JSON leaves open for a reason accepts extra keys: a 2020-12 inputSchema literal, custom _meta keys,
// arguments and structuredContent. The keys the schema declares keep their types.
const schema2020 = {
  type: "object",
  $defs: { point: { type: "object", properties: { x: { type: "number" } } } },
  properties: { at: { $ref: "#/$defs/point" }, mode: { enum: ["a", "b"] } },
  required: ["at"],
  allOf: [{ if: { properties: { mode: { const: "a" } } }, then: { required: ["mode"] }, else: {} }],
  additionalProperties: false,
} as const;
export const tool2024: v2024_11_05.Tool = {
  name: "t",
  inputSchema: { type: "object", $defs: {}, additionalProperties: false },
};
export const tool2025_03: v2025_03_26.Tool = {
  name: "t",
  inputSchema: { type: "object", allOf: [{ required: ["a"] }] },
};
export const tool2025_06: v2025_06_18.Tool = {
  name: "t",
  inputSchema: { type: "object", if: {}, then: {}, else: {} },
  outputSchema: { type: "object", $defs: {} },
};
export const tool2025_11: v2025_11_25.Tool = {
  name: "t",
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: { point: { type: "object" } },
    allOf: [{ if: { required: ["a"] }, then: { required: ["b"] }, else: { required: ["c"] } }],
    additionalProperties: false,
  },
  outputSchema: { type: "object", additionalProperties: { type: "string" } },
};
export const tool2026: v2026_07_28.Tool = { name: "t", inputSchema: { type: "object", $defs: {}, allOf: [] } };
export const callParams: v2025_11_25.CallToolRequestParams = {
  name: "t",
  arguments: { any: 1, nested: { deep: [true] } },
  _meta: { "com.example/trace": "abc" },
};
export const callResult: v2025_11_25.CallToolResult = {
  content: [],
  structuredContent: { any: 1, nested: { x: null } },
  _meta: { "com.example/cost": 3 },
};
// @ts-expect-error 2025-11-25: the declared keys keep their types: a tool's inputSchema is of type "object"
export const notAnObjectSchema: v2025_11_25.Tool = { name: "t", inputSchema: { type: "array" } };
// @ts-expect-error 2024-11-05: and it keeps its required type
export const untypedSchema: v2024_11_05.Tool = { name: "t", inputSchema: { $defs: {} } };

// Header names per release, as constants typed by their literal, where that release's transport has them.
export const sessionHeader: "Mcp-Session-Id" = v2025_11_25.HttpHeader.sessionId;
export const resumeHeader: "Last-Event-ID" = v2025_03_26.HttpHeader.lastEventId;
export const legacyVersionHeader: "MCP-Protocol-Version" = v2025_06_18.HttpHeader.protocolVersion;
export const statelessHeaders: readonly v2026_07_28.HttpHeader[] = [
  v2026_07_28.HttpHeader.protocolVersion,
  v2026_07_28.HttpHeader.method,
  v2026_07_28.HttpHeader.name,
];
// @ts-expect-error 2025-03-26 had no MCP-Protocol-Version header (2025-06-18 added it)
export const tooEarly: string = v2025_03_26.HttpHeader.protocolVersion;
// @ts-expect-error 2026-07-28 is stateless: no session header
export const noSession: string = v2026_07_28.HttpHeader.sessionId;
// @ts-expect-error 2024-11-05's HTTP+SSE transport names no headers
export const noHeaders: unknown = v2024_11_05.HttpHeader;
// @ts-expect-error a header name is one of the release's: a typo is a compile error
export const typoHeader: v2025_11_25.HttpHeader = "Mcp-Sesion-Id";

// Readonly data where the bindings only read: an `as const` tool list returned from a handler, in every release.
const TOOLS = [
  {
    name: "add",
    description: "adds",
    inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] },
  },
] as const;
const CONTENT = [{ type: "text", text: "done" }] as const;
export const readonly2024 = v2024_11_05.createServerDispatcher({
  "tools/list": () => ({ tools: TOOLS }),
  "tools/call": () => ({ content: CONTENT }),
});
export const readonly2025_03 = v2025_03_26.createServerDispatcher({ "tools/list": () => ({ tools: TOOLS }) });
export const readonly2025_06 = v2025_06_18.createServerDispatcher({ "tools/list": async () => ({ tools: TOOLS }) });
export const readonly2025_11 = v2025_11_25.createServerDispatcher({
  "tools/list": () => ({ tools: [...TOOLS, { name: "schema2020", inputSchema: schema2020 }] as const }),
});
export const readonly2026 = v2026_07_28.createServerDispatcher({
  "tools/list": () => ({ tools: TOOLS, ttlMs: 0, cacheScope: "public" }),
});
export const readonlyClient = v2026_07_28.createClientDispatcher({
  "elicitation/create": () => ({ action: "accept", content: { tags: ["a", "b"] as const } }),
});
export const readonlyHandler: v2025_11_25.ServerHandler<"tools/list"> = () => ({ tools: TOOLS });
createServerDispatcher2026({
  // @ts-expect-error readonly is no licence for a wrong shape: a tool needs its inputSchema
  "tools/list": () => ({ tools: [{ name: "x" }] as const, ttlMs: 0, cacheScope: "public" }),
});
function createServerDispatcher2026(handlers: v2026_07_28.ServerDispatchHandlers): v2026_07_28.Dispatcher<undefined> {
  return v2026_07_28.createServerDispatcher(handlers);
}
// And builder arguments: resultResponse and request take readonly data too.
export const readonlyResponse2024 = v2024_11_05.resultResponse<"tools/list">(1, { tools: TOOLS });
export const readonlyResponse2026 = v2026_07_28.resultResponse<"tools/list">(1, {
  tools: TOOLS,
  ttlMs: 0,
  cacheScope: "public",
});
const ARGS = { list: [1, 2], nested: { ok: true } } as const;
export const readonlyRequest2025 = v2025_11_25.request("tools/call", { name: "t", arguments: ARGS }, { id: 1 });
export const readonlyRequest2026 = v2026_07_28.request(
  "tools/call",
  { name: "t", arguments: ARGS },
  { id: 1, clientCapabilities: {} },
);
const ROOTS = [{ uri: "file:///a" }] as const;
export const readonlyRoots = v2025_06_18.resultResponse<"roots/list">(2, { roots: ROOTS });
// @ts-expect-error readonly data is still checked: a root's uri is a string
export const wrongRoots = v2025_06_18.resultResponse<"roots/list">(2, { roots: [{ uri: 1 }] as const });

// 2025-11-25 task augmentation: the answer follows whether the request asked for a task.
export async function taskAnswers(
  server: v2025_11_25.ServerRequester,
  client: v2025_11_25.Requester,
  params: v2025_11_25.CreateMessageRequestParams,
): Promise<readonly unknown[]> {
  const sampled = await server.request("sampling/createMessage", { messages: [], maxTokens: 10 });
  const elicited = await server.request("elicitation/create", {
    message: "m",
    requestedSchema: { type: "object", properties: {} },
  });
  const called = await client.request("tools/call", { name: "t", arguments: {} });
  // No task asked: the result itself, no narrowing.
  const plain: readonly unknown[] = [sampled.role, elicited.action, called.content];
  const augmented = await server.request("sampling/createMessage", {
    messages: [],
    maxTokens: 10,
    task: { ttl: 1000 },
  });
  const task = "task" in augmented ? augmented.task.taskId : augmented.role;
  // @ts-expect-error asked for a task: the answer may be a CreateTaskResult, so narrow first
  const notNarrowed: string = augmented.role;
  const maybe = await server.request("sampling/createMessage", params);
  // @ts-expect-error params that may or may not carry a task keep both answers
  const unknownShape: string = maybe.role;
  // @ts-expect-error a misspelt params key is still a compile error
  await server.request("sampling/createMessage", { messages: [], maxTokens: 10, tsk: {} });
  // @ts-expect-error a task's shape is still checked: ttl is a number
  await client.request("tools/call", { name: "t", task: { ttl: "soon" } });
  return [...plain, task, notNarrowed, unknownShape];
}
// Readonly arrays in params: a server's sampling request from constant messages.
const MESSAGES = [{ role: "user", content: { type: "text", text: "hi" } }] as const;
export async function sampleFromConstants(server: v2025_11_25.ServerRequester): Promise<string> {
  const answer = await server.request("sampling/createMessage", { messages: MESSAGES, maxTokens: 10 });
  return answer.role;
}
export const readonlyParams2024 = v2024_11_05.request(
  "sampling/createMessage",
  { messages: MESSAGES, maxTokens: 10 },
  { id: 3 },
);
// Generic wrappers still pass the tables' own params and results through (as examples/server.ts's ask does).
export function forward<M extends v2025_11_25.ServerRequestMethod>(
  requester: v2025_11_25.ServerRequester,
  method: M,
  params: v2025_11_25.ServerRequests[M]["params"],
): Promise<v2025_11_25.ServerRequests[M]["result"]> {
  return requester.request(method, params);
}
export function answerWith<M extends v2024_11_05.RequestMethod>(
  id: number,
  result: v2024_11_05.ResultOf<M>,
): v2024_11_05.ResultEnvelope<v2024_11_05.ResultOf<M>> {
  return v2024_11_05.resultResponse<M>(id, result);
}

// Reserved _meta keys: a key under a prefix the release reserves must be one of its MetaKeys; every other key stays open.
// 2025-11-25 on: prefixes whose second label is modelcontextprotocol or mcp (basic#meta).
const caps: v2026_07_28.ClientCapabilities = {};
export const metaChecked2026 = [
  v2026_07_28.request(
    "tools/call",
    { name: "t", _meta: { "com.example/trace": "abc", "com.example.mcp/x": 1, plain: true, progressToken: 1 } },
    {
      id: 1,
      clientCapabilities: caps,
      extraMeta: { "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" } },
    },
  ),
  v2026_07_28.request(
    "tools/call",
    // @ts-expect-error 2026-07-28: a misspelt reserved key (protocolVersion) in request params
    { name: "t", _meta: { "io.modelcontextprotocol/protocolVerson": "2026-07-28" } },
    { id: 1, clientCapabilities: caps },
  ),
  v2026_07_28.request(
    "tools/list",
    {},
    {
      id: 2,
      clientCapabilities: caps,
      // @ts-expect-error 2026-07-28: extraMeta is checked too: dev.mcp/ is reserved and names no MetaKey
      extraMeta: { "dev.mcp/trace": 1 },
    },
  ),
  v2026_07_28.notification("notifications/progress", {
    progressToken: 1,
    progress: 1,
    _meta: { "io.modelcontextprotocol/subscriptionId": "s", "org.example/x": 1 },
  }),
  v2026_07_28.notification("notifications/progress", {
    progressToken: 1,
    progress: 1,
    // @ts-expect-error 2026-07-28: notifications too: org.modelcontextprotocol.api/ is reserved
    _meta: { "org.modelcontextprotocol.api/x": 1 },
  }),
];
export const metaChecked2025_11 = [
  v2025_11_25.request(
    "tools/call",
    { name: "t", _meta: { "io.modelcontextprotocol/related-task": { taskId: "t1" }, "com.example/x": 1 } },
    { id: 1 },
  ),
  // @ts-expect-error 2025-11-25: a misspelt reserved key (related-task)
  v2025_11_25.request("tools/call", { name: "t", _meta: { "io.modelcontextprotocol/relatedTask": {} } }, { id: 1 }),
  // @ts-expect-error 2025-11-25: com.mcp.tools/ is reserved (second label mcp)
  v2025_11_25.notification("notifications/initialized", { _meta: { "com.mcp.tools/x": 1 } }),
];
// 2025-06-18: prefixes with modelcontextprotocol or mcp before their last label (modelcontextprotocol.io/, tools.mcp.com/).
export const metaChecked2025_06 = [
  v2025_06_18.request("tools/call", { name: "t", _meta: { "io.modelcontextprotocol/anything": 1 } }, { id: 1 }),
  // @ts-expect-error 2025-06-18: modelcontextprotocol.io/ is reserved there
  v2025_06_18.request("tools/call", { name: "t", _meta: { "modelcontextprotocol.io/x": 1 } }, { id: 1 }),
  // @ts-expect-error 2025-06-18: extraMeta too (tools.mcp.com/)
  v2025_06_18.request("ping", undefined, { id: 1, extraMeta: { "tools.mcp.com/x": 1 } }),
];
// 2024-11-05 and 2025-03-26 reserve no prefix.
export const metaOpen2024 = v2024_11_05.request("tools/call", { name: "t", _meta: { "dev.mcp/x": 1 } }, { id: 1 });
export const metaOpen2025_03 = v2025_03_26.notification("notifications/initialized", {
  _meta: { "io.modelcontextprotocol/x": 1 },
});
// A _meta typed as an open object is not checked: the visible way to send an extension's own reserved key.
const extensionMeta: { [key: string]: unknown } = { "io.modelcontextprotocol/an-extension-key": 1 };
export const metaEscape = v2026_07_28.request(
  "tools/list",
  { _meta: extensionMeta },
  { id: 3, clientCapabilities: caps },
);
// The requesters check what they send.
export async function metaInRequests(
  client2026: v2026_07_28.Requester,
  server2025: v2025_11_25.ServerRequester,
): Promise<unknown[]> {
  return [
    await client2026.request("tools/list", { _meta: { "com.example/x": 1 } }),
    // @ts-expect-error 2026-07-28 requester: a misspelt reserved key
    await client2026.request("tools/list", { _meta: { "io.modelcontextprotocol/clientInfos": {} } }),
    // @ts-expect-error 2025-11-25 server requester: dev.mcp/ is reserved
    await server2025.request("roots/list", { _meta: { "dev.mcp/x": 1 } }),
    await server2025.request("roots/list", { _meta: { "com.example/x": 1 } }),
  ];
}
export const checkedRequester = v2026_07_28.createRequester(() => undefined, {
  clientCapabilities: caps,
  // @ts-expect-error createRequester's extraMeta is checked too
  extraMeta: { "io.modelcontextprotocol/logLevl": "info" },
});

// Results the bindings build are typed with the resultType they carry (2026-07-28): "complete" by default, another
// value where it is named (as the method is), and input_required from a handler's inputRequired().
const builtComplete = v2026_07_28.resultResponse<"tools/call">(1, { content: [] });
export const completeLiteral: "complete" = builtComplete.result.resultType;
export const builtContent: readonly unknown[] = builtComplete.result.content;
const builtInput = v2026_07_28.resultResponse<"tools/call", "input_required">(2, { inputRequests: {} });
export const inputLiteral: "input_required" = builtInput.result.resultType;
export const inferredInput: "input_required" = v2026_07_28.resultResponse(
  3,
  { content: [] },
  { resultType: "input_required" },
).result.resultType;
export const ownResultType: "input_required" = v2026_07_28.resultResponse(4, { resultType: "input_required" }).result
  .resultType;
// @ts-expect-error naming the method alone leaves the default: another resultType is named too (<"tools/call", "input_required">)
v2026_07_28.resultResponse<"tools/call">(5, { content: [] }, { resultType: "input_required" });
export const askInput: v2026_07_28.StatelessServerHandlers = {
  "tools/call": async (_params, ctx) => {
    const asked = await ctx.context.inputRequired({});
    const literal: "input_required" = asked.resultType;
    return literal === "input_required" ? asked : { content: [] };
  },
};
