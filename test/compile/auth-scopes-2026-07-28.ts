// The bearer gate's typed faces: a scope table names the release's methods and a server's tools (as a
// `servers/<name>.ts` `ToolName` gives them), so a misspelt one does not compile, and the verified identity
// reaches handlers typed once `Identity` is merged with `BearerIdentity` (partly, as this one program holds other
// gates whose identities are a bare subject).
import { createBearerGate, createHttpHandler, type BearerIdentity, type Verify } from "../../generated/index.js";
import * as legacy from "../../generated/2025-11-25/index.js";
import * as modern from "../../generated/2026-07-28/index.js";

declare module "../../generated/runtime/server/request-gate.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds the base
  interface Identity extends Partial<BearerIdentity> {}
}

/** As `servers/<name>.ts` exports it. */
type ToolName = "get-forecast" | "set-alarm";

const scopes: modern.ScopeTable<ToolName> = {
  all: ["mcp:read"],
  methods: { "tools/call": ["mcp:tools"], "tools/list": ["mcp:read"] },
  tools: { "set-alarm": ["alarms:write"] },
};

// @ts-expect-error a misspelt method
const misspeltMethod: modern.ScopeTable<ToolName> = { methods: { "tools/cal": ["mcp:tools"] } };
// @ts-expect-error a misspelt tool
const misspeltTool: modern.ScopeTable<ToolName> = { tools: { "set-alarms": ["alarms:write"] } };
// @ts-expect-error without a server's tool names, no tool row is known
const noTools: modern.ScopeTable = { tools: { "set-alarm": ["alarms:write"] } };
// @ts-expect-error a method 2026-07-28 no longer has (the 2025 session's initialize)
const gone: modern.ScopeTable = { methods: { initialize: ["mcp:read"] } };
const legacyScopes: legacy.ScopeTable<ToolName> = { methods: { initialize: [] }, tools: { "get-forecast": [] } };

declare const verify: Verify;
const gate = createBearerGate({
  resource: "https://mcp.example.com/mcp",
  authorizationServers: ["https://as.example.com"],
  verify,
  rules: [modern.RESOURCE_SERVER_RULES, legacy.RESOURCE_SERVER_RULES],
  scopes,
});

createHttpHandler({
  stateless: modern.statelessEra({
    "tools/call": (params, ctx) => {
      const identity = ctx.context.identity;
      const who: string | undefined = identity?.clientId;
      const granted: readonly string[] = identity?.scopes ?? [];
      const expires: number | undefined = identity?.expiresAt;
      // @ts-expect-error the identity carries no token
      void identity?.token;
      return { content: [{ type: "text", text: `${params.name} ${who} ${granted.join()} ${expires}` }] };
    },
  }),
  authorize: gate.authorize,
  permit: gate.permit,
});

export { misspeltMethod, misspeltTool, noTools, gone, legacyScopes };
