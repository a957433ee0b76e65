#!/usr/bin/env node
// The generator is TypeScript run through tsx, so the published package needs no build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../generator/cli.ts");
const { hideBin } = await import("yargs/helpers");
process.exitCode = await main(hideBin(process.argv));
