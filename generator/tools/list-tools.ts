import { spawn } from "node:child_process";
import { BindgenError } from "../common/failures.ts";
import { parseJson, readRaw } from "../load/read.ts";
import type { HttpSpec } from "../runtime/http-headers.ts";

/** Where a server's tools come from. `headers` (credentials) live in memory only: nothing here writes a file. */
export type ToolSource =
  | { readonly kind: "url"; readonly url: string; readonly headers: Readonly<Record<string, string>> }
  | { readonly kind: "command"; readonly command: string }
  | { readonly kind: "file"; readonly file: string; readonly release: string };

/** The releases a client may offer, read from the models: the newest stateless one with its header facts, and the newest with `initialize`. */
export interface ReleaseOffer {
  readonly modern: { readonly version: string; readonly http: HttpSpec; readonly capabilitiesMetaKey: string } | null;
  readonly legacy: string | null;
}

export interface ListedTools {
  /** The release the server spoke. */
  readonly release: string;
  readonly tools: readonly unknown[];
}

/**
 * Connects, agrees a release and pages through `tools/list`. The one seam for the shipped client
 * transport (#25): its `connect` (era negotiation, SSE, sessions) replaces `listToolsLive` below
 * without any other change; until then this is a minimal client of its own, for listing tools only.
 */
export type ListTools = (source: ToolSource, offer: ReleaseOffer) => Promise<ListedTools>;

/** Pages a server may make us follow: a bound, so a server that always answers with a cursor cannot loop us. */
const MAX_PAGES = 100;
const TIMEOUT_MS = 30_000;

export const listTools: ListTools = async (source, offer) => {
  if (source.kind === "file") return { release: source.release, tools: savedTools(source.file) };
  return listToolsLive(source, offer);
};

/** A saved `tools/list` result (`{"tools": […]}`), or a whole JSON-RPC response holding one. */
function savedTools(file: string): unknown[] {
  const doc = parseJson(file, readRaw(file, "a saved tools/list result").bytes);
  const result = isRecord(doc) && isRecord(doc["result"]) ? doc["result"] : doc;
  const pointer = result === doc ? "/tools" : "/result/tools";
  if (!isRecord(result) || !Array.isArray(result["tools"]))
    throw new BindgenError(file, pointer, "an array of tools (a tools/list result)");
  return result["tools"];
}

type Exchange = (
  method: string,
  params: Record<string, unknown> | undefined,
  notification?: boolean,
) => Promise<unknown>;

async function listToolsLive(source: Exclude<ToolSource, { kind: "file" }>, offer: ReleaseOffer): Promise<ListedTools> {
  const where = source.kind === "url" ? source.url : source.command;
  if (source.kind === "url" && offer.modern !== null) {
    const modern = offer.modern;
    const stateless = await tryStateless(source.url, source.headers, modern);
    if (stateless !== undefined) return stateless;
  }
  if (offer.legacy === null) throw new BindgenError(where, "", "a server that speaks a release this project generates");
  const legacy = offer.legacy;
  const session = source.kind === "url" ? httpSession(source.url, source.headers) : stdioSession(source.command);
  try {
    const init = await session.exchange("initialize", {
      protocolVersion: legacy,
      capabilities: {},
      clientInfo: { name: "mcp-bindgen", version: "tools" },
    });
    const release = isRecord(init) && typeof init["protocolVersion"] === "string" ? init["protocolVersion"] : legacy;
    await session.exchange("notifications/initialized", undefined, true);
    return { release, tools: await pages(where, (params) => session.exchange("tools/list", params)) };
  } finally {
    await session.close();
  }
}

async function pages(
  where: string,
  list: (params: Record<string, unknown> | undefined) => Promise<unknown>,
): Promise<unknown[]> {
  const tools: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await list(cursor === undefined ? undefined : { cursor });
    if (!isRecord(result) || !Array.isArray(result["tools"]))
      throw new BindgenError(where, "", "a tools/list result with a tools array");
    tools.push(...(result["tools"] as unknown[]));
    const next = result["nextCursor"];
    if (typeof next !== "string") return tools;
    cursor = next;
  }
  throw new BindgenError(where, "", `tools/list done within ${MAX_PAGES} pages`);
}

/** 2026-07-28 and later: each request stands alone, version and capabilities in `_meta` and in the headers. */
async function tryStateless(
  url: string,
  headers: Readonly<Record<string, string>>,
  modern: NonNullable<ReleaseOffer["modern"]>,
): Promise<ListedTools | undefined> {
  const { version, http, capabilitiesMetaKey } = modern;
  let id = 0;
  const listPage = async (params: Record<string, unknown> | undefined): Promise<unknown> => {
    const body = {
      jsonrpc: "2.0",
      id: ++id,
      method: "tools/list",
      params: { ...params, _meta: { [http.protocolVersionMetaKey]: version, [capabilitiesMetaKey]: {} } },
    };
    const answer = await post(
      url,
      { ...headers, [http.protocolVersionHeader]: version, [http.methodHeader]: "tools/list" },
      body,
    );
    return resultOf(url, answer.message);
  };
  try {
    return { release: version, tools: await pages(url, listPage) };
  } catch (err) {
    // Anything but an answer in this release means the server is older: the caller falls back to initialize.
    if (err instanceof BindgenError && err.pointer === "") return undefined;
    throw err;
  }
}

interface Session {
  readonly exchange: Exchange;
  close(): Promise<void>;
}

/** 2025 Streamable HTTP: `initialize` opens a session (`Mcp-Session-Id`), every later request carries it. */
function httpSession(url: string, headers: Readonly<Record<string, string>>): Session {
  let id = 0;
  let sessionId: string | undefined;
  let version: string | undefined;
  const exchange: Exchange = async (method, params, notification = false) => {
    const extra: Record<string, string> = { ...headers };
    if (sessionId !== undefined) extra["Mcp-Session-Id"] = sessionId;
    if (version !== undefined) extra["MCP-Protocol-Version"] = version;
    const body = notification
      ? { jsonrpc: "2.0", method, ...(params ? { params } : {}) }
      : { jsonrpc: "2.0", id: ++id, method, ...(params ? { params } : {}) };
    const answer = await post(url, extra, body);
    if (notification) return undefined;
    sessionId ??= answer.sessionId;
    const result = resultOf(url, answer.message);
    if (method === "initialize" && isRecord(result) && typeof result["protocolVersion"] === "string")
      version = result["protocolVersion"];
    return result;
  };
  return {
    exchange,
    async close() {
      if (sessionId === undefined) return;
      await fetch(url, {
        method: "DELETE",
        headers: { ...headers, "Mcp-Session-Id": sessionId },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      }).catch(() => undefined);
    },
  };
}

async function post(
  url: string,
  headers: Record<string, string>,
  body: object,
): Promise<{ message: unknown; sessionId: string | undefined }> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new BindgenError(url, "", "a reachable MCP server", (err as Error).message);
  }
  const sessionId = response.headers.get("mcp-session-id") ?? undefined;
  const text = await response.text();
  if (text.trim() === "") return { message: undefined, sessionId };
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("text/event-stream")) {
    // The answer is the event whose data is the response to our request; notifications before it are skipped.
    const id = (body as { id?: unknown }).id;
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).replace(/^ /, ""))
        .join("\n");
      if (data === "") continue;
      const message = safeParse(data);
      if (isRecord(message) && message["id"] === id) return { message, sessionId };
    }
    return { message: undefined, sessionId };
  }
  return { message: safeParse(text), sessionId };
}

/** stdio: newline-delimited JSON-RPC with a child process, which is ended when the listing is done. */
function stdioSession(command: string): Session {
  const [program, ...args] = command.split(/\s+/).filter((w) => w !== "");
  if (program === undefined) throw new BindgenError("--command", "", "a command to start the server");
  const child = spawn(program, args, { stdio: ["pipe", "pipe", "ignore"] });
  const waiting = new Map<number, (message: unknown) => void>();
  let failure: Error | undefined;
  let buffer = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
      const line = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 1);
      const message = safeParse(line);
      if (isRecord(message) && typeof message["id"] === "number" && !("method" in message))
        waiting.get(message["id"])?.(message);
    }
  });
  const fail = (err: Error) => {
    failure = err;
    for (const settle of waiting.values()) settle(undefined);
  };
  child.on("error", fail);
  child.on("exit", () => fail(new Error("the server exited")));
  let id = 0;
  const exchange: Exchange = (method, params, notification = false) => {
    if (failure !== undefined)
      return Promise.reject(new BindgenError(command, "", "a running stdio server", failure.message));
    const body = notification
      ? { jsonrpc: "2.0", method, ...(params ? { params } : {}) }
      : { jsonrpc: "2.0", id: ++id, method, ...(params ? { params } : {}) };
    child.stdin.write(JSON.stringify(body) + "\n");
    if (notification) return Promise.resolve(undefined);
    const mine = id;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => settle(undefined), TIMEOUT_MS);
      const settle = (message: unknown) => {
        clearTimeout(timer);
        waiting.delete(mine);
        if (message === undefined)
          reject(new BindgenError(command, "", `an answer to ${method}`, failure?.message ?? "no answer in time"));
        else {
          try {
            resolve(resultOf(command, message));
          } catch (err) {
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        }
      };
      waiting.set(mine, settle);
    });
  };
  return {
    exchange,
    close() {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.stdin.end();
        child.kill();
      });
    },
  };
}

/** The result of a response; an error response or anything else is a `BindgenError` naming the server. */
function resultOf(where: string, message: unknown): unknown {
  if (isRecord(message) && isRecord(message["error"])) {
    const error = message["error"];
    throw new BindgenError(
      where,
      "",
      "a result",
      `error ${String(error["code"])}: ${String(error["message"]).slice(0, 200)}`,
    );
  }
  if (!isRecord(message) || !("result" in message)) throw new BindgenError(where, "", "a JSON-RPC response");
  return message["result"];
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
