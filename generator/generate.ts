import { emitAll } from "./emit/index.ts";
import type { EmittedFile } from "./emit/emitted.ts";
import { formatFiles } from "./format.ts";
import type { ProtocolModel } from "./model/protocol-model.ts";
import { loadModels, type LoadOptions, type ProjectPaths } from "./project.ts";
import { acquireLock, writeTree } from "./write.ts";

export interface GenerateReport {
  readonly versions: readonly { version: string; era: string; types: number; methods: number; errorCodes: number; ms: number }[];
  readonly files: number;
  readonly ms: number;
}

/** Everything but the write: models → emitters → prettier. Pure, so `--check` can compare. */
export async function render(models: readonly ProtocolModel[]): Promise<EmittedFile[]> {
  const files = await formatFiles(emitAll(models));
  return [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export async function generate(paths: ProjectPaths, options: LoadOptions = {}): Promise<GenerateReport> {
  const started = performance.now();
  const models = await loadModels(paths, options);
  const files = await render(models);
  const release = acquireLock(paths.generatedDir);
  try {
    writeTree(paths.generatedDir, new Map(files.map((f) => [f.path, f.content])));
  } finally {
    release();
  }
  return {
    versions: models.map((m) => ({
      version: m.version,
      era: m.era,
      types: m.definitions.size,
      methods: m.methods.length,
      errorCodes: m.errorCodes.length,
      ms: 0,
    })),
    files: files.length,
    ms: Math.round(performance.now() - started),
  };
}
