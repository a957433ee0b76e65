import { existsSync, statSync } from "node:fs";
import { basename, dirname, extname, join, resolve, sep } from "node:path";
import { BindgenError, UsageError } from "../common/failures.ts";
import { loadModels, type ModelSources } from "../model/load-models.ts";
import { loadSchema } from "../load/load-schema.ts";
import { VERSION_PATTERN, type Lock } from "../load/lock.ts";
import type { SchemaSources } from "../load/schemas.ts";
import { buildModel } from "../model/build.ts";
import { loadFacts } from "../model/facts.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";

/**
 * `<old>`/`<new>` of `diff`: a release in the locks (pulled if missing), or a schema file (or a
 * folder holding schema.json) such as an unreleased draft, which is read as is.
 */
export async function loadDiffSide(
  paths: ModelSources,
  lock: Lock,
  arg: string,
  sources: SchemaSources,
  cwd: string,
): Promise<ProtocolModel> {
  if (lock.versions.has(arg)) {
    const [model] = await loadModels(paths, { releases: [arg], ...sources });
    return model!;
  }
  const file = schemaFileOf(resolve(cwd, arg));
  // Something shaped like a path is a file the user expected to exist: a failure, not a usage error.
  if (!file && (arg.includes("/") || arg.includes(sep) || arg.endsWith(".json"))) {
    throw new BindgenError(
      resolve(cwd, arg),
      "",
      "a readable schema file (or a folder holding schema.json)",
      "file not found",
    );
  }
  if (!file) {
    throw new UsageError(
      `unknown release "${arg}": not in the lock and not a schema file (known: ${[...lock.versions.keys()].join(", ")})`,
    );
  }
  return buildModel(versionOfPath(file), loadSchema(file), loadFacts(paths.factsFile));
}

function schemaFileOf(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  if (statSync(path).isDirectory())
    return existsSync(join(path, "schema.json")) ? join(path, "schema.json") : undefined;
  return path;
}

/** `…/2026-07-28/schema.json` is 2026-07-28; `drafts/next.json` is "next". */
export function versionOfPath(file: string): string {
  const folder = basename(dirname(file));
  return VERSION_PATTERN.test(folder) ? folder : basename(file, extname(file));
}
