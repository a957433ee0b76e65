// The README's exact-types example, kept compiling: if its promises break, so does this file.
import * as mcp from "../../generated/2026-07-28/index.js";

export const invalid = new mcp.RpcError(mcp.ErrorCode.InvalidParams, "bad city"); // the release's codes only: 12345 is a compile error
export const quota = mcp.RpcError.custom(12345, "quota exceeded"); // an application's own code, visibly
export const callTool: mcp.ServerHandler<"tools/call", { user: string }> = async ({ name }, ctx) => ({
  content: [{ type: "text", text: `${name} ${ctx.context.user}` }],
});
export const kind: mcp.ResultType = "complete"; // "complete" | "input_required" | (string & {}): listed, and still open
const TOOLS = [{ name: "add", inputSchema: { type: "object", $defs: {}, allOf: [] } }] as const; // JSON Schema objects stay open
export const dispatcher = mcp.createServerDispatcher({
  "tools/list": () => ({ tools: TOOLS, ttlMs: 0, cacheScope: "public" }),
}); // readonly data fits
// @ts-expect-error as the README says: 12345 is no ErrorCode of 2026-07-28
export const typo = new mcp.RpcError(12345, "typo");
export const traced = mcp.request(
  "tools/list",
  { _meta: { "com.example/trace": "t1" } },
  { id: 1, clientCapabilities: {} },
); // your _meta keys stay open
export const misspelt = mcp.request(
  "tools/list",
  // @ts-expect-error as the README says: a misspelt key under a reserved prefix is a compile error
  { _meta: { "io.modelcontextprotocol/protocolVerson": "x" } },
  { id: 2, clientCapabilities: {} },
);
const built = mcp.resultResponse<"tools/call">(1, { content: [] });
export const carried: "complete" = built.result.resultType; // the value it carries
