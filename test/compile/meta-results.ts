// A handler's returned `_meta` is checked where the dispatchers and eras infer the table (issue #23): a key under a
// prefix the release reserves must be one of its MetaKeys; every other key stays open. Checked by tsc through
// test/emit/compile.test.ts: each @ts-expect-error row must stay a compile error, everything else must compile.
import {
  notification,
  request,
  resultResponse,
  v2024_11_05,
  v2025_03_26,
  v2025_06_18,
  v2025_11_25,
  v2026_07_28,
} from "../../generated/index.js";

// 2026-07-28 (second label modelcontextprotocol or mcp): servers, clients and the stateless era.
export const server2026 = v2026_07_28.createServerDispatcher({
  // Parameters stay typed by the table: no annotations.
  "tools/call": async (params, ctx) => ({
    content: [{ type: "text", text: `${params.name} ${ctx.method}` }],
    _meta: {
      "com.example/trace": "t1",
      "com.example.mcp/x": 1,
      plain: true,
      "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" },
    },
  }),
  "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public", _meta: { "org.example/x": 1 } }),
  "notifications/cancelled": (params) => void params.requestId,
});
export const misspelt2026 = v2026_07_28.createServerDispatcher({
  // @ts-expect-error 2026-07-28 server: a misspelt reserved key (protocolVersion) in an async handler's result
  "tools/call": async () => ({ content: [], _meta: { "io.modelcontextprotocol/protocolVerson": "x" } }),
});
export const syncBranch2026 = v2026_07_28.createServerDispatcher({
  // @ts-expect-error 2026-07-28 server: dev.mcp/ is reserved, in one branch of a synchronous handler
  "tools/list": (_params, ctx) =>
    ctx.id === 1
      ? { tools: [], ttlMs: 0, cacheScope: "public", _meta: { "dev.mcp/x": 1 } }
      : { tools: [], ttlMs: 0, cacheScope: "public" },
});
export const client2026 = v2026_07_28.createClientDispatcher({
  "elicitation/create": (params) => ({
    action: "accept",
    content: { m: params.message },
    _meta: { "com.example/x": 1 },
  }),
  // @ts-expect-error 2026-07-28 client: an input request's answer too (org.modelcontextprotocol.api/ is reserved)
  "roots/list": async () => ({ roots: [], _meta: { "org.modelcontextprotocol.api/x": 1 } }),
});
export const era2026 = v2026_07_28.statelessEra({
  "tools/call": async (params, ctx) => ({ content: [], _meta: { "com.example/who": `${params.name}${ctx.id}` } }),
  // @ts-expect-error 2026-07-28 stateless era: a misspelt subscriptionId
  "tools/list": () => ({
    tools: [],
    ttlMs: 0,
    cacheScope: "public",
    _meta: { "io.modelcontextprotocol/subscriptionID": "s" },
  }),
});

// 2025-11-25: the tasks' related-task key is one of its MetaKeys; the session era is checked as well.
export const server2025_11 = v2025_11_25.createServerDispatcher({
  "tools/call": () => ({ content: [], _meta: { "io.modelcontextprotocol/related-task": { taskId: "t" } } }),
  // @ts-expect-error 2025-11-25 server: a misspelt related-task
  "tools/list": () => ({ tools: [], _meta: { "io.modelcontextprotocol/relatedTask": { taskId: "t" } } }),
});
// 2026-07-28 no longer reserves it, but 2025-11-25 did: a key code written for it still names is no misspelling there
// (`FormerMetaKey`), as the diff's 🟢🟢 says; misspelt, it still is one.
export const server2026_formerKey = v2026_07_28.createServerDispatcher({
  "tools/call": () => ({ content: [], _meta: { "io.modelcontextprotocol/related-task": { taskId: "t" } } }),
  // @ts-expect-error 2026-07-28 server: a misspelt related-task, a key it reserves no longer
  "prompts/list": () => ({
    prompts: [],
    ttlMs: 0,
    cacheScope: "public",
    _meta: { "io.modelcontextprotocol/relatedTask": 1 },
  }),
});
export const era2025_11 = v2025_11_25.sessionEra({
  // @ts-expect-error 2025-11-25 session era: com.mcp.tools/ is reserved (second label mcp)
  "prompts/list": async () => ({ prompts: [], _meta: { "com.mcp.tools/x": 1 } }),
  "resources/list": async () => ({ resources: [], _meta: { "com.example/x": 1 } }),
});
export const client2025_11 = v2025_11_25.createClientDispatcher({
  // @ts-expect-error 2025-11-25 client: dev.mcp/ is reserved
  "roots/list": () => ({ roots: [], _meta: { "dev.mcp/x": 1 } }),
});

// 2025-06-18 (the label before the last): io.modelcontextprotocol/ is open there, modelcontextprotocol.io/ is not.
export const server2025_06 = v2025_06_18.createServerDispatcher({
  "tools/call": () => ({ content: [], _meta: { "io.modelcontextprotocol/anything": 1 } }),
  // @ts-expect-error 2025-06-18 server: modelcontextprotocol.io/ is reserved there
  "tools/list": () => ({ tools: [], _meta: { "modelcontextprotocol.io/x": 1 } }),
});
export const era2025_06 = v2025_06_18.sessionEra({
  // @ts-expect-error 2025-06-18 session era: tools.mcp.com/ is reserved there
  "tools/list": () => ({ tools: [], _meta: { "tools.mcp.com/x": 1 } }),
});
export const client2025_06 = v2025_06_18.createClientDispatcher({
  // @ts-expect-error 2025-06-18 client: mcp.dev/ is reserved there
  "roots/list": () => ({ roots: [], _meta: { "mcp.dev/x": 1 } }),
});

// 2024-11-05 and 2025-03-26 reserve no prefix.
export const open2024 = v2024_11_05.createServerDispatcher({
  "tools/list": () => ({ tools: [], _meta: { "dev.mcp/x": 1 } }),
});
export const open2025_03 = v2025_03_26.sessionEra({
  "tools/list": () => ({ tools: [], _meta: { "io.modelcontextprotocol/x": 1 } }),
});

// A _meta typed as an open object is not checked: the visible way to send an extension's own reserved key.
const extensionMeta: { [key: string]: unknown } = { "io.modelcontextprotocol/an-extension-key": 1 };
export const escape2026 = v2026_07_28.createServerDispatcher({
  "tools/call": () => ({ content: [], _meta: extensionMeta }),
});

// resultResponse checks its result's _meta where it infers its type arguments; a named method leaves `Meta` at its
// default, unchecked (TypeScript infers no type argument once one is named).
export const responses = [
  v2026_07_28.resultResponse(1, {
    content: [],
    _meta: { "com.example/x": 1, "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } },
  }),
  // @ts-expect-error 2026-07-28 resultResponse: a misspelt reserved key
  v2026_07_28.resultResponse(1, { content: [], _meta: { "io.modelcontextprotocol/serverInf": {} } }),
  // @ts-expect-error 2026-07-28 resultResponse with a resultType option: dev.mcp/ is reserved
  v2026_07_28.resultResponse(2, { content: [], _meta: { "dev.mcp/x": 1 } }, { resultType: "complete" }),
  v2025_11_25.resultResponse(3, { tools: [], _meta: { "io.modelcontextprotocol/related-task": { taskId: "t" } } }),
  // @ts-expect-error 2025-11-25 resultResponse: com.mcp.tools/ is reserved
  v2025_11_25.resultResponse(3, { tools: [], _meta: { "com.mcp.tools/x": 1 } }),
  v2025_06_18.resultResponse(4, { roots: [], _meta: { "io.modelcontextprotocol/x": 1, "com.example/x": 2 } }),
  // @ts-expect-error 2025-06-18 resultResponse: modelcontextprotocol.io/ is reserved there
  v2025_06_18.resultResponse(4, { roots: [], _meta: { "modelcontextprotocol.io/x": 1 } }),
  v2025_03_26.resultResponse(5, { roots: [], _meta: { "dev.mcp/x": 1 } }),
  v2024_11_05.resultResponse(6, { roots: [], _meta: { "modelcontextprotocol.io/x": 1 } }),
  v2026_07_28.resultResponse(7, { content: [], _meta: extensionMeta }),
  // Named, as the README writes it: the result is checked against the method, its _meta keys are not.
  v2026_07_28.resultResponse<"tools/call">(8, { content: [], _meta: { "io.modelcontextprotocol/unchecked": 1 } }),
];

// The version-agnostic builders (generated/index.ts): a key any generated release reserves must be a MetaKey of one.
export const agnostic = [
  request(
    "tools/call",
    { name: "t", _meta: { "com.example/x": 1, "io.modelcontextprotocol/related-task": { taskId: "t" } } },
    { id: 1, protocolVersion: "2026-07-28", extraMeta: { "io.modelcontextprotocol/logLevel": "info" } },
  ),
  // @ts-expect-error root request: a misspelt reserved key in params
  request("tools/call", { name: "t", _meta: { "io.modelcontextprotocol/protocolVerson": "x" } }, { id: 2 }),
  request(
    "tools/list",
    {},
    {
      id: 3,
      // @ts-expect-error root request: extraMeta too (dev.mcp/ is reserved from 2025-11-25 on)
      extraMeta: { "dev.mcp/x": 1 },
    },
  ),
  // @ts-expect-error root request: modelcontextprotocol.io/ is reserved by 2025-06-18's rule, so a request to any version refuses it
  request("ping", { _meta: { "modelcontextprotocol.io/x": 1 } }, { id: 4 }),
  request("ping", { _meta: extensionMeta }, { id: 5 }),
  notification("notifications/initialized", { _meta: { "org.example/x": 1 } }),
  // @ts-expect-error root notification: com.mcp.tools/ is reserved
  notification("notifications/initialized", { _meta: { "com.mcp.tools/x": 1 } }),
  resultResponse(6, { content: [], _meta: { "com.example/x": 1 } }, { protocolVersion: "2026-07-28" }),
  // @ts-expect-error root resultResponse: a misspelt serverInfo
  resultResponse(7, { content: [], _meta: { "io.modelcontextprotocol/serverinfo": {} } }),
];

// The inferred table still refuses a method the side does not receive, beside valid ones, in every release.
export const misspeltMethods = [
  v2026_07_28.createServerDispatcher({
    "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" }),
    // @ts-expect-error 2026-07-28 server: tools/lst is no method a server receives
    "tools/lst": () => ({ tools: [], ttlMs: 0, cacheScope: "public" }),
  }),
  v2024_11_05.createServerDispatcher({
    ping: () => ({}),
    // @ts-expect-error 2024-11-05 server: a server does not receive roots/list
    "roots/list": () => ({ roots: [] }),
  }),
  v2025_03_26.sessionEra({
    ping: () => ({}),
    // @ts-expect-error 2025-03-26 session era: prompt/list is misspelt
    "prompt/list": () => ({ prompts: [] }),
  }),
  v2026_07_28.createClientDispatcher<{ readonly user: string }>({
    "roots/list": (_params, ctx) => ({ roots: [{ uri: `file:///${ctx.context.user}` }] }),
    // @ts-expect-error 2026-07-28 client with a named context: elicitation/creat is misspelt
    "elicitation/creat": () => ({ action: "decline" }),
  }),
];

// A union of release modules still has one callable dispatcher (the type parameters are the same in every release).
declare const someRelease: typeof v2024_11_05 | typeof v2025_06_18 | typeof v2026_07_28;
export const fromUnion = someRelease.createServerDispatcher({});

// Tables typed elsewhere still pass: generic wrappers, a picked table, a table held in a variable.
export function wrapDispatcher<C>(handlers: v2026_07_28.ServerDispatchHandlers<C>): v2026_07_28.Dispatcher<C> {
  return v2026_07_28.createServerDispatcher(handlers);
}
export function wrapEra<S>(handlers: v2025_11_25.SessionServerHandlers<S>): v2025_11_25.SessionEra {
  return v2025_11_25.sessionEra(handlers);
}
export function wrapPicked(
  handlers: Pick<v2026_07_28.ServerDispatchHandlers, "tools/list">,
): v2026_07_28.Dispatcher<undefined> {
  return v2026_07_28.createServerDispatcher(handlers);
}
const heldTable = { "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" as const }) };
export const fromVariable = v2026_07_28.statelessEra(heldTable);
