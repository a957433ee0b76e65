// createRequester is typed by the tables: a typo in the method, a wrong params key or a wrong use of the
// result is a compile error, and the modern `_meta` options it writes are checked too.
import { createRequester, inputHandlerFor, type ClientOutgoing } from "../../generated/2026-07-28/index.js";

const sent: ClientOutgoing[] = [];
const requester = createRequester((message) => void sent.push(message), {
  clientCapabilities: { elicitation: {} },
  clientInfo: { name: "c", version: "1" },
});

export async function use(): Promise<string[]> {
  const { tools } = await requester.request("tools/list", {});
  const called = await requester.request("tools/call", { name: "x", arguments: { a: 1 } });
  if (called.resultType === "input_required") return [];
  // @ts-expect-error misspelt method
  await requester.request("tools/lsit", {});
  // @ts-expect-error misspelt params key
  await requester.request("tools/call", { nmae: "x" });
  // @ts-expect-error a result field the method does not return
  void tools[0]?.contents;
  // @ts-expect-error a legacy method: there is no initialize in 2026-07-28
  await requester.request("initialize", {});
  // @ts-expect-error a server→client input request is not the client's to send
  await requester.request("elicitation/create", { message: "m", requestedSchema: { type: "object", properties: {} } });
  return tools.map((tool) => tool.name);
}

// @ts-expect-error modern requests must declare client capabilities
createRequester(() => undefined, {});

// @ts-expect-error a log level that does not exist
createRequester(() => undefined, { clientCapabilities: {}, logLevel: "verbose" });

export function route(message: ClientOutgoing): string | undefined {
  // The message is typed, so a transport can route on it without a cast.
  return message.method === "tools/call" ? message.params.name : undefined;
}

// Input handlers: a client dispatcher is one, and inputHandlerFor makes one from any answerInputRequests.
const answerer = { answerInputRequests: async () => ({ inputResponses: {}, errors: {} }) };
createRequester(() => undefined, { clientCapabilities: {}, inputHandler: inputHandlerFor(answerer) });
// @ts-expect-error an answerer alone does not run the input rounds: wrap it with inputHandlerFor
createRequester(() => undefined, { clientCapabilities: {}, inputHandler: answerer });
