import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { RequestAuthorizer } from "../runtime/client/client-auth.ts";
import { readConfig, type ServerSource } from "./config.ts";
import { BindgenError, UsageError } from "../common/failures.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import { clientReleases } from "../tools/client-releases.ts";
import { compareToolSets, type ToolsDiffReport } from "../tools/compare.ts";
import {
  listTools as defaultListTools,
  type ListTools,
  type ReleaseOffer,
  type ToolSource,
} from "../tools/list-tools.ts";
import {
  asWritten,
  checkServerName,
  readSnapshot,
  snapshotOf,
  snapshotText,
  SNAPSHOT_FOLDER,
  type ToolsSnapshot,
} from "../tools/snapshot.ts";
import { toolSet } from "../tools/tool-set.ts";
import { leftOutWarnings } from "../tools/usable-tools.ts";

/** How `tools add` and `tools update` reach a server this run; `headers` are for this run only. */
export interface ToolsRunOptions {
  /** The project's config file: snapshots go to `mcp-tools/` beside it. */
  readonly configFile: string;
  /** The releases this project can speak, read from its models. */
  readonly offer: () => Promise<ReleaseOffer>;
  /** Auth headers for an HTTP server: sent, never written. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The OAuth authorizer for an HTTP server's URL, if it is to have one (tools/oauth-login.ts). */
  readonly auth?: (url: string) => Promise<RequestAuthorizer | undefined>;
  /** A saved tools/list result instead of the server. */
  readonly from?: string;
  /** The release a saved result was listed in (default: the snapshot's, else the newest the project speaks). */
  readonly release?: string;
  /** Receives a line per tool that generate will leave out of the server's module, and why. */
  readonly warn?: (line: string) => void;
  /** How the server is reached: the shipped client transport by default; tests pass a fake. */
  readonly listTools?: ListTools;
}

export interface ToolsUpdate {
  readonly server: string;
  readonly file: string;
  /** What changed since the last snapshot; null for a new one. */
  readonly diff: ToolsDiffReport | null;
  readonly written: boolean;
}

/** What `tools add` offers a server: every release the project generates, newest first. */
export function releaseOffer(models: readonly ProtocolModel[]): ReleaseOffer {
  return clientReleases(models);
}

/** Lists a new server's tools, writes `mcp-tools/<name>.json` and records the server in the config. */
export async function addServer(name: string, source: ServerSource, options: ToolsRunOptions): Promise<ToolsUpdate> {
  checkServerName(name, (expected, detail) => new UsageError(`tools add: expected ${expected}, ${detail}`));
  const config = readConfig(options.configFile);
  const file = snapshotFile(options.configFile, name);
  if (Object.prototype.hasOwnProperty.call(config.servers, name))
    throw new UsageError(
      `server "${name}" is already in ${options.configFile}: run "mcp-bindgen tools update ${name}"`,
    );
  if (existsSync(file))
    throw new UsageError(
      `${file} exists and is not a server of ${options.configFile}: mcp-bindgen never overwrites a file it did not write`,
    );
  const snapshot = await take(name, source, options, undefined);
  writeAtomically(file, snapshotText(snapshot));
  recordServer(options.configFile, name, source);
  return { server: name, file, diff: null, written: true };
}

/** Lists each named server again (every configured one without names) and rewrites the snapshots that changed. */
export async function updateServers(names: readonly string[], options: ToolsRunOptions): Promise<ToolsUpdate[]> {
  const config = readConfig(options.configFile);
  const chosen = names.length > 0 ? names : Object.keys(config.servers).sort();
  refuseSharedHeaders(names, options, config.servers);
  const updates: ToolsUpdate[] = [];
  for (const name of chosen) {
    if (!Object.prototype.hasOwnProperty.call(config.servers, name))
      throw new UsageError(
        `no server "${name}" in ${options.configFile}: add it with "mcp-bindgen tools add ${name} --url <url>"`,
      );
    const file = snapshotFile(options.configFile, name);
    const before = existsSync(file) ? readSnapshot(file) : undefined;
    const after = await take(name, config.servers[name]!, options, before);
    const text = snapshotText(after);
    const changed = before === undefined || snapshotText(before) !== text;
    if (changed) writeAtomically(file, text);
    updates.push({
      server: name,
      file,
      diff: before === undefined ? null : compareToolSets(toolSet(file, before), toolSet(file, after)),
      written: changed,
    });
  }
  return updates;
}

/**
 * Headers given for a run (credentials, typically) go to the one HTTP server named, never to every server of
 * the config: a token meant for one server must not reach the others.
 */
function refuseSharedHeaders(
  names: readonly string[],
  options: ToolsRunOptions,
  servers: Readonly<Record<string, ServerSource>>,
): void {
  if (Object.keys(options.headers ?? {}).length === 0) return;
  if (names.length !== 1)
    throw new UsageError(
      `tools update: --header goes to one server; name it ("mcp-bindgen tools update <name> --header K=V")${names.length > 1 ? `, not ${names.length}` : ""}`,
    );
  const source = Object.prototype.hasOwnProperty.call(servers, names[0]!) ? servers[names[0]!] : undefined;
  if (source !== undefined && !("url" in source))
    throw new UsageError(`tools update: --header is for an HTTP server, and "${names[0]}" is not one`);
}

/** `diff --tools`: every change between two snapshots, rated for callers. */
export function diffSnapshots(oldFile: string, newFile: string): ToolsDiffReport {
  return compareToolSets(toolSet(oldFile, readSnapshot(oldFile)), toolSet(newFile, readSnapshot(newFile)));
}

async function take(
  name: string,
  source: ServerSource,
  options: ToolsRunOptions,
  previous: ToolsSnapshot | undefined,
): Promise<ToolsSnapshot> {
  const saved = options.from ?? ("from" in source ? resolve(dirname(options.configFile), source.from) : undefined);
  // The offer loads every release's model: only a live server, or a saved result of unknown release, needs it.
  const known = options.release ?? previous?.release;
  const offer = saved !== undefined && known !== undefined ? [] : await options.offer();
  const release = known ?? offer[0]?.version ?? "";
  const auth = saved === undefined && "url" in source ? await options.auth?.(source.url) : undefined;
  const run: ToolSource =
    saved !== undefined
      ? { kind: "file", file: saved, release }
      : "url" in source
        ? { kind: "url", server: name, url: source.url, headers: options.headers ?? {}, ...(auth ? { auth } : {}) }
        : { kind: "command", server: name, command: (source as { command: string }).command };
  const listed = await (options.listTools ?? defaultListTools)(run, offer);
  const where = run.kind === "file" ? run.file : run.kind === "url" ? run.url : run.command;
  const snapshot = snapshotOf(where, name, listed.release, listed.tools, listed.at, listed.surface);
  // Told now as well as at each generate: the pointers here are into what the server (or the saved file) listed.
  for (const line of leftOutWarnings(toolSet(where, snapshot))) options.warn?.(line);
  return asWritten(snapshot);
}

function snapshotFile(configFile: string, name: string): string {
  return join(dirname(configFile), SNAPSHOT_FOLDER, `${name}.json`);
}

/** Adds the server to the config's `servers`, the rest of the file as it was (keys in their order, two-space JSON). */
function recordServer(configFile: string, name: string, source: ServerSource): void {
  const raw = JSON.parse(readFileSync(configFile, "utf8")) as Record<string, unknown>;
  const servers = (raw["servers"] ?? {}) as Record<string, unknown>;
  Object.defineProperty(servers, name, { value: source, enumerable: true, writable: true, configurable: true });
  raw["servers"] = servers;
  writeAtomically(configFile, JSON.stringify(raw, null, 2) + "\n");
}

function writeAtomically(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  } catch (err) {
    throw new BindgenError(file, "", "a writable file", (err as Error).message);
  }
}
