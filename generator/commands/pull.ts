import type { CommandModule } from "yargs";
import { pull } from "../api.ts";
import { UsageError } from "../common/failures.ts";
import { projectOptions, withSources, type CliContext, type SourceArgs } from "./options.ts";

export function pullCommand(ctx: CliContext): CommandModule {
  return {
    command: "pull",
    describe:
      "Place the chosen releases' schemas in the cache (node_modules/.cache/mcp-bindgen), checked against the locks",
    builder: (y) =>
      withSources(y)
        .option("update-lock", {
          type: "boolean",
          default: false,
          describe: "Record a release the package does not know, or a re-sealed file's hash, in the project's lock",
        })
        .option("force", {
          type: "boolean",
          default: false,
          describe: "Fetch again even when a verified copy is cached",
        })
        .option("timeout", { type: "number", default: 30, describe: "Seconds to wait for a download" })
        .option("draft", {
          type: "boolean",
          default: false,
          describe:
            "Pull the spec's draft (schema/draft/ upstream) as the release \"draft\" and record it in the project's lock",
        })
        .option("commit", { type: "string", describe: "With --draft: the spec repository commit to pin the draft at" })
        .check((argv) => {
          const t = argv["timeout"];
          if (typeof t !== "number" || !Number.isFinite(t) || t <= 0)
            throw new UsageError(`--timeout: expected a positive number of seconds (got ${String(t)})`);
          if (argv["commit"] !== undefined && argv["draft"] !== true)
            throw new UsageError("--commit pins the draft: use it with --draft");
          return true;
        })
        .example("$0 pull", "Fetch every chosen release that is not cached")
        .example("$0 pull --release 2027-01-01 --from ./drafts --update-lock", "Add a new release from a local folder")
        .example(
          "$0 pull --draft --commit 2eaf7ca7 --from ./spec/schema",
          "Pin the spec's draft at a commit, read from a checkout of it",
        ),
    handler: async (argv) => {
      const a = argv as unknown as SourceArgs & {
        updateLock: boolean;
        force: boolean;
        timeout: number;
        draft: boolean;
        commit?: string;
      };
      const print = (line: string) => ctx.stdout(line + "\n");
      const results = await pull({
        ...projectOptions(ctx, a),
        updateLock: a.updateLock,
        force: a.force,
        timeoutMs: a.timeout * 1000,
        log: print,
        ...(a.draft ? { draft: { commit: a.commit } } : {}),
      });
      for (const r of results) if (r.status === "present") print(`${r.version}: up to date (${r.sha256.slice(0, 12)})`);
    },
  };
}
