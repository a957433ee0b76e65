import yargs, { type Argv } from "yargs";
import { hideBin } from "yargs/helpers";
import { pathToFileURL } from "node:url";
import { BindgenError, CommandFailure, EXIT_CODES_HELP, OutputRefusedError, UsageError } from "./common/failures.ts";
import { packageVersion } from "./project/project.ts";
import { diffCommand } from "./commands/diff.ts";
import { generateCommand } from "./commands/generate.ts";
import { initCommand } from "./commands/init.ts";
import { listCommand } from "./commands/list.ts";
import type { CliContext } from "./commands/options.ts";
import { pullCommand } from "./commands/pull.ts";
import { toolsCommand } from "./commands/tools.ts";

const EPILOGUE = `${EXIT_CODES_HELP}
Settings come from mcp-bindgen.config.json (found from the working directory upwards; "mcp-bindgen init" writes one).
Schema sources, in order: --from DIR|URL, the folder the lock records a release from, $MCP_SCHEMA_DIR (a folder of <release>/schema.json), the cache, the URL in the lock.`;

export interface MainOptions {
  /** Where the command runs (default: the process's working directory). */
  readonly cwd?: string;
  /** Where normal output goes (default: the process's stdout); errors always go to stderr. */
  readonly stdout?: (text: string) => void;
  readonly stderr?: (text: string) => void;
}

/** Runs one command line and returns its exit code: 0 success, 1 failure, 2 usage error. */
export async function main(argv: readonly string[], options: MainOptions = {}): Promise<number> {
  const stderr = options.stderr ?? ((text: string) => process.stderr.write(text));
  const ctx: CliContext = {
    cwd: options.cwd ?? process.cwd(),
    stdout: options.stdout ?? ((text) => process.stdout.write(text)),
    stderr,
  };
  const parser: Argv = yargs([...argv])
    .scriptName("mcp-bindgen")
    .usage("$0 <command> [options]\n\nTyped TypeScript bindings for every Model Context Protocol spec release.")
    .command(initCommand(ctx))
    .command(pullCommand(ctx))
    .command(generateCommand(ctx))
    .command(listCommand(ctx))
    .command(diffCommand(ctx))
    .command(toolsCommand(ctx))
    .demandCommand(1, "Name a command.")
    .strict()
    .recommendCommands()
    .epilogue(EPILOGUE)
    .help()
    .alias("h", "help")
    .version("version", "Print the version of mcp-bindgen", packageVersion())
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((message, error) => {
      // Throwing (not just printing) stops yargs: otherwise the command would still run after
      // a usage error, e.g. generate despite an unknown flag.
      if (error) throw error;
      throw new UsageError(`${message}\nRun "mcp-bindgen --help" for usage.`);
    });
  try {
    await parser.parseAsync();
  } catch (err) {
    if (err instanceof UsageError || err instanceof OutputRefusedError) {
      stderr(`mcp-bindgen: ${err.message}\n`);
      return 2;
    }
    if (err instanceof BindgenError) {
      stderr(`mcp-bindgen: ${err.message}\n`);
      return 1;
    }
    if (err instanceof CommandFailure) return err.exitCode;
    stderr(`mcp-bindgen: ${(err as Error).stack ?? String(err)}\n`);
    return 1;
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // No top-level await: the API re-exports `main`, and a module graph with one cannot be require()d (Node 20.19+/22).
  void main(hideBin(process.argv)).then((code) => (process.exitCode = code));
}
