import { dirname, relative, resolve, sep } from "node:path";
import type { Argv, CommandModule } from "yargs";
import { openProject } from "../api.ts";
import { CONFIG_FILE, type ServerSource } from "../project/config.ts";
import { CommandFailure, EXIT_CODES_HELP, UsageError } from "../common/failures.ts";
import { loadModels } from "../model/load-models.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import { cliAuthorizer, fileTokenStore, tokenFile } from "../tools/oauth-login.ts";
import type { ToolsDiffReport } from "../tools/compare.ts";
import { addServer, releaseOffer, updateServers, type ToolsRunOptions } from "../project/project-tools.ts";
import { renderToolsMarkdown } from "../tools/render-markdown.ts";
import { PROJECT_OPTION, type CliContext } from "./options.ts";

interface ToolsArgs {
  readonly url?: string;
  readonly command?: string;
  readonly from?: string;
  readonly release?: string;
  readonly header?: readonly string[];
  readonly oauth?: boolean;
  readonly project?: string;
  readonly format: "md" | "json";
  readonly failOn?: "breaking" | "any";
}

function common<T>(y: Argv<T>) {
  return y
    .option("header", {
      type: "string",
      array: true,
      describe: "K=V: a header sent to the one HTTP server named (auth); never written to disk",
    })
    .option("oauth", {
      type: "boolean",
      describe:
        "Authorize with OAuth: prints the URL to open, waits on 127.0.0.1:8976; tokens go to your config directory, never the project (update reuses them)",
    })
    .option("from", { type: "string", describe: "A saved tools/list result (JSON) instead of the live server" })
    .option("release", { type: "string", describe: "With --from: the release the result was listed in" })
    .option("format", {
      choices: ["md", "json"] as const,
      default: "md" as const,
      describe: "How what changed is printed",
    })
    .option("fail-on", {
      choices: ["breaking", "any"] as const,
      describe: "Exit 1 when a change breaks callers, or on any change",
    })
    .option("project", PROJECT_OPTION);
}

export function toolsCommand(ctx: CliContext): CommandModule {
  return {
    command: "tools <action>",
    describe: "Snapshot a server's tools (mcp-tools/<name>.json) so generate types them in <out>/servers/<name>.ts",
    builder: (y) =>
      y
        .command({
          command: "add <name>",
          describe: "List a server's tools, write mcp-tools/<name>.json and record the server in the config",
          builder: (a) =>
            common(a)
              .positional("name", {
                type: "string",
                describe: "The server's name: lower-case letters, digits, - and _",
              })
              .option("url", { type: "string", describe: "The server's Streamable HTTP endpoint" })
              .option("command", { type: "string", describe: 'A stdio server: "<cmd> <args…>"' })
              .example(
                "$0 tools add everything --command 'npx @modelcontextprotocol/server-everything stdio'",
                "A stdio server",
              )
              .example(
                "$0 tools add weather --url https://example.com/mcp --header 'Authorization=Bearer …'",
                "An HTTP server with a token",
              )
              .epilogue(EXIT_CODES_HELP),
          handler: async (argv) => {
            const a = argv as unknown as ToolsArgs & { name: string };
            const sources = [a.url, a.command, a.from].filter((s) => s !== undefined);
            if (sources.length !== 1) throw new UsageError("tools add: name exactly one of --url, --command or --from");
            const options = runOptions(ctx, a);
            // A saved file is recorded relative to the config, so the project can move.
            const saved =
              a.from === undefined
                ? undefined
                : relative(dirname(options.configFile), resolve(ctx.cwd, a.from)).split(sep).join("/");
            const source: ServerSource =
              a.url !== undefined
                ? { url: a.url }
                : a.command !== undefined
                  ? { command: a.command }
                  : { from: saved! };
            const update = await addServer(String(a.name), source, options);
            ctx.stdout(
              `wrote ${update.file}; run "mcp-bindgen generate" to type its tools in servers/${update.server}.ts\n`,
            );
          },
        })
        .command({
          command: "update [names..]",
          describe: "List the servers' tools again, rewrite the snapshots that changed and print what changed",
          builder: (a) =>
            common(a)
              .positional("names", {
                type: "string",
                array: true,
                describe: "Servers to update (default: every one in the config)",
              })
              .epilogue(EXIT_CODES_HELP),
          handler: async (argv) => {
            const a = argv as unknown as ToolsArgs & { names?: string[] };
            const updates = await updateServers(a.names ?? [], runOptions(ctx, a));
            const reports = updates.map((u) => u.diff).filter((d): d is ToolsDiffReport => d !== null);
            if (a.format === "json") ctx.stdout(JSON.stringify(reports, null, 2) + "\n");
            else
              for (const u of updates)
                ctx.stdout(
                  u.diff === null
                    ? `wrote ${u.file}\n`
                    : `${renderToolsMarkdown(u.diff)}${u.written ? `wrote ${u.file}` : `${u.file} is up to date`}\n`,
                );
            failIf(a.failOn, reports);
          },
        })
        .demandCommand(1, "Name an action: add or update."),
    handler: () => undefined,
  };
}

/** `--fail-on` as `diff` has it: exit 1 on a breaking change, or on any. */
export function failIf(failOn: "breaking" | "any" | undefined, reports: readonly ToolsDiffReport[]): void {
  const changes = reports.flatMap((r) => r.changes);
  const failed =
    failOn === "any" ? changes.length > 0 : failOn === "breaking" && changes.some((c) => c.severity === "breaking");
  if (failed) throw new CommandFailure(1);
}

function runOptions(ctx: CliContext, a: ToolsArgs): ToolsRunOptions {
  const { project, releases } = openProject({ cwd: a.project ?? ctx.cwd });
  if (project.configFile === undefined)
    throw new UsageError(`no ${CONFIG_FILE} found: run "mcp-bindgen init" first; snapshots go beside it`);
  const headers: Record<string, string> = {};
  for (const pair of a.header ?? []) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new UsageError(`--header expects K=V, got ${JSON.stringify(pair.slice(0, 20))}`);
    headers[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  const env = process.env["MCP_SCHEMA_DIR"];
  let models: Promise<ProtocolModel[]> | undefined;
  const loaded = () =>
    (models ??= loadModels(project.paths, { releases, ...(env && env.trim() !== "" ? { env } : {}), offline: false }));
  const offer = async () => releaseOffer(await loaded());
  const store = fileTokenStore(tokenFile());
  // OAuth when asked for, or for a server whose tokens an earlier run kept.
  const auth = async (url: string) => {
    if (a.oauth !== true && (await store.get(`tokens ${url}`)) === undefined) return undefined;
    const facts = [...(await loaded())]
      .sort((x, y) => (x.version < y.version ? 1 : -1))
      .find((model) => model.clientAuth !== null)?.clientAuth;
    if (facts === undefined || facts === null)
      throw new UsageError("--oauth: the project generates no release with authorization");
    return cliAuthorizer(url, facts, { store, print: ctx.stderr });
  };
  return {
    configFile: project.configFile,
    offer,
    auth,
    headers,
    warn: (line) => ctx.stderr(`warning: ${line}\n`),
    ...(a.from !== undefined ? { from: resolve(ctx.cwd, a.from) } : {}),
    ...(a.release !== undefined ? { release: a.release } : {}),
  };
}
