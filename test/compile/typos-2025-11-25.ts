// Every mistake below must be a compile error (an unused @ts-expect-error fails tsc).
import type {
  CallToolRequestParams,
  ClientRequestMethod,
  ClientRequests,
  ListToolsResult,
  ServerHandlers,
} from "../../generated/2025-11-25/index.js";
import { METHODS } from "../../generated/2025-11-25/index.js";

declare function call<M extends ClientRequestMethod>(
  method: M,
  params: ClientRequests[M]["params"],
): Promise<ClientRequests[M]["result"]>;

// @ts-expect-error misspelt method in a table lookup
type Misspelt = ClientRequests["tools/cal"];

// @ts-expect-error misspelt method in a generic helper
void call("tools/cal", { name: "x" });

// @ts-expect-error misspelt params key
void call("tools/call", { nmae: "x" });

// @ts-expect-error missing required field (name)
const missingName: CallToolRequestParams = {};

// @ts-expect-error a method that exists only in a later version
void call("server/discover", {});

// @ts-expect-error a method of a later version in the run-time table
void METHODS["subscriptions/listen"];

declare const listToolsResult: ListToolsResult;

declare const handlers: Omit<ServerHandlers, "tools/call">;
const wrongResult: ServerHandlers = {
  ...handlers,
  // @ts-expect-error a handler returning a ListToolsResult for tools/call
  "tools/call": () => listToolsResult,
};

export { missingName, wrongResult };
export type { Misspelt };
