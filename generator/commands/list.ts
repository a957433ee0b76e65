import type { CommandModule } from "yargs";
import { summarise } from "../model/summary.ts";
import { loadModels } from "../project.ts";
import { checkVersions, envSchemaDir, pathsFrom, withSources } from "./options.ts";

export const listCommand: CommandModule = {
  command: "list",
  describe: "Show each release's era and counts (definitions, methods per direction, error codes)",
  builder: (y) =>
    withSources(y)
      .option("json", { type: "boolean", default: false, describe: "Print the whole model summary as JSON (methods with direction, kind, params and results)" })
      .example("$0 list", "One line per release")
      .example("$0 list --json --version 2026-07-28", "The model of one release, for other tools"),
  handler: async (argv) => {
    const a = argv as unknown as { version?: string[]; from?: string; project?: string; json: boolean };
    const paths = pathsFrom(a);
    const versions = checkVersions(paths, a.version);
    const models = await loadModels(paths, { versions, from: a.from, env: envSchemaDir() });
    const summaries = models.map(summarise);
    if (a.json) {
      process.stdout.write(JSON.stringify(summaries, null, 2) + "\n");
      return;
    }
    const rows = summaries.map((s) => [
      s.version,
      s.era,
      String(s.counts.definitions),
      `${s.counts.clientRequests}/${s.counts.serverRequests + s.counts.inputRequests}${s.counts.inputRequests ? " (input)" : ""}`,
      `${s.counts.clientNotifications}/${s.counts.serverNotifications}`,
      String(s.counts.methods),
      String(s.counts.errorCodes),
    ]);
    const header = ["version", "era", "definitions", "requests c→s/s→c", "notifications c→s/s→c", "methods", "error codes"];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    for (const row of [header, ...rows])
      process.stdout.write(
        row
          .map((c, i) => c.padEnd(widths[i]!))
          .join("  ")
          .trimEnd() + "\n",
      );
  },
};
