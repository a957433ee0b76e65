import type { ProtocolModel } from "../model/protocol-model.ts";

// What a release must have for the high-level server (runtime/server/mcp-server.ts `createMcpServer`): read by
// server.ts's MCP_RELEASE and by answers.ts, which holds what its handlers answer.

/**
 * RFC 5424's severities, least severe first: the order `LoggingLevel`'s description points to (its enum is
 * alphabetical), which the high-level server filters log messages by.
 */
export const SYSLOG_SEVERITIES = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** What the high-level server's types and facts read of a release: without one of them it has no `MCP_RELEASE`. */
export const MCP_RELEASE_NEEDS = {
  methods: ["tools/call", "prompts/get", "resources/read"],
  definitions: ["Tool", "Prompt", "Resource", "ResourceTemplate", "LoggingLevel"],
} as const;

/**
 * Whether the release has an `MCP_RELEASE` (and an answers.ts): a partial or synthetic schema without tools, or with
 * log levels that are not RFC 5424 severities (whose order the server filters by), has none.
 */
export function servesMcpRelease(model: ProtocolModel): boolean {
  const levels = model.definitions.get("LoggingLevel")?.schema.enum;
  return (
    levels !== undefined &&
    levels.every((level) => typeof level === "string" && SYSLOG_SEVERITIES.includes(level)) &&
    MCP_RELEASE_NEEDS.methods.every((name) => model.methods.some((m) => m.name === name)) &&
    MCP_RELEASE_NEEDS.definitions.every((name) => model.definitions.has(name))
  );
}

/** The definitions the results of the high-level server's methods are, in `model`'s order. */
export function answerRoots(model: ProtocolModel): string[] {
  return MCP_RELEASE_NEEDS.methods.flatMap((name) => model.methods.find((m) => m.name === name)?.results ?? []);
}
