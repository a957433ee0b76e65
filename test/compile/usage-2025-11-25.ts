// Correct use of the 2025-11-25 bindings: this file must compile without errors.
import type { ClientRequestMethod, ClientRequests, ServerHandlers } from "../../generated/2025-11-25/index.js";
import { ErrorCode } from "../../generated/2025-11-25/index.js";

declare function call<M extends ClientRequestMethod>(
  method: M,
  params: ClientRequests[M]["params"],
): Promise<ClientRequests[M]["result"]>;

export async function example(): Promise<unknown[]> {
  const init = await call("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "c", version: "1" },
  });
  const result = await call("tools/call", { name: "weather", task: { ttl: 1000 } });
  const empty = await call("ping", undefined);
  return [init.protocolVersion, result, empty, ErrorCode.URLElicitationRequired];
}

export const partialHandlers: Partial<ServerHandlers> = {
  "tools/call": (params) => ({ content: [{ type: "text", text: params.name }] }),
  ping: () => ({}),
};
