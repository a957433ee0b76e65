/** A stateless (2026-07-28) server's `server/discover` result, for tests that play the server by hand. */
export const DISCOVERED = {
  resultType: "complete",
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: {} },
  serverInfo: { name: "s", version: "1" },
  ttlMs: 0,
  cacheScope: "private",
};
