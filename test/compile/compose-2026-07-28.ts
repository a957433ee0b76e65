// The bindings compose: what the builders build, encode takes; parse gives typed messages. Checked by tsc.
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
} from "../../generated/2026-07-28/index.js";
import type * as v2026 from "../../generated/2026-07-28/index.js";

export const typed: string = encode(resultResponse<"tools/list">(1, { tools: [], ttlMs: 0, cacheScope: "private" }));
export const untyped: string = encode(resultResponse(1, { tools: [], ttlMs: 0, cacheScope: "private" }));
export const error: string = encode(errorResponse(null, "ParseError", "not JSON"));
export const req: string = encode(request("tools/call", { name: "x" }, { id: 1, clientCapabilities: {} }));

declare const caps: v2026.ClientCapabilities;
export const probe = root.request("tools/list", {}, { id: 1, protocolVersion: "2026-07-28", clientCapabilities: caps });
export const rootEncoded: string = root.encode(
  resultResponse<"tools/list">(2, { tools: [], ttlMs: 0, cacheScope: "private" }),
);

export function narrow(message: ValidatedMessage): string | undefined {
  if (message.kind === "request" && message.method === "tools/call") return message.params.name;
  if (message.kind === "notification" && message.method === "notifications/cancelled")
    return String(message.params.requestId);
  return undefined;
}

export function errorId(message: ParsedMessage): RequestId | null | undefined {
  return message.kind === "error" ? message.id : undefined;
}

export function unvalidated(message: ParsedMessage): unknown {
  // Unchecked params are not typed: only a validated message narrows to the table's params.
  // @ts-expect-error params may be absent, and an unknown method's params are any object
  return message.kind === "request" && message.method === "tools/call" ? message.params.name : undefined;
}

export function narrowValidated(text: string): string | undefined {
  const parsed = parse(text, { validate: true });
  if (!parsed.ok) return undefined;
  const m = parsed.message;
  return m.kind === "request" && m.method === "tools/call" ? m.params.name : undefined;
}

// @ts-expect-error only errorResponse builds a null id: a result answers a request whose id is known
resultResponse(null, { content: [] });
// @ts-expect-error initialize is not a method of a modern release
request("initialize", {}, { id: 1, clientCapabilities: {} });
// @ts-expect-error requestState belongs to the retry of an input_required call, not to tools/list
request("tools/list", { requestState: "s" }, { id: 1, clientCapabilities: {} });

// Cross-era misuse through the version-agnostic request, where the types can see it.
const hello = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } };
export const legacyHandshake = root.request("initialize", hello, { id: 1 });
export const modernProbe = root.request("server/discover", {}, { id: 2, protocolVersion: "2026-07-28" });
export const futureProbe = root.request("tools/list", {}, { id: 3, protocolVersion: "2027-01-01" });
// @ts-expect-error initialize exists only in legacy releases: a modern protocolVersion on it is cross-era misuse
root.request("initialize", hello, { id: 4, protocolVersion: "2026-07-28" });
// @ts-expect-error server/discover exists only in modern releases: without a protocolVersion no server can read it
root.request("server/discover", {}, { id: 5 });
// @ts-expect-error server/discover exists only in modern releases: a legacy protocolVersion on it is cross-era misuse
root.request("server/discover", {}, { id: 6, protocolVersion: "2025-11-25" });
