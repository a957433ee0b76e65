import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { CommandModule } from "yargs";
import { diff } from "../api.ts";
import { CommandFailure, EXIT_CODES_HELP } from "../common/failures.ts";
import { isBreaking, type Side } from "../diff/index.ts";
import { renderMarkdown } from "../diff/render-markdown.ts";
import { diffSnapshots } from "../project/project-tools.ts";
import { renderToolsMarkdown } from "../tools/render-markdown.ts";
import { PROJECT_OPTION, projectOptions, type CliContext } from "./options.ts";
import { failIf } from "./tools.ts";

export function diffCommand(ctx: CliContext): CommandModule {
  return {
    command: "diff <old> <new>",
    describe: "What changed between two releases (or schema files), and whether it breaks clients or servers",
    builder: (y) =>
      y
        .positional("old", { type: "string", describe: "A release in the locks, or a path to a schema file" })
        .positional("new", { type: "string", describe: "A release in the locks, or a path to a schema file" })
        .option("format", {
          choices: ["md", "json"] as const,
          default: "md" as const,
          describe: "Markdown for people, JSON for tools",
        })
        .option("side", {
          choices: ["client", "server", "both"] as const,
          default: "both" as const,
          describe: "Whose breakage to report",
        })
        .option("breaking", {
          type: "boolean",
          default: false,
          describe: "Markdown: only the breaking changes, short enough for a pull-request comment",
        })
        .option("fail-on", {
          choices: ["breaking", "any"] as const,
          describe: "Exit 1 when a change breaks the chosen side, or on any change",
        })
        .option("from", {
          type: "string",
          describe: "Folder laid out as <release>/schema.json, or a URL base, to take schemas from",
        })
        .option("tools", {
          alias: "server",
          type: "boolean",
          default: false,
          describe:
            "Compare two server snapshots (mcp-tools/<name>.json): every change to its tools, prompts and resource templates rated for the clients that call them",
        })
        .option("project", PROJECT_OPTION)
        .example(
          "$0 diff --server old/everything.json mcp-tools/everything.json --fail-on breaking",
          "Gate CI on a server's tools, prompts and resource templates",
        )
        .example("$0 diff 2025-11-25 2026-07-28", "Markdown report between two releases")
        .example("$0 diff 2026-07-28 ./draft/schema.json --side client --fail-on breaking", "Gate CI on a draft")
        .example("$0 diff 2025-11-25 2026-07-28 --breaking", "The breaking changes only, for a pull-request comment")
        .epilogue(`${EXIT_CODES_HELP} With --fail-on, a change of that kind is a failure (exit 1).`),
    handler: async (argv) => {
      const a = argv as unknown as {
        old: string;
        new: string;
        format: "md" | "json";
        side: Side | "both";
        failOn?: "breaking" | "any";
        breaking: boolean;
        from?: string;
        project?: string;
        tools: boolean;
      };
      if (a.tools) {
        const report = diffSnapshots(resolve(ctx.cwd, String(a.old)), resolve(ctx.cwd, String(a.new)));
        ctx.stdout(
          a.format === "json"
            ? JSON.stringify(report, null, 2) + "\n"
            : renderToolsMarkdown(report, { breakingOnly: a.breaking }),
        );
        failIf(a.failOn, [report]);
        return;
      }
      // A schema file named on the command line is relative to where the command runs, whatever --project says.
      const side = (arg: string) => (existsSync(resolve(ctx.cwd, arg)) ? resolve(ctx.cwd, arg) : arg);
      const report = await diff(side(String(a.old)), side(String(a.new)), { ...projectOptions(ctx, a), side: a.side });
      ctx.stdout(
        a.format === "json"
          ? JSON.stringify(report, null, 2) + "\n"
          : renderMarkdown(report, { side: a.side, breakingOnly: a.breaking }),
      );
      const failed =
        a.failOn === "any"
          ? report.changes.length > 0
          : a.failOn === "breaking" && report.changes.some((c) => isBreaking(c, a.side));
      if (failed) throw new CommandFailure(1);
    },
  };
}
