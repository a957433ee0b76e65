import yargs, { type Argv } from "yargs";
import { hideBin } from "yargs/helpers";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readLock } from "./load/lock.ts";
import { defaultPaths } from "./project.ts";
import { BindgenError, CommandFailure, EXIT_CODES_HELP, UsageError } from "./errors.ts";
import { generateCommand } from "./commands/generate.ts";
import { listCommand } from "./commands/list.ts";
import { pullCommand } from "./commands/pull.ts";
import { diffCommand } from "./commands/diff.ts";

const EPILOGUE = `${EXIT_CODES_HELP}
Schema sources, in order: --from DIR|URL, $MCP_SCHEMA_DIR (a folder of <version>/schema.json), the URL in schema/lock.json.`;

export async function main(argv: string[]): Promise<number> {
  const parser: Argv = yargs(argv)
    .scriptName("mcp-bindgen")
    .usage("$0 <command> [options]\n\nTyped TypeScript bindings for every Model Context Protocol spec release.")
    .command(pullCommand)
    .command(generateCommand)
    .command(listCommand)
    .command(diffCommand)
    .demandCommand(1, "Name a command.")
    .strict()
    .recommendCommands()
    .epilogue(EPILOGUE)
    .help()
    .alias("h", "help")
    .version(false)
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((message, error) => {
      // Throwing (not just printing) stops yargs: otherwise the command would still run after
      // a usage error, e.g. generate despite an unknown flag.
      if (error) throw error;
      throw new UsageError(`${message}\n${knownVersions(argv)}Run "mcp-bindgen --help" for usage.`);
    });
  try {
    await parser.parseAsync();
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`mcp-bindgen: ${err.message}\n`);
      return 2;
    }
    if (err instanceof BindgenError) {
      process.stderr.write(`mcp-bindgen: ${err.message}\n`);
      return 1;
    }
    if (err instanceof CommandFailure) return err.exitCode;
    process.stderr.write(`mcp-bindgen: ${(err as Error).stack ?? String(err)}\n`);
    return 1;
  }
  return Number(process.exitCode ?? 0);
}

/** "Known versions: …" for a usage error, from the lock of the project named on the command line. */
function knownVersions(argv: readonly string[]): string {
  const at = argv.findIndex((a) => a === "--project" || a.startsWith("--project="));
  const project = at < 0 ? undefined : argv[at]!.includes("=") ? argv[at]!.slice("--project=".length) : argv[at + 1];
  try {
    const lock = readLock(join(defaultPaths(project).schemaDir, "lock.json"));
    return `Known versions: ${[...lock.versions.keys()].join(", ")}\n`;
  } catch {
    return "";
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(hideBin(process.argv));
}
