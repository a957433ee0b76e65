import type { Argv } from "yargs";
import { readLock } from "../load/lock.ts";
import { EXIT_CODES_HELP, UsageError } from "../errors.ts";
import { defaultPaths, type ProjectPaths } from "../project.ts";

/** Options every command that reads schemas shares. */
export const PROJECT_OPTION = {
  type: "string",
  describe: "Project root holding schema/lock.json, schema/facts.json and generated/ (default: this checkout)",
} as const;

export function withSources<T>(y: Argv<T>) {
  return y
    .option("version", { alias: "v", type: "string", array: true, describe: "Spec release(s) to work on (default: every version in schema/lock.json)" })
    .option("from", { type: "string", describe: "Folder laid out as <version>/schema.json, or a URL base, to take schemas from" })
    .option("project", PROJECT_OPTION)
    .epilogue(EXIT_CODES_HELP);
}

export function pathsFrom(argv: { project?: string | undefined }): ProjectPaths {
  return defaultPaths(argv.project);
}

/** Rejects versions the lock does not know, listing the ones it does. */
export function checkVersions(paths: ProjectPaths, versions: readonly string[] | undefined): string[] {
  const lock = readLock(`${paths.schemaDir}/lock.json`);
  const known = [...lock.versions.keys()];
  for (const v of versions ?? []) {
    if (!lock.versions.has(v)) throw new UsageError(`unknown version "${v}" (known: ${known.join(", ")})`);
  }
  return versions && versions.length > 0 ? [...versions] : known;
}

export function envSchemaDir(): string | undefined {
  const dir = process.env["MCP_SCHEMA_DIR"];
  return dir && dir.trim() !== "" ? dir : undefined;
}
