import type { Argv } from "yargs";
import { IMPORT_EXTENSIONS, type ImportExtension } from "../project/config.ts";
import { EXIT_CODES_HELP } from "../common/failures.ts";

/** Where a command runs and prints; `main` gets it from the process, tests pass their own. */
export interface CliContext {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  /** Warnings: shown even under --quiet and --json. */
  readonly stderr: (text: string) => void;
}

/** The options every command that reads schemas shares, as parsed. */
export interface SourceArgs {
  readonly release?: string[];
  readonly from?: string;
  readonly project?: string;
}

export function withSources<T>(y: Argv<T>) {
  return y
    .option("release", {
      alias: "r",
      type: "string",
      array: true,
      describe: "Spec release(s) to work on (default: the config's releases)",
    })
    .option("from", {
      type: "string",
      describe: "Folder laid out as <release>/schema.json, or a URL base, to take schemas from",
    })
    .option("project", PROJECT_OPTION)
    .epilogue(EXIT_CODES_HELP);
}

export const PROJECT_OPTION = {
  type: "string",
  describe: "Look for mcp-bindgen.config.json from this folder upwards (default: the working directory)",
} as const;

export const OUT_OPTION = {
  type: "string",
  describe: "Output folder inside the project (overrides the config's out)",
} as const;
export const IMPORT_EXTENSION_OPTION = {
  choices: IMPORT_EXTENSIONS,
  describe: "How generated modules import each other: .js (nodenext, bundler) or .ts (type stripping, Deno, Bun)",
} as const;

/** The API options a command's arguments name. */
export function projectOptions(ctx: CliContext, a: SourceArgs & { out?: string; importExtension?: ImportExtension }) {
  return {
    cwd: a.project ?? ctx.cwd,
    ...(a.out !== undefined ? { out: a.out } : {}),
    ...(a.release !== undefined ? { releases: a.release } : {}),
    ...(a.importExtension !== undefined ? { importExtension: a.importExtension } : {}),
    ...(a.from !== undefined ? { from: a.from } : {}),
  };
}
