import { join } from "node:path";
import { buildModel } from "../model/build.ts";
import { loadFacts } from "../model/facts.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import type { ProjectPaths } from "../project/project.ts";
import { loadSchema } from "./load-schema.ts";
import type { Lock } from "./lock.ts";
import { storeLock } from "./pull.ts";
import { placeSchemas, type PlacedSchema, type SchemaSources } from "./schemas.ts";

// Loading models, the one way generate, check, list and diff get theirs: lock → schemas → facts → models.

export interface LoadOptions extends SchemaSources {
  /** The releases to load, newest first. */
  readonly releases: readonly string[];
}

/** Places the schemas (see placeSchemas), then builds the model of each release, verifying each file against the lock. */
export async function loadModels(paths: ProjectPaths, options: LoadOptions): Promise<ProtocolModel[]> {
  const lock = storeLock(paths);
  return modelsOf(paths, await placeSchemas(paths, options.releases, options, lock), lock);
}

/**
 * Each release's model; a release's pinned schema.ts, when pull placed it, adds its deprecations.
 * Reading schema.ts needs TypeScript, imported here rather than at the top so that a run with
 * nothing to render (and `--help`) never loads it: that alone took the no-op run past 1 s.
 */
export async function modelsOf(
  paths: ProjectPaths,
  placed: ReadonlyMap<string, PlacedSchema>,
  lock: Lock,
): Promise<ProtocolModel[]> {
  const { readSourceDeprecations } = await import("./typescript-deprecations.ts");
  const facts = loadFacts(paths.factsFile);
  return [...placed].map(([version, { file, sha256 }]) => {
    const pin = lock.versions.get(version)?.typescript;
    const deprecations = pin ? readSourceDeprecations(join(paths.cacheDir, version, "schema.ts"), pin.sha256) : null;
    return buildModel(
      version,
      loadSchema(file, sha256),
      facts,
      deprecations === null ? null : { deprecations, source: pin!.url },
    );
  });
}
