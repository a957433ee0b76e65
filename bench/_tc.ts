import { benchTypecheck } from "./typecheck.ts";
for (const r of benchTypecheck()) console.log(JSON.stringify(r));
