// The reserved-key checks of runtime/core/meta-keys.ts on a made-up release, used as a release's meta.ts, envelope.ts and
// dispatch.ts use them (test/runtime/core/meta-keys.test.ts): each @ts-expect-error row must stay a compile error,
// everything else must compile. test/compile/meta-prefixes.ts holds the prefix rule on the spec's own examples.
import type {
  CheckedMetaField,
  CheckedMetaOf,
  CheckedResultsOf,
  IsReservedMetaKey,
  UnknownHandlerMethod,
  UnknownReservedMetaKey,
} from "../../generator/runtime/core/meta-keys.ts";

type Known = "io.modelcontextprotocol/protocolVersion" | "progressToken";
type Labels = "modelcontextprotocol" | "mcp";
type Checked<Meta> = CheckedMetaOf<Meta, Known, Labels, "second">;

// A caller's _meta: reserved keys must be known, every other key stays open.
declare function send<Meta>(meta: Meta & Checked<Meta>): void;
send({ "io.modelcontextprotocol/protocolVersion": "2026-07-28", progressToken: 1 });
send({ "com.example/trace": "t", "com.example.mcp/x": 1, plain: true });
// @ts-expect-error a misspelt reserved key
send({ "io.modelcontextprotocol/protocolVersoin": "2026-07-28" });
// @ts-expect-error any key under a reserved prefix the release does not list
send({ "dev.mcp/anything": 1 });
const open: { [key: string]: unknown } = { "io.modelcontextprotocol/extension": 1 };
send(open);

// The error reads as a sentence naming the key.
export const sentence: UnknownReservedMetaKey<"dev.mcp/x"> =
  "dev.mcp/x is under a _meta prefix MCP reserves but is no MetaKey of this release";

// Releases before 2025-06-18 reserve nothing.
declare function sendOld<Meta>(meta: Meta & CheckedMetaOf<Meta, Known, Labels, "none">): void;
sendOld({ "dev.mcp/anything": 1 });
export const oldRule: IsReservedMetaKey<"io.modelcontextprotocol/x", Labels, "none"> = false;

// Params that may carry _meta, as a generic wrapper passes them.
declare function notify<Meta>(params: { level: string } & CheckedMetaField<Meta, Checked<Meta>>): void;
notify({ level: "info", _meta: { progressToken: "p" } });
notify({ level: "info" });
// @ts-expect-error a misspelt reserved key in params' _meta
notify({ level: "info", _meta: { "io.mcp/typo": 1 } });

// A handler table as the dispatchers infer it: results' _meta checked, methods checked.
type Methods = "tools/call" | "ping";
type Table = {
  readonly "tools/call"?: (params: {
    name: string;
  }) => { content: unknown[]; _meta?: object } | Promise<{ content: unknown[]; _meta?: object }>;
  readonly ping?: () => object;
};
declare function dispatcher<Handlers = unknown>(
  handlers: Table & CheckedResultsOf<Handlers, Methods, Known, Labels, "second">,
): void;
dispatcher({ "tools/call": (params) => ({ content: [params.name], _meta: { "com.example/x": 1 } }), ping: () => ({}) });
dispatcher({ "tools/call": async () => ({ content: [], _meta: { progressToken: 1 } }) });
dispatcher({
  // @ts-expect-error a result's misspelt reserved key
  "tools/call": () => ({ content: [], _meta: { "io.modelcontextprotocol/protocolVersoin": "x" } }),
});
dispatcher({
  // @ts-expect-error the same in a promise
  "tools/call": async () => ({ content: [], _meta: { "dev.mcp/x": 1 } }),
});
dispatcher({
  // @ts-expect-error a method this side does not receive
  "tools/cal": () => ({ content: [] }),
});
export const unknownMethod: UnknownHandlerMethod<"tools/cal"> = "tools/cal is no method this side receives";
