import type { CommandModule } from "yargs";
import { check, generate, type ProjectCheckReport } from "../api.ts";
import type { ImportExtension } from "../project/config.ts";
import { BindgenError, CommandFailure, UsageError } from "../common/failures.ts";
import {
  IMPORT_EXTENSION_OPTION,
  OUT_OPTION,
  projectOptions,
  withSources,
  type CliContext,
  type SourceArgs,
} from "./options.ts";

export function generateCommand(ctx: CliContext): CommandModule {
  return {
    command: "generate",
    describe:
      "Write the bindings of the chosen releases into the output folder in one atomic step (unchanged releases are reused)",
    builder: (y) =>
      withSources(y)
        .option("out", OUT_OPTION)
        .option("import-extension", IMPORT_EXTENSION_OPTION)
        .option("check", {
          type: "boolean",
          describe:
            "Write nothing and download nothing; exit 1 listing stale, missing and extra files if the output is out of date, 2 if it cannot check",
        })
        .option("force", { type: "boolean", describe: "Render every release, even those whose inputs are unchanged" })
        .option("quiet", { alias: "q", type: "boolean", default: false, describe: "Print nothing on success" })
        .option("json", { type: "boolean", default: false, describe: "Print the report as JSON" })
        .conflicts("check", "force")
        .example("$0 generate", "Regenerate what changed since the last run")
        .example("$0 generate --check", "In CI: fail if the output is stale"),
    handler: async (argv) => {
      const a = argv as unknown as SourceArgs & {
        out?: string;
        importExtension?: ImportExtension;
        check?: boolean;
        force?: boolean;
        quiet: boolean;
        json: boolean;
      };
      const options = projectOptions(ctx, a);
      const print = (line: string) => ctx.stdout(line + "\n");
      if (a.check) {
        // Exit 1 is kept for "the output is stale": anything that stops the comparison (no schemas, a bad config, a
        // folder that is not mcp-bindgen's) exits 2, so CI can tell "regenerate" from "fix the setup".
        const report = await check(options).catch((err: unknown) => {
          throw err instanceof BindgenError ? new UsageError(`cannot check: ${err.message}`) : err;
        });
        if (a.json) print(JSON.stringify(report, null, 2));
        else if (!report.upToDate || !a.quiet) printCheck(report, print);
        if (!report.upToDate) throw new CommandFailure(1);
        return;
      }
      const report = await generate({
        ...options,
        force: a.force === true,
        ...(a.quiet || a.json ? {} : { log: print, progress: print }),
        // Even when quiet: something asked for is missing from the output.
        warn: (line) => ctx.stderr(`warning: ${line}\n`),
      });
      if (a.json) print(JSON.stringify(report, null, 2));
    },
  };
}

function printCheck(report: ProjectCheckReport, print: (line: string) => void): void {
  if (report.upToDate) return print(`${report.out} is up to date (${report.files} files)`);
  print(`${report.out} is out of date; run "${report.regenerateCommand}":`);
  for (const [label, files] of [
    ["stale", report.stale],
    ["missing", report.missing],
    ["extra", report.extra],
  ] as const) {
    for (const file of files) print(`  ${label.padEnd(8)}${file}`);
  }
  for (const line of report.diff) print(line);
}
