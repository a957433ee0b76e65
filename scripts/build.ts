// `npm run build` (and `npm pack`, through prepack): the generator compiled to dist/ for the
// published package, whose bin then loads neither tsx nor esbuild.
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const dist = join(root, "dist");
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const result = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });
if (result.status !== 0) process.exit(result.status ?? 1);
// The runtime is copied into every output as source text, so its .ts files ship beside their compiled form.
const runtime = join(root, "generator", "runtime");
for (const name of readdirSync(runtime).filter((n) => n.endsWith(".ts"))) cpSync(join(runtime, name), join(dist, "generator", "runtime", name));
