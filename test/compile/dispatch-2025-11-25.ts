// The dispatcher's handler table in 2025-11-25 (legacy): typed by method, partial, with a typed ctx. Checked by tsc.
import { createClientDispatcher, createServerDispatcher, RpcError } from "../../generated/2025-11-25/index.js";

export const server = createServerDispatcher<{ session: string }>({
  initialize: (params) => ({
    protocolVersion: params.protocolVersion,
    capabilities: {},
    serverInfo: { name: "s", version: "1" },
  }),
  "tools/call": (params, ctx) => {
    ctx.progress?.({ progress: 1 });
    ctx.notify("notifications/message", { level: "info", data: ctx.context.session });
    if (params.name === "") throw new RpcError(-32602, "name required");
    const token: string | number | undefined = ctx._meta?.progressToken;
    // @ts-expect-error a legacy request's _meta is optional, so the handler must allow for its absence
    void ctx._meta.progressToken;
    return { content: [{ type: "text", text: `${params.name} ${String(token)}` }] };
  },
  ping: () => ({}),
  "notifications/initialized": () => undefined,
});

export const client = createClientDispatcher({
  "sampling/createMessage": (params) => ({
    role: "assistant",
    content: { type: "text", text: String(params.maxTokens) },
    model: "m",
  }),
  "roots/list": (_params, ctx) => {
    ctx.notify("notifications/roots/list_changed");
    return { roots: [] };
  },
});

createServerDispatcher({
  // @ts-expect-error a mistyped method is a compile error
  "tools/lst": () => ({ tools: [] }),
});

createServerDispatcher({
  // @ts-expect-error params are typed: CallToolRequestParams has no `nmae`
  "tools/call": (params) => ({ content: [{ type: "text", text: params.nmae }] }),
});

createServerDispatcher({
  // @ts-expect-error the result must fit the table: ListToolsResult has tools
  "tools/list": () => ({ tool: [] }),
});

createServerDispatcher({
  "tools/call": (_params, ctx) => {
    // @ts-expect-error no per-request capabilities in a legacy release: they were negotiated at initialize
    ctx.requireClientCapability("sampling");
    return { content: [] };
  },
});

createClientDispatcher({
  // @ts-expect-error a client does not answer tools/call
  "tools/call": () => ({ content: [] }),
});
