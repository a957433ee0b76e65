import { join } from "node:path";
import { loadSchema } from "../load/load-schema.ts";
import { VERSION_PATTERN, type Lock } from "../load/lock.ts";
import { storeLock, type SchemaStore } from "../load/pull.ts";
import { placeSchemas, type PlacedSchema, type SchemaSources } from "../load/schemas.ts";
import { buildModel } from "./build.ts";
import { loadFacts } from "./facts.ts";
import type { ProtocolModel } from "./protocol-model.ts";

// Loading models, the one way generate, check, list and diff get theirs: lock → schemas → facts → models.

/** Where models come from: the schema store and the facts file. */
export interface ModelSources extends SchemaStore {
  readonly factsFile: string;
}

export interface LoadOptions extends SchemaSources {
  /** The releases to load, newest first. */
  readonly releases: readonly string[];
}

/** Places the schemas (see placeSchemas), then builds the model of each release, verifying each file against the lock. */
export async function loadModels(paths: ModelSources, options: LoadOptions): Promise<ProtocolModel[]> {
  const lock = storeLock(paths);
  return modelsOf(paths, await placeSchemas(paths, options.releases, options, lock), lock);
}

/**
 * Each release's model; a release's pinned schema.ts, when pull placed it, adds its deprecations.
 * Reading schema.ts needs TypeScript, imported here rather than at the top so that a run with
 * nothing to render (and `--help`) never loads it: that alone took the no-op run past 1 s.
 */
export async function modelsOf(
  paths: ModelSources,
  placed: ReadonlyMap<string, PlacedSchema>,
  lock: Lock,
): Promise<ProtocolModel[]> {
  const { readSourceDeprecations, readSourceProtocolVersion } = await import("../load/typescript-deprecations.ts");
  const facts = loadFacts(paths.factsFile);
  return [...placed].map(([version, { file, sha256 }]) => {
    const pin = lock.versions.get(version)?.typescript;
    const typescript = join(paths.cacheDir, version, "schema.ts");
    const deprecations = pin ? readSourceDeprecations(typescript, pin.sha256) : null;
    // A dated release is its own version string; only a draft's comes from its schema.ts.
    const protocolVersion =
      deprecations === null || VERSION_PATTERN.test(version) ? null : readSourceProtocolVersion(typescript);
    return buildModel(
      version,
      loadSchema(file, sha256),
      facts,
      deprecations === null ? null : { deprecations, source: pin!.url, protocolVersion },
    );
  });
}
