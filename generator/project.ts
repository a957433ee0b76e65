import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSchema } from "./load/load-schema.ts";
import { readLock } from "./load/lock.ts";
import { pull, schemaPath } from "./load/pull.ts";
import { readSourceDeprecations } from "./load/typescript-deprecations.ts";
import { buildModel } from "./model/build.ts";
import { loadFacts } from "./model/facts.ts";
import type { ProtocolModel } from "./model/protocol-model.ts";

/** Where a project keeps its inputs and output. Tests point these at temporary folders. */
export interface ProjectPaths {
  readonly schemaDir: string;
  readonly factsFile: string;
  readonly generatedDir: string;
}

export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export function defaultPaths(root = PACKAGE_ROOT): ProjectPaths {
  return {
    schemaDir: join(root, "schema"),
    factsFile: join(root, "schema", "facts.json"),
    generatedDir: join(root, "generated"),
  };
}

export interface LoadOptions {
  readonly versions?: readonly string[];
  readonly from?: string | undefined;
  readonly env?: string | undefined;
  readonly log?: (line: string) => void;
}

/** Pulls what is missing, then builds the model of each requested version (newest first). */
export async function loadModels(paths: ProjectPaths, options: LoadOptions = {}): Promise<ProtocolModel[]> {
  const lock = readLock(join(paths.schemaDir, "lock.json"));
  const versions = options.versions && options.versions.length > 0 ? options.versions : [...lock.versions.keys()];
  const missing = versions.filter((v) => !existsSync(schemaPath(paths.schemaDir, v)));
  if (missing.length > 0 || options.from !== undefined) {
    await pull({ schemaDir: paths.schemaDir, versions, from: options.from, env: options.env, ...(options.log ? { log: options.log } : {}) });
  }
  const facts = loadFacts(paths.factsFile);
  const fresh = readLock(join(paths.schemaDir, "lock.json"));
  return versions.map((version) => {
    const schema = loadSchema(schemaPath(paths.schemaDir, version), fresh.versions.get(version)?.sha256);
    const pin = fresh.versions.get(version)?.typescript;
    const deprecations = pin ? readSourceDeprecations(join(paths.schemaDir, version, "schema.ts"), pin.sha256) : null;
    return buildModel(version, schema, facts, deprecations === null ? null : { deprecations, source: pin!.url });
  });
}
