// Preload for running @modelcontextprotocol/conformance on Node 20: `node --import tsx --import ./test/support/conformance/node20.ts …`.
// Its bundle imports `globSync` from "fs" at top level (Node 22 added it) but calls it only in `tier-check`,
// which the tests never run. The hook hands that one package an "fs" that adds a globSync which says so.
import { register } from "node:module";

register("./node20-hooks.ts", import.meta.url);
