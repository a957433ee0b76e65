// _meta is the protocol's extension point: open in every release (schema.ts: MetaObject = Record<string, unknown>),
// with the reserved keys still typed. Checked by tsc through test/emit/compile.test.ts.
import type {
  CallToolRequestParams,
  CallToolResult,
  ProgressNotificationParams,
} from "../../generated/2025-11-25/index.js";

export const params: CallToolRequestParams = { name: "t", _meta: { "com.example/trace": "abc", progressToken: 1 } };
export const result: CallToolResult = { content: [], _meta: { "com.example/cost": 3 } };
export const note: ProgressNotificationParams = { progress: 1, progressToken: "t", _meta: { "com.example/span": "s" } };

export function readVendorKey(p: CallToolRequestParams): unknown {
  return p._meta?.["com.example/trace"];
}

export const wrongReserved: CallToolRequestParams = {
  name: "t",
  // @ts-expect-error a reserved key keeps its type: a progress token is a string or a number
  _meta: { progressToken: { nested: true } },
};

// @ts-expect-error _meta is an object, not a string
export const notAnObject: CallToolResult = { content: [], _meta: "x" };
