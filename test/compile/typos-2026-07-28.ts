// Every mistake below must be a compile error: `tsc` fails on an unused @ts-expect-error, so a
// binding that stopped catching one of them fails this file.
import type {
  CallToolRequestParams,
  ClientRequestMethod,
  ClientRequests,
  ListToolsResult,
  ParamsOf,
  ServerHandlers,
} from "../../generated/2026-07-28/index.js";
import { METHODS } from "../../generated/2026-07-28/index.js";

const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
} as const;

// A builder-style generic helper, as users write them over the tables.
declare function call<M extends ClientRequestMethod>(
  method: M,
  params: ClientRequests[M]["params"],
): Promise<ClientRequests[M]["result"]>;

// @ts-expect-error misspelt method in a table lookup
type Misspelt = ClientRequests["tools/cal"];

// @ts-expect-error misspelt method in a generic helper
void call("tools/cal", { _meta: meta, name: "x" });

// @ts-expect-error misspelt params key
void call("tools/call", { _meta: meta, nmae: "x" });

// @ts-expect-error missing required field (name)
const missingName: CallToolRequestParams = { _meta: meta };

// @ts-expect-error missing required _meta: modern requests carry version and capabilities every time
const missingMeta: ParamsOf<"tools/call"> = { name: "x" };

// @ts-expect-error a method of another version: there is no initialize handshake in 2026-07-28
void call("initialize", {});

// @ts-expect-error a method of another version in the run-time table
void METHODS["ping"];

declare const listToolsResult: ListToolsResult;

const handlers: ServerHandlers = {
  "completion/complete": () => ({ completion: { values: [] }, resultType: "complete" }),
  "prompts/get": () => ({ messages: [], resultType: "complete" }),
  "prompts/list": () => ({ prompts: [], resultType: "complete", ttlMs: 0, cacheScope: "public" }),
  "resources/list": () => ({ resources: [], resultType: "complete", ttlMs: 0, cacheScope: "public" }),
  "resources/read": () => ({ contents: [], resultType: "complete", ttlMs: 0, cacheScope: "private" }),
  "resources/templates/list": () => ({ resourceTemplates: [], resultType: "complete", ttlMs: 0, cacheScope: "public" }),
  "server/discover": async () => ({
    supportedVersions: ["2026-07-28"],
    capabilities: {},
    serverInfo: { name: "s", version: "1" },
    resultType: "complete",
    ttlMs: 0,
    cacheScope: "public",
  }),
  "subscriptions/listen": () => ({ resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": 1 } }),
  // @ts-expect-error a handler returning the wrong result shape for tools/call
  "tools/call": () => ({ tools: [], resultType: "complete" }),
  "tools/list": () => listToolsResult,
};

const { "tools/list": forgotten, ...withoutToolsList } = handlers;
// @ts-expect-error a handler table that forgets a method (tools/list)
const incomplete: ServerHandlers = withoutToolsList;

export { missingName, missingMeta, incomplete, forgotten };
export type { Misspelt };
