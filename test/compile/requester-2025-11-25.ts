// Legacy releases: createRequester for what a client sends, createServerRequester for what a server asks
// of its client on a session; each is typed by its own direction.
import { createRequester, createServerRequester } from "../../generated/2025-11-25/index.js";

const client = createRequester(() => undefined);
const server = createServerRequester(() => undefined);

export async function use(): Promise<string> {
  const init = await client.request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "c", version: "1" },
  });
  const elicited = await server.request("elicitation/create", {
    message: "m",
    requestedSchema: { type: "object", properties: {} },
  });
  // @ts-expect-error a server→client request is not the client's to send
  await client.request("sampling/createMessage", { messages: [], maxTokens: 1 });
  // @ts-expect-error a client→server request is not the server's to send
  await server.request("tools/list", {});
  if (!("action" in elicited)) return "a task was created instead";
  // @ts-expect-error an elicitation result has no `content` of type string
  const text: string = elicited.content;
  // @ts-expect-error misspelt params key
  await client.request("ping", { nope: 1 });
  // @ts-expect-error modern-only method
  await client.request("server/discover", {});
  return `${init.protocolVersion} ${elicited.action} ${text}`;
}
