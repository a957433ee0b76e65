import type { CommandModule } from "yargs";
import { pull } from "../load/pull.ts";
import { envSchemaDir, pathsFrom, withSources } from "./options.ts";

export const pullCommand: CommandModule = {
  command: "pull",
  describe: "Place schema/<version>/schema.json for each release, checked against schema/lock.json",
  builder: (y) =>
    withSources(y)
      .option("update-lock", { type: "boolean", default: false, describe: "Record a new release, or a re-sealed file's hash, in the lock" })
      .option("force", { type: "boolean", default: false, describe: "Fetch again even when a verified copy is in place" })
      .option("timeout", { type: "number", default: 30, describe: "Seconds to wait for a download" })
      .example("$0 pull", "Fetch every locked release that is missing")
      .example("$0 pull --version 2027-01-01 --from ./drafts --update-lock", "Add a new release from a local folder"),
  handler: async (argv) => {
    const a = argv as unknown as { version?: string[]; from?: string; project?: string; updateLock: boolean; force: boolean; timeout: number };
    const results = await pull({
      schemaDir: pathsFrom(a).schemaDir,
      versions: a.version ?? [],
      from: a.from,
      env: envSchemaDir(),
      updateLock: a.updateLock,
      force: a.force,
      timeoutMs: a.timeout * 1000,
      log: (line) => process.stdout.write(line + "\n"),
    });
    for (const r of results) if (r.status === "present") process.stdout.write(`${r.version}: up to date (${r.sha256.slice(0, 12)})\n`);
  },
};
