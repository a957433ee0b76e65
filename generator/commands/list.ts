import type { CommandModule } from "yargs";
import { list } from "../api.ts";
import { projectOptions, withSources, type CliContext, type SourceArgs } from "./options.ts";

export function listCommand(ctx: CliContext): CommandModule {
  return {
    command: "list",
    describe: "Show each chosen release's era and counts (definitions, methods per direction, error codes)",
    builder: (y) =>
      withSources(y)
        .option("json", {
          type: "boolean",
          default: false,
          describe: "Print the whole model summary as JSON (methods with direction, kind, params and results)",
        })
        .example("$0 list", "One line per release")
        .example("$0 list --json --release 2026-07-28", "The model of one release, for other tools"),
    handler: async (argv) => {
      const a = argv as unknown as SourceArgs & { json: boolean };
      const summaries = await list(projectOptions(ctx, a));
      if (a.json) {
        ctx.stdout(JSON.stringify(summaries, null, 2) + "\n");
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
      const header = [
        "release",
        "era",
        "definitions",
        "requests c→s/s→c",
        "notifications c→s/s→c",
        "methods",
        "error codes",
      ];
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
      for (const row of [header, ...rows])
        ctx.stdout(
          row
            .map((c, i) => c.padEnd(widths[i]!))
            .join("  ")
            .trimEnd() + "\n",
        );
    },
  };
}
