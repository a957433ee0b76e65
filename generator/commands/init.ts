import type { CommandModule } from "yargs";
import type { ImportExtension } from "../project/config.ts";
import { EXIT_CODES_HELP } from "../common/failures.ts";
import { init } from "../project/init-project.ts";
import { IMPORT_EXTENSION_OPTION, type CliContext } from "./options.ts";

export function initCommand(ctx: CliContext): CommandModule {
  return {
    command: "init",
    describe: "Set up mcp-bindgen in this project: write mcp-bindgen.config.json and a package.json script that generates",
    builder: (y) =>
      y
        .option("out", { type: "string", describe: "Output folder inside the project (default src/mcp)" })
        .option("release", { alias: "r", type: "string", array: true, describe: "Spec release(s) to generate (default: every release the package knows)" })
        .option("import-extension", { ...IMPORT_EXTENSION_OPTION, describe: `${IMPORT_EXTENSION_OPTION.describe} (default: proposed from tsconfig.json)` })
        .option("force", { type: "boolean", default: false, describe: "Replace a config that says something else" })
        .epilogue(EXIT_CODES_HELP)
        .example("$0 init --out src/mcp -r 2026-07-28 -r 2025-11-25", "Bindings for two releases in src/mcp"),
    handler: (argv) => {
      const a = argv as unknown as { out?: string; release?: string[]; importExtension?: ImportExtension; force: boolean };
      const r = init({
        cwd: ctx.cwd,
        ...(a.out !== undefined ? { out: a.out } : {}),
        ...(a.release !== undefined ? { releases: a.release } : {}),
        ...(a.importExtension !== undefined ? { importExtension: a.importExtension } : {}),
        force: a.force,
      });
      const print = (line: string) => ctx.stdout(line + "\n");
      print(`${r.configFile}: ${r.config === "unchanged" ? "already set up, unchanged" : r.config} (importExtension: ${r.importExtensionReason})`);
      if (!r.script) print(`package.json has scripts named generate and mcp:generate already; run "npx mcp-bindgen generate"`);
      else if (r.script.added) print(`package.json: added the script "${r.script.name}"; run "npm run ${r.script.name}"`);
      else print(`package.json: the script "${r.script.name}" already runs the generator; run "npm run ${r.script.name}"`);
    },
  };
}
