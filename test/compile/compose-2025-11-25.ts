// The bindings compose in a legacy release too: builders' output encodes, id-null errors parse, validated messages narrow. Checked by tsc.
import * as root from "../../generated/index.js";
import {
  encode,
  errorResponse,
  parse,
  request,
  resultResponse,
  type ParsedMessage,
  type RequestId,
  type ValidatedMessage,
} from "../../generated/2025-11-25/index.js";
import type * as v2025 from "../../generated/2025-11-25/index.js";

export const typed: string = encode(resultResponse<"tools/list">(1, { tools: [] }));
export const untyped: string = encode(resultResponse(1, { tools: [] }));
export const error: string = encode(errorResponse(null, "InvalidRequest", "no id"));
export const req: string = encode(request("tools/call", { name: "x" }, { id: 1 }));

declare const caps: v2025.ClientCapabilities;
export const probe = root.request("tools/list", {}, { id: 1, protocolVersion: "2025-11-25", clientCapabilities: caps });
export const rootEncoded: string = root.encode(
  resultResponse<"initialize">(2, {
    protocolVersion: "2025-11-25",
    capabilities: {},
    serverInfo: { name: "s", version: "1" },
  }),
);
export const rootResult = root.resultResponse(3, resultResponse<"tools/list">(3, { tools: [] }).result);

export function narrow(message: ValidatedMessage): string | undefined {
  if (message.kind === "request" && message.method === "tools/call") return message.params.name;
  if (message.kind === "request" && message.method === "initialize") return message.params.protocolVersion;
  return undefined;
}

export function errorId(message: ParsedMessage): RequestId | null | undefined {
  return message.kind === "error" ? message.id : undefined;
}

export function validated(text: string): string | undefined {
  const parsed = parse(text, { validate: true });
  return parsed.ok && parsed.message.kind === "request" && parsed.message.method === "tools/call"
    ? parsed.message.params.name
    : undefined;
}

// @ts-expect-error requestState is a modern retry's field: a legacy tools/call has no such param
request("tools/call", { name: "x", requestState: "s" }, { id: 1 });
// @ts-expect-error server/discover is not a method of a legacy release
request("server/discover", {}, { id: 1 });
// @ts-expect-error only errorResponse builds a null id
resultResponse(null, { tools: [] });
