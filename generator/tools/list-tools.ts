import { spawn } from "node:child_process";
import { BindgenError } from "../common/failures.ts";
import { parseJson, readRaw } from "../load/read.ts";
import type { RequestAuthorizer } from "../runtime/client/client-auth.ts";
import { CONNECTION_ERROR, type TransportFactory } from "../runtime/client/client-transport.ts";
import { connect, type ClientRelease } from "../runtime/client/connect.ts";
import { httpTransport } from "../runtime/client/http-client.ts";
import { isObject } from "../runtime/core/json.ts";
import { stdioTransport, type ChildLike } from "../runtime/client/stdio-client.ts";
import type { ListedSurface } from "./snapshot.ts";
// With OAuth the first request waits for the user's login in a browser, as long as the loopback listener does.

/**
 * Where a server's tools come from; `server` is its name in the config, for messages. `headers`
 * (credentials) live in memory only: they go to the transport, and nothing here writes a file.
 */
export type ToolSource =
  | {
      readonly kind: "url";
      readonly server: string;
      readonly url: string;
      readonly headers: Readonly<Record<string, string>>;
      /** OAuth (`--oauth`, or tokens kept from an earlier run): authorizes on a 401. */
      readonly auth?: RequestAuthorizer;
    }
  | { readonly kind: "command"; readonly server: string; readonly command: string }
  | { readonly kind: "file"; readonly file: string; readonly release: string };

/** The releases the project generates, as the shipped `connect` offers them (tools/client-releases.ts). */
export type ReleaseOffer = readonly ClientRelease[];

export interface ListedTools {
  /** The release the server spoke. */
  readonly release: string;
  readonly tools: readonly unknown[];
  /** Where the tools array stands in a saved file (`/tools`, or `/result/tools` in a whole response); `/tools` otherwise. */
  readonly at?: string;
  /** The server's prompts and resource templates, each where its capabilities offer them. */
  readonly surface?: ListedSurface;
}

/** Connects, agrees a release and pages through `tools/list`; tests pass their own to `tools add`. */
export type ListTools = (source: ToolSource, offer: ReleaseOffer) => Promise<ListedTools>;

/** Pages a server may make us follow: a bound, so a server that always answers with a cursor cannot loop us. */
const MAX_PAGES = 100;
const TIMEOUT_MS = 30_000;
/** Stderr lines kept from a stdio server, and how many a failure quotes: enough to say why, never its whole log. */
const STDERR_KEPT = 100;
const STDERR_QUOTED = 3;
const CLIENT_INFO = { name: "mcp-bindgen", version: "tools" };

export const listTools: ListTools = async (source, offer) => {
  if (source.kind === "file") return { release: source.release, ...savedTools(source.file) };
  return listToolsLive(source, offer);
};

/** A saved `tools/list` result (`{"tools": […]}`), or a whole JSON-RPC response holding one. */
function savedTools(file: string): { tools: unknown[]; at: string } {
  const doc = parseJson(file, readRaw(file, "a saved tools/list result").bytes);
  const result = isObject(doc) && isObject(doc["result"]) ? doc["result"] : doc;
  const pointer = result === doc ? "/tools" : "/result/tools";
  if (!isObject(result) || !Array.isArray(result["tools"]))
    throw new BindgenError(file, pointer, "an array of tools (a tools/list result)");
  return { tools: result["tools"] as unknown[], at: pointer };
}

/**
 * Through the runtime's `connect`, as a generated client connects: the newest offered release the
 * server speaks (stateless discovery first, then `initialize`), the release's `Mcp-*` headers on HTTP.
 */
async function listToolsLive(source: Exclude<ToolSource, { kind: "file" }>, offer: ReleaseOffer): Promise<ListedTools> {
  const where = `server "${source.server}" (${source.kind === "url" ? source.url : source.command})`;
  if (offer.length === 0) throw new BindgenError(where, "", "a release to offer", "the project generates none");
  const stderr: string[] = [];
  const transport: TransportFactory =
    source.kind === "url"
      ? httpTransport(source.url, {
          headers: source.headers,
          ...(source.auth === undefined ? {} : { auth: source.auth }),
        })
      : stdioTransport({
          spawn: () => spawnServer(source.command),
          onStderr: (line) => {
            if (line.trim() !== "") stderr.push(line.trim().slice(0, 200));
            if (stderr.length > STDERR_KEPT) stderr.shift();
          },
        });
  const failure = (expected: string, error: unknown): BindgenError => {
    if (error instanceof BindgenError) return error;
    const reason = error instanceof Error ? error : new Error(String(error));
    // The transport's connection errors say what failed (unreachable, credentials refused, no such command).
    if (reason.name === CONNECTION_ERROR)
      return new BindgenError(
        where,
        "",
        "a server it can connect to",
        [
          reason.message,
          ...(/^HTTP 40[13] /.test(reason.message)
            ? ["credentials go with --header K=V, or authorize with --oauth"]
            : []),
          ...quoted(stderr),
        ].join("; "),
      );
    return new BindgenError(where, "", expected, [reason.message, ...quoted(stderr)].join("; "));
  };
  const versions = offer.map((release) => release.version).join(", ");
  // A login's wait for the user is not counted (the authorizer waits through the call's `untimed`).
  const session = await connect(transport, { releases: offer, clientInfo: CLIENT_INFO, timeoutMs: TIMEOUT_MS }).catch(
    (error: unknown) => {
      throw failure(`an MCP server speaking one of ${versions}`, error);
    },
  );
  try {
    const list = (method: string, key: string): Promise<unknown[]> =>
      pages(where, method, key, (params) => session.request(method as never, params as never));
    const tools = await list("tools/list", "tools");
    // Prompts and templates where the server's capabilities offer them: a server without them lists as it always did.
    const capabilities = isObject(session.server) ? session.server["capabilities"] : undefined;
    const offers = (name: string) => isObject(capabilities) && isObject(capabilities[name]);
    const surface: { -readonly [K in keyof ListedSurface]: ListedSurface[K] } = {};
    if (offers("prompts")) surface.prompts = await list("prompts/list", "prompts");
    if (offers("resources")) surface.resourceTemplates = await list("resources/templates/list", "resourceTemplates");
    return { release: session.version, tools, surface };
  } catch (error) {
    throw failure(`tools/list answered in ${session.version}`, error);
  } finally {
    await session.close();
  }
}

async function pages(
  where: string,
  method: string,
  key: string,
  list: (params: object) => Promise<unknown>,
): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await list(cursor === undefined ? {} : { cursor });
    if (!isObject(result) || !Array.isArray(result[key]))
      throw new BindgenError(where, "", `a ${method} result with a ${key} array`);
    items.push(...(result[key] as unknown[]));
    const next = result["nextCursor"];
    if (typeof next !== "string") return items;
    cursor = next;
  }
  throw new BindgenError(where, "", `${method} done within ${MAX_PAGES} pages`);
}

/** `--command`'s words, no shell: the program and its arguments. A failure to start is the transport's to report. */
function spawnServer(command: string): ChildLike {
  const [program, ...args] = command.split(/\s+/).filter((word) => word !== "");
  if (program === undefined) throw new BindgenError("--command", "", "a command to start the server");
  const child = spawn(program, args, { stdio: ["pipe", "pipe", "pipe"] });
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  return child;
}

/** What of a failed server's stderr says why: its lines naming an error (a stack's message line), else its last. */
function quoted(stderr: readonly string[]): string[] {
  const errors = stderr.filter((line) => /error/i.test(line));
  return (errors.length > 0 ? errors : stderr).slice(-STDERR_QUOTED);
}
