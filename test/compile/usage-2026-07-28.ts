// Correct use of the 2026-07-28 bindings: this file must compile without errors.
import type {
  ClientRequestMethod,
  ClientRequests,
  ResultOf,
  ServerHandlers,
} from "../../generated/2026-07-28/index.js";
import { CLIENT_REQUEST_METHODS, ErrorCode, METHODS, MetaKey, errorName } from "../../generated/2026-07-28/index.js";

declare function call<M extends ClientRequestMethod>(
  method: M,
  params: ClientRequests[M]["params"],
): Promise<ClientRequests[M]["result"]>;

const meta = { [MetaKey.protocolVersion]: "2026-07-28", [MetaKey.clientCapabilities]: {} } as const;

export async function example(): Promise<string[]> {
  const result: ResultOf<"tools/call"> = await call("tools/call", {
    _meta: meta,
    name: "weather",
    arguments: { city: "Oslo" },
  });
  const tools = await call("tools/list", { _meta: meta });
  const names = tools.tools.map((t) => t.name);
  const code: -32601 = ErrorCode.MethodNotFound;
  const name = errorName(code);
  const kind: "request" | "notification" | "input" = METHODS["tools/call"].kind;
  return [...names, result.resultType, String(name), kind, ...CLIENT_REQUEST_METHODS];
}

export const partialHandlers: Partial<ServerHandlers> = {
  "tools/call": async (params) => ({ content: [{ type: "text", text: params.name }], resultType: "complete" }),
};
