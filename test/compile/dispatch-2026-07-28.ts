// The dispatcher's handler table in 2026-07-28: typed by method, partial, with a typed ctx. Checked by tsc.
import {
  createClientDispatcher,
  createServerDispatcher,
  ErrorCode,
  RpcError,
} from "../../generated/2026-07-28/index.js";

export const server = createServerDispatcher<{ user: string }>({
  "tools/call": async (params, ctx) => {
    ctx.requireClientCapability("elicitation");
    ctx.requireClientCapability({ elicitation: { url: {} } });
    // A request reaches its handler only with the _meta the release requires.
    const trace: unknown = ctx._meta["com.example/trace"];
    const version: string = ctx._meta["io.modelcontextprotocol/protocolVersion"];
    ctx.progress?.({ progress: 1, total: 2, message: "half" });
    ctx.notify("notifications/tools/list_changed");
    ctx.notify("notifications/message", { level: "info", data: "working" });
    if (ctx.signal.aborted) throw new RpcError(ErrorCode.InternalError, "stopped");
    await Promise.resolve();
    // No resultType: the dispatcher writes "complete".
    return {
      content: [
        {
          type: "text",
          text: `${params.name} ${ctx.context.user} ${String(trace)} ${version ?? ""} ${String(ctx.id)}`,
        },
      ],
    };
  },
  "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "private" }),
  "prompts/get": () => ({ resultType: "input_required", requestState: "opaque" }),
  "notifications/cancelled": (params, ctx) => void [params.requestId, ctx.method],
});

export const client = createClientDispatcher({
  "elicitation/create": (params, ctx) => ({ action: "accept", content: { answer: `${params.message} ${ctx.key}` } }),
  "roots/list": () => ({ roots: [] }),
  "notifications/progress": (params) => void params.progress,
});

export async function answer(
  result: import("../../generated/2026-07-28/index.js").InputRequiredResult,
): Promise<number> {
  const { inputResponses, errors } = await client.answerInputRequests(result.inputRequests);
  return Object.keys(inputResponses).length + Object.keys(errors).length;
}

createServerDispatcher({
  // @ts-expect-error a mistyped method is a compile error
  "tools/cal": () => ({ content: [] }),
});

createServerDispatcher({
  // @ts-expect-error params are typed: CallToolRequestParams has no `nmae`
  "tools/call": (params) => ({ content: [{ type: "text", text: params.nmae }] }),
});

createServerDispatcher({
  // @ts-expect-error the result must fit the table: a CallToolResult has content
  "tools/call": () => ({ contents: [] }),
});

createServerDispatcher({
  // @ts-expect-error an input_required result says so: resultType stays required there
  "tools/call": () => ({ requestState: "opaque", inputRequests: {} }),
});

createServerDispatcher({
  "tools/call": (_params, ctx) => {
    // @ts-expect-error notify is typed by what a server may send
    ctx.notify("notifications/tools/list_chagned");
    return { content: [] };
  },
});

createServerDispatcher({
  "tools/call": (_params, ctx) => {
    // @ts-expect-error requireClientCapability names a ClientCapabilities key
    ctx.requireClientCapability("samplin");
    // @ts-expect-error progress takes the notification's params without the token
    ctx.progress?.({ progress: "half" });
    return { content: [] };
  },
});

createServerDispatcher({
  // @ts-expect-error a server does not answer elicitation/create: it is in the client's table
  "elicitation/create": () => ({ action: "cancel" }),
});

createClientDispatcher({
  // @ts-expect-error an elicitation answer is accept, decline or cancel
  "elicitation/create": () => ({ action: "maybe" }),
});
