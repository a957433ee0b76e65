// Where a cold `generate --force` spends its time, phase by phase, in one fresh process:
// `node --import tsx bench/profile-generate.ts`. Each phase is timed the first time it runs,
// as a cold run meets it (module loading and JIT warm-up included). As in `render()`, prettier
// loads and formats on its worker thread from the start, beside the main thread's phases; the
// last phase is the wait for it after emission.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const STARTED = performance.now();
const phases: [string, number][] = [];

async function phase<T>(name: string, run: () => T | Promise<T>): Promise<T> {
  const t0 = performance.now();
  const result = await run();
  phases.push([name, performance.now() - t0]);
  return result;
}

const { startFormatter } = await import("../generator/format.ts");
const formatter = startFormatter();
const { openProject } = await phase("import the CLI's load and model modules", () => import("../generator/api.ts"));
const { loadModels } = await import("../generator/generate.ts");
const checkout = openProject({ cwd: join(import.meta.dirname, "..") });
// Before the models: reading a release's pinned schema.ts for its deprecations loads it too.
// Through generator/ts-morph.ts, as the emitters load it: from V8's code cache when an earlier run wrote it.
await phase("import ts-morph (loads TypeScript)", () => import("../generator/ts-morph.ts"));
const models = await phase("load five schemas and build their models", () => loadModels(checkout.project.paths, { releases: checkout.releases }));
const { emitFiles } = await phase("import the emitters", () => import("../generator/emit/index.ts"));
const emitted = await phase("emit every module (handing each to the formatter)", () => {
  const files = [];
  for (const file of emitFiles(models)) {
    formatter.add(file);
    files.push(file);
  }
  return files;
});
// As render() does: write the code cache while the worker formats the last modules.
const { saveCodeCache } = await import("../generator/code-cache.ts");
await phase("write the code cache (when this run compiled from source)", () => saveCodeCache());
const formatted = await phase("wait for the formatting worker", () => formatter.finish());
formatter.close();
const { writeTree } = await import("../generator/write.ts");
const out = mkdtempSync(join(tmpdir(), "mcp-bindgen-profile-"));
await phase("write the tree", () => writeTree(join(out, "generated"), new Map(formatted.map((f) => [f.path, f.content]))));
rmSync(out, { recursive: true, force: true });

const total = performance.now() - STARTED;
const startup = STARTED;
const rows: [string, number][] = [["node + tsx start-up (before this script ran)", startup], ...phases];
const width = Math.max(...rows.map(([n]) => n.length));
for (const [name, ms] of rows) process.stdout.write(`${name.padEnd(width)}  ${ms.toFixed(0).padStart(5)} ms  ${((ms / (total + startup)) * 100).toFixed(0).padStart(3)} %\n`);
process.stdout.write(`${"total".padEnd(width)}  ${(total + startup).toFixed(0).padStart(5)} ms\n`);
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
const { prettierInput } = await import("../generator/format.ts");
const formattable = emitted.filter((f) => !f.verbatim);
const seen = formattable.reduce((n, f) => n + prettierInput(f.content).source.length, 0);
process.stdout.write(
  `prettier sees ${kb(seen)} of the ${kb(formattable.reduce((n, f) => n + f.content.length, 0))} emitted (the rest is printed by the emitters or already in prettier's form; the runtime, ${kb(emitted.reduce((n, f) => n + (f.verbatim ? f.content.length : 0), 0))}, is copied)\n`,
);
const bySize = [...emitted].sort((a, b) => b.content.length - a.content.length).slice(0, 5);
process.stdout.write(
  `largest emitted modules: ${bySize.map((f) => `${f.path} ${kb(f.content.length)}`).join(", ")}; all ${kb(emitted.reduce((n, f) => n + f.content.length, 0))}\n`,
);
