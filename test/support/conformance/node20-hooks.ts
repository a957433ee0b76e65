// Module resolution hook registered by node20.ts: only imports of "fs" from the conformance package are redirected,
// to node:fs plus a globSync that says why it is missing (reaching it means a command the tests do not run).
import type { ResolveHook } from "node:module";

const SHIM = `data:text/javascript,${encodeURIComponent(`import fs from "node:fs";
export * from "node:fs";
export default fs;
export function globSync() {
  throw new Error("fs.globSync needs Node 22; on Node 20 the conformance suite's tier-check command is unavailable");
}`)}`;

export const resolve: ResolveHook = (specifier, context, nextResolve) => {
  if (
    (specifier === "fs" || specifier === "node:fs") &&
    context.parentURL?.includes("/node_modules/@modelcontextprotocol/conformance/")
  ) {
    return { url: SHIM, shortCircuit: true };
  }
  return nextResolve(specifier, context);
};
