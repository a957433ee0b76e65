import type { CommandModule } from "yargs";
import type { ImportExtension } from "../project/config.ts";
import { EXIT_CODES_HELP } from "../common/failures.ts";
import { EXTRA_NAMES, EXTRAS } from "../common/extras.ts";
import { init } from "../project/init-project.ts";
import { runBinary, runScript } from "../project/package-manager.ts";
import { IMPORT_EXTENSION_OPTION, type CliContext } from "./options.ts";

export function initCommand(ctx: CliContext): CommandModule {
  return {
    command: "init",
    describe:
      "Set up mcp-bindgen in this project: write mcp-bindgen.config.json and a package.json script that generates",
    builder: (y) =>
      y
        .option("out", { type: "string", describe: "Output folder inside the project (default src/mcp)" })
        .option("release", {
          alias: "r",
          type: "string",
          array: true,
          describe: "Spec release(s) to generate (default: every release the package knows)",
        })
        .option("import-extension", {
          ...IMPORT_EXTENSION_OPTION,
          describe: `${IMPORT_EXTENSION_OPTION.describe} (default: proposed from tsconfig.json)`,
        })
        .option("extras", {
          type: "string",
          array: true,
          describe: `Optional runtime parts to generate too, each importing one package you install: ${EXTRA_NAMES.map((n) => `${n} (${EXTRAS[n].package})`).join(", ")}`,
        })
        .option("force", { type: "boolean", default: false, describe: "Replace a config that says something else" })
        .epilogue(EXIT_CODES_HELP)
        .example("$0 init --out src/mcp -r 2026-07-28 -r 2025-11-25", "Bindings for two releases in src/mcp")
        .example("$0 init --extras jwt redis", "Also the JWT verifier (jose) and the Redis stores (ioredis)"),
    handler: (argv) => {
      const a = argv as unknown as {
        out?: string;
        release?: string[];
        importExtension?: ImportExtension;
        extras?: string[];
        force: boolean;
      };
      const r = init({
        cwd: ctx.cwd,
        ...(a.out !== undefined ? { out: a.out } : {}),
        ...(a.release !== undefined ? { releases: a.release } : {}),
        ...(a.importExtension !== undefined ? { importExtension: a.importExtension } : {}),
        ...(a.extras !== undefined ? { extras: a.extras.flatMap((e) => e.split(",")).filter((e) => e !== "") } : {}),
        force: a.force,
      });
      const print = (line: string) => ctx.stdout(line + "\n");
      const run = (script: string) => runScript(r.packageManager, script);
      print(
        `${r.configFile}: ${r.config === "unchanged" ? "already set up, unchanged" : r.config} (importExtension: ${r.importExtensionReason})`,
      );
      if (!r.script)
        print(
          `package.json has scripts named generate and mcp:generate already; run "${runBinary(r.packageManager)} generate"`,
        );
      else if (r.script.added) print(`package.json: added the script "${r.script.name}"; run "${run(r.script.name)}"`);
      else print(`package.json: the script "${r.script.name}" already runs the generator; run "${run(r.script.name)}"`);
      for (const ignore of r.ignores) {
        print(
          `${ignore.file}: ${ignore.added ? "added" : "already lists"} /${r.out}/ (mcp-bindgen formats and checks what it writes; your tools need not)`,
        );
      }
      if (r.eslintFlatConfig)
        print(
          `${r.eslintFlatConfig}: add { ignores: ["${r.out}/"] } to its array, so ESLint leaves the generated code alone`,
        );
      for (const line of r.missingPackages) print(line);
      if (r.commonjs) {
        print(
          `package.json has no "type": "module": TypeScript and Node treat your files and the generated ones as CommonJS. That works as it is, except: under verbatimModuleSyntax your CommonJS files import the bindings as "import mcp = require('./${r.out}/index.js')" (path relative to the importing file); with typeCheckOutput the generated modules need a package.json saying {"type": "module"} in ${r.out} (generate keeps it), and then only ES modules (or require(esm): Node 20.19+/22.12+ and TypeScript 5.8+) load them`,
        );
      }
    },
  };
}
