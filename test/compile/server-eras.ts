// The server transports' typed faces: a session handler's requests to the client are typed by the release's
// server→client table, a stateless handler's input_required results and answers by its input requests.
import { createHttpHandler, serveStdio } from "../../generated/index.js";
import * as legacy from "../../generated/2025-11-25/index.js";
import * as modern from "../../generated/2026-07-28/index.js";

const sessions = legacy.sessionEra<{ count: number }>(
  {
    "tools/call": async (_params, ctx) => {
      ctx.context.session.state.count++;
      const answer = await ctx.context.request("elicitation/create", {
        message: "m",
        requestedSchema: { type: "object", properties: {} },
      });
      // @ts-expect-error a client→server request is not the server's to send
      await ctx.context.request("tools/list", {});
      // @ts-expect-error misspelt params key
      await ctx.context.request("roots/list", { nope: 1 });
      // @ts-expect-error the session state is typed by sessionState
      ctx.context.session.state.nope = 1;
      return { content: [{ type: "text", text: "action" in answer ? answer.action : "task" }] };
    },
  },
  { sessionState: () => ({ count: 0 }) },
);

const stateless = modern.statelessEra({
  "tools/call": async (params, ctx) => {
    const name = modern.inputResponse(params, "name", "elicitation/create");
    if (name?.action === "accept") return { content: [{ type: "text", text: String(name.content?.["name"]) }] };
    // @ts-expect-error not an input request method
    modern.inputResponse(params, "x", "tools/list");
    // @ts-expect-error an input request needs its params
    await ctx.context.inputRequired({ ask: { method: "elicitation/create" } });
    return ctx.context.inputRequired({ name: { method: "roots/list", params: {} } }, { step: 1 });
  },
});

export const handler = createHttpHandler({ stateless, sessions });
export const stdio = serveStdio({ sessions, input: [], output: { write: () => true } });
// @ts-expect-error an era is not a handler table
createHttpHandler({ stateless: { "tools/list": () => ({ tools: [] }) } });
