// examples/client.ts as a command: its arguments in-process, and one real run per outcome of `--call`
// against an official SDK server (stdout is the result as JSON; a failure is exit 1 with the error).
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseArgs } from "../../examples/client.ts";
import { PACKAGE_ROOT } from "../../generator/project/project.ts";
import { EXAMPLES_DIR } from "../support/test-tree.ts";
import { ECHO_TEXT, startSdkV2Server, type RunningServer } from "../support/sdk-servers.ts";

const run = promisify(execFile);
const CLIENT = join(EXAMPLES_DIR, "client.ts");

describe("example client arguments", () => {
  const rows: [string[], ReturnType<typeof parseArgs>][] = [
    [["http://h/mcp"], { target: { url: "http://h/mcp" } }],
    [
      ["http://h/mcp", "--call", "echo", '{"a":1}'],
      { target: { url: "http://h/mcp" }, call: { name: "echo", arguments: { a: 1 } } },
    ],
    [
      ["--stdio", "node s.js", "--call", "echo"],
      { target: { command: "node s.js" }, call: { name: "echo", arguments: {} } },
    ],
    [["--call", "echo", "{}"], "no server: give its URL or --stdio '<command>'"],
    [["http://h/mcp", "--call", "echo", "{nope"], "--call echo: the arguments are not JSON: {nope"],
    [["http://h/mcp", "--call", "echo", "[1]"], "--call echo: the arguments must be a JSON object"],
    [["nope"], "unexpected argument: nope"],
  ];
  it.each(rows)("%j", (argv, want) => {
    expect(parseArgs(argv)).toEqual(want);
  });
});

describe("npm run -s example:client -- <url> --call <tool> '<json>'", () => {
  let sdk: RunningServer;
  beforeAll(async () => {
    sdk = await startSdkV2Server();
  });
  afterAll(async () => {
    await sdk.close();
  });

  it("prints the tool's result as JSON on stdout and the agreed release on stderr", async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      ["--import", "tsx", CLIENT, sdk.url, "--call", "echo", "{}"],
      { cwd: PACKAGE_ROOT },
    );
    expect(JSON.parse(stdout)).toMatchObject({ content: [{ type: "text", text: ECHO_TEXT }] });
    expect(stderr).toContain("connected: 2026-07-28");
  });

  it("exits 1 with the server's error when the call fails", async () => {
    const failure = await run(process.execPath, ["--import", "tsx", CLIENT, sdk.url, "--call", "no_such_tool", "{}"], {
      cwd: PACKAGE_ROOT,
    }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 1, stdout: "" });
    expect((failure as { stderr: string }).stderr).toMatch(/no_such_tool|not found/i);
  });
});
