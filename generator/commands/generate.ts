import type { CommandModule } from "yargs";
import { generate } from "../generate.ts";
import { checkVersions, envSchemaDir, pathsFrom, withSources } from "./options.ts";

export const generateCommand: CommandModule = {
  command: "generate",
  describe: "Pull what is missing, then write generated/ for every release in one atomic step",
  builder: (y) =>
    withSources(y)
      .option("quiet", { alias: "q", type: "boolean", default: false, describe: "Print nothing on success" })
      .option("json", { type: "boolean", default: false, describe: "Print the report as JSON" }),
  handler: async (argv) => {
    const a = argv as unknown as { version?: string[]; from?: string; project?: string; quiet: boolean; json: boolean };
    const paths = pathsFrom(a);
    const versions = checkVersions(paths, a.version);
    const report = await generate(paths, {
      versions,
      from: a.from,
      env: envSchemaDir(),
      ...(a.quiet || a.json ? {} : { log: (line: string) => process.stdout.write(line + "\n") }),
    });
    if (a.json) {
      process.stdout.write(JSON.stringify(report, null, 2) + "\n");
      return;
    }
    if (a.quiet) return;
    for (const v of report.versions) {
      process.stdout.write(`${v.version}  ${v.era.padEnd(6)}  ${v.types} types  ${v.methods} methods  ${v.errorCodes} error codes\n`);
    }
    process.stdout.write(`wrote ${report.files} files to ${paths.generatedDir} in ${report.ms} ms\n`);
  },
};
