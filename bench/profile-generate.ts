// Where a cold `generate --force` spends its time, phase by phase, in one fresh process:
// `node --import tsx bench/profile-generate.ts`. Each phase is timed the first time it runs,
// as a cold run meets it (module loading and JIT warm-up included).
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

const { openProject } = await phase("import the CLI's load and model modules", () => import("../generator/api.ts"));
const { loadModels } = await import("../generator/model/load-models.ts");
const checkout = openProject({ cwd: join(import.meta.dirname, "..") });
// Before the models: reading a release's pinned schema.ts for its deprecations loads it too.
await phase("load ts-morph (and TypeScript)", () => import("../generator/common/ts-morph.ts"));
const models = await phase("load five schemas and build their models", () =>
  loadModels(checkout.project.paths, { releases: checkout.releases }),
);
const { emitFiles } = await phase("import the emitters", () => import("../generator/emit/index.ts"));
const emitted = await phase("emit every module", () => [...emitFiles(models)]);
const { formatFiles } = await import("../generator/output/format.ts");
const formatted = await phase("format with prettier (its import included)", () => formatFiles(emitted));
const { writeTree } = await import("../generator/output/write.ts");
const out = mkdtempSync(join(tmpdir(), "mcp-bindgen-profile-"));
await phase("write the tree", () =>
  writeTree(join(out, "generated"), new Map(formatted.map((f) => [f.path, f.content]))),
);
rmSync(out, { recursive: true, force: true });

const total = performance.now() - STARTED;
const startup = STARTED;
const rows: [string, number][] = [["node + tsx start-up (before this script ran)", startup], ...phases];
const width = Math.max(...rows.map(([n]) => n.length));
for (const [name, ms] of rows)
  process.stdout.write(
    `${name.padEnd(width)}  ${ms.toFixed(0).padStart(5)} ms  ${((ms / (total + startup)) * 100).toFixed(0).padStart(3)} %\n`,
  );
process.stdout.write(`${"total".padEnd(width)}  ${(total + startup).toFixed(0).padStart(5)} ms\n`);
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
const formattable = emitted.filter((f) => !f.verbatim);
process.stdout.write(
  `prettier formats ${kb(formattable.reduce((n, f) => n + f.content.length, 0))} (the runtime, ${kb(emitted.reduce((n, f) => n + (f.verbatim ? f.content.length : 0), 0))}, is copied)\n`,
);
const bySize = [...emitted].sort((a, b) => b.content.length - a.content.length).slice(0, 5);
process.stdout.write(
  `largest emitted modules: ${bySize.map((f) => `${f.path} ${kb(f.content.length)}`).join(", ")}; all ${kb(emitted.reduce((n, f) => n + f.content.length, 0))}\n`,
);
