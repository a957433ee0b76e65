import type { CommandModule } from "yargs";
import { check, type CheckReport } from "../check.ts";
import { CommandFailure } from "../errors.ts";
import { generate } from "../generate.ts";
import { checkVersions, envSchemaDir, pathsFrom, withSources } from "./options.ts";

export const generateCommand: CommandModule = {
  command: "generate",
  describe: "Pull what is missing, then write generated/ for every release in one atomic step (unchanged releases are reused)",
  builder: (y) =>
    withSources(y)
      .option("version", {
        alias: "v",
        type: "string",
        array: true,
        describe: "Releases to take from --from or to re-render with --force; generated/ always holds every release in schema/lock.json",
      })
      .option("check", { type: "boolean", describe: "Write nothing; exit 1 listing stale, missing and extra files if generated/ is out of date" })
      .option("force", { type: "boolean", describe: "Render every release, even those whose inputs are unchanged" })
      .option("quiet", { alias: "q", type: "boolean", default: false, describe: "Print nothing on success" })
      .option("json", { type: "boolean", default: false, describe: "Print the report as JSON" })
      .conflicts("check", "force")
      .example("$0 generate", "Regenerate what changed since the last run")
      .example("$0 generate --check", "In CI: fail if generated/ is stale"),
  handler: async (argv) => {
    const a = argv as unknown as { version?: string[]; from?: string; project?: string; check?: boolean; force?: boolean; quiet: boolean; json: boolean };
    const paths = pathsFrom(a);
    const load = { versions: checkVersions(paths, a.version), from: a.from, env: envSchemaDir() };
    const print = (line: string) => process.stdout.write(line + "\n");
    if (a.check) {
      // The check is about the whole tree, whatever --version says.
      const report = await check(paths, { from: a.from, env: envSchemaDir() });
      if (a.json) print(JSON.stringify(report, null, 2));
      else if (!report.upToDate || !a.quiet) printCheck(report, print);
      if (!report.upToDate) throw new CommandFailure(1);
      return;
    }
    const report = await generate(paths, { ...load, force: a.force === true, ...(a.quiet || a.json ? {} : { log: print, progress: print }) });
    if (a.json) print(JSON.stringify(report, null, 2));
  },
};

function printCheck(report: CheckReport, print: (line: string) => void): void {
  if (report.upToDate) return print(`generated/ is up to date (${report.files} files)`);
  print(`generated/ is out of date; run "npm run generate":`);
  for (const [label, files] of [
    ["stale", report.stale],
    ["missing", report.missing],
    ["extra", report.extra],
  ] as const) {
    for (const file of files) print(`  ${label.padEnd(8)}${file}`);
  }
  for (const line of report.diff) print(line);
}
