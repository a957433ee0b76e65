// Preload that lets the official conformance suite (@modelcontextprotocol/conformance) start on Node 20:
//   node --import ./node_modules/mcp-bindgen/bin/conformance-node20.js \
//     node_modules/@modelcontextprotocol/conformance/dist/index.js server --url http://127.0.0.1:3000/mcp
// The suite's bundle imports `globSync` from "fs" at top level (Node 22 added it) but calls it only in its
// `tier-check` command. Where Node lacks it, that one package's imports of "fs" get node:fs plus a globSync that says
// why it is missing; on Node 22 and later this registers nothing.
import fs from "node:fs";
import { register } from "node:module";

const SHIM = `import fs from "node:fs";
export * from "node:fs";
export default fs;
export function globSync() {
  throw new Error("fs.globSync needs Node 22; on Node 20 the conformance suite's tier-check command is unavailable");
}`;

// The hooks run on the loader's thread, so they travel as a module of their own (a data: URL: one file to ship).
const HOOKS = `const SHIM = ${JSON.stringify(`data:text/javascript,${encodeURIComponent(SHIM)}`)};
export function resolve(specifier, context, nextResolve) {
  if (
    (specifier === "fs" || specifier === "node:fs") &&
    context.parentURL?.includes("/node_modules/@modelcontextprotocol/conformance/")
  )
    return { url: SHIM, shortCircuit: true };
  return nextResolve(specifier, context);
}`;

if (typeof fs.globSync !== "function") register(`data:text/javascript,${encodeURIComponent(HOOKS)}`);
