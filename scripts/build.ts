// `npm run build` (and `npm pack`, through prepack): the generator compiled to dist/ for the
// published package, whose bin then loads neither tsx nor esbuild.
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { SOURCE_HASH_FILE, sourceHash } from "../generator/output/stamp.ts";

const root = join(import.meta.dirname, "..");
const dist = join(root, "dist");
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const result = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });
if (result.status !== 0) process.exit(result.status ?? 1);
// The runtime is copied into every output as source text, so its .ts files ship beside their compiled form.
const runtime = join(root, "generator", "runtime");
for (const path of readdirSync(runtime, { recursive: true, encoding: "utf8" }).filter((p) => p.endsWith(".ts")))
  cpSync(join(runtime, path), join(dist, "generator", "runtime", path));
// The stamp's identity of the code: the sources', so a run of the compiled bin and one under tsx reuse each other's output.
writeFileSync(join(dist, "generator", SOURCE_HASH_FILE), `${sourceHash(join(root, "generator"))}\n`);
