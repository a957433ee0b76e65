#!/usr/bin/env node
// The published package runs the compiled generator (dist/, built on prepack). A checkout that
// has not been built runs the TypeScript source through tsx, one of its devDependencies.
import { existsSync } from "node:fs";
import { fileURLToPath, URL } from "node:url";
import { hideBin } from "yargs/helpers";

const compiled = new URL("../dist/generator/cli.js", import.meta.url);
let main;
if (existsSync(fileURLToPath(compiled))) {
  ({ main } = await import(compiled.href));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../generator/cli.ts"));
}
process.exitCode = await main(hideBin(process.argv));
