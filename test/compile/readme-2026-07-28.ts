// The README's usage example, kept compiling: if the README's promises break, so does this file.
import { parse, request, type ServerHandlers } from "../../generated/2026-07-28/index.js";

export const msg = request(
  "tools/call",
  { name: "weather", arguments: { city: "Oslo" } },
  {
    id: 1,
    clientCapabilities: {},
  },
);

// @ts-expect-error no such method
request("tools/cal", { name: "x" }, { id: 2, clientCapabilities: {} });
// @ts-expect-error unknown params key
request("tools/call", { nmae: "x" }, { id: 3, clientCapabilities: {} });

export const handlers: Partial<ServerHandlers> = {
  "tools/call": async ({ name }) => ({ content: [{ type: "text", text: name }], resultType: "complete" }),
};

export const incoming = parse('{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}', {
  validate: true,
});
