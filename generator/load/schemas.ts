import { BindgenError } from "../common/failures.ts";
import type { Lock } from "./lock.ts";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pull, schemaPath, storeLock, unplaced, type SchemaStore } from "./pull.ts";

export interface SchemaSources {
  /** `--from DIR|URL`: the chosen releases are taken from there, whatever the cache holds. */
  readonly from?: string | undefined;
  /** `MCP_SCHEMA_DIR`: used for what the cache lacks, before the lock's URLs. */
  readonly env?: string | undefined;
  /** Also place the official examples the lock pins (the config's `examples`). */
  readonly examples?: boolean;
  /** Never download: what the cache lacks must come from `from` or `env` (`generate --check`). */
  readonly offline?: boolean;
  readonly log?: (line: string) => void;
}

export interface PlacedSchema {
  readonly file: string;
  /** The sha256 the lock pins; every reader verifies the file against it. */
  readonly sha256: string;
}

/**
 * The one place commands get their schemas: pulls into the cache what is missing or no longer
 * matches the lock (and, when the config asks, the examples it pins), and names each release's
 * file and hash.
 */
export async function placeSchemas(
  store: SchemaStore,
  versions: readonly string[],
  sources: SchemaSources = {},
  lock: Lock = storeLock(store),
): Promise<Map<string, PlacedSchema>> {
  // A release with a named copy (--from, the lock's folder, MCP_SCHEMA_DIR holding it) goes through pull on every
  // use, which reads and verifies that copy; the others only when the cache lacks them.
  const lacking = new Set(unplaced(store, lock, versions, sources.examples === true && !sources.offline));
  const named = (v: string) => sources.from !== undefined || lockedFolder(store, lock, v) || envHolds(sources.env, v);
  const wanted = versions.filter((v) => named(v) || lacking.has(v));
  if (wanted.length > 0) {
    const missing = wanted.filter((v) => !named(v));
    if (sources.offline && sources.env === undefined && missing.length > 0) {
      const file = schemaPath(store.cacheDir, missing[0]!);
      throw new BindgenError(
        file,
        "",
        "a cached copy verified against the lock",
        `${missing.join(", ")} not in the cache; run "npx mcp-bindgen pull" once with network access, or set MCP_SCHEMA_DIR to a folder laid out as <release>/schema.json`,
      );
    }
    await pull({
      ...store,
      versions: wanted,
      from: sources.from,
      env: sources.env,
      examples: sources.examples === true && !sources.offline,
      ...(sources.log ? { log: sources.log } : {}),
    });
  }
  return new Map(
    versions.map((v) => [v, { file: schemaPath(store.cacheDir, v), sha256: lock.versions.get(v)!.sha256 }]),
  );
}

/** Whether the lock records the release from a local folder that is there: pull reads it from that folder (no download). */
function lockedFolder(store: SchemaStore, lock: Lock, version: string): boolean {
  const url = lock.versions.get(version)?.url;
  return url !== undefined && !/^https?:\/\//i.test(url) && existsSync(resolve(dirname(store.lockFile), url));
}

function envHolds(env: string | undefined, version: string): boolean {
  return env !== undefined && !/^https?:\/\//i.test(env) && existsSync(schemaPath(resolve(env), version));
}
