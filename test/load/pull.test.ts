import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BindgenError } from "../../generator/common/failures.ts";
import { pull } from "../../generator/load/pull.ts";
import { acquireLock } from "../../generator/common/files.ts";
import { fixture, runMain, sha256, spawnCli, tmpProject, type TmpProject } from "../support/tmp-project.ts";

/**
 * `pull` against a real HTTP server on 127.0.0.1. Every failure must leave the previous schema
 * file (and the lock) exactly as they were, and say what happened.
 */
const V = "2031-01-01";
const GOOD = fixture("modern-minimal.json");
const PREVIOUS = fixture("legacy-minimal.json");
const OTHER = Buffer.from(GOOD.toString("utf8").replace("server/discover", "server/discover2"));

const DRAFT_TS = Buffer.from("export type JSONValue = string | number | boolean | null;\n");

let server: Server;
let base: string;
const hits: string[] = [];

function route(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? "/";
  hits.push(url);
  const [, kind] = url.split("/");
  switch (kind) {
    case "good":
      res.writeHead(200, { "content-type": "application/json", "content-length": GOOD.length });
      res.end(GOOD);
      return;
    case "other":
      res.writeHead(200, { "content-length": OTHER.length });
      res.end(OTHER);
      return;
    case "missing":
      res.writeHead(404, "Not Found");
      res.end("no such file");
      return;
    case "truncated":
      // Promise more than is sent, then drop the connection half-way.
      res.writeHead(200, { "content-length": GOOD.length + 1000 });
      res.write(GOOD.subarray(0, GOOD.length >> 1), () => res.destroy());
      return;
    case "redirect":
      res.writeHead(302, { location: url.replace("/redirect/", "/good/") });
      res.end();
      return;
    case "loop":
      res.writeHead(302, { location: url });
      res.end();
      return;
    case "spec": {
      // The spec repository's raw files: /spec/<commit>/schema/draft/schema.{json,ts}; commit "bbbbbbb" has no schema.ts.
      const [, , commit, , , file] = url.split("/");
      const body = file === "schema.json" ? GOOD : file === "schema.ts" && commit !== "bbbbbbb" ? DRAFT_TS : undefined;
      res.writeHead(body ? 200 : 404);
      res.end(body ?? "404: Not Found");
      return;
    }
    case "hang":
      return; // never answers
    case "huge":
      // Announces more than any schema may be, then stalls: the header alone must be enough.
      res.writeHead(200, { "content-length": 9 * 1024 * 1024 });
      res.write("{");
      return;
    case "endless": {
      // No length, and a body that never ends: the client must stop reading on its own.
      res.writeHead(200);
      const chunk = Buffer.alloc(1 << 20, 0x20);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
      return;
    }
    default:
      res.writeHead(500);
      res.end();
  }
}

beforeAll(async () => {
  server = createServer(route);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let project: TmpProject;
beforeEach(() => {
  hits.length = 0;
  project = tmpProject("mcp-bindgen-pull-");
  // The lock pins GOOD; an older copy (PREVIOUS) is in place and must survive every failure.
  project.putSchema(V, PREVIOUS, { sha256: sha256(GOOD), url: `${base}/good/${V}/schema.json` });
});
afterEach(() => project.cleanup());

const lockText = () => readFileSync(project.paths.lockFile, "utf8");

async function failingPull(from: string, timeoutMs = 10_000): Promise<BindgenError> {
  const lockBefore = lockText();
  const error = await pull({ ...project.paths, versions: [V], from, force: true, timeoutMs }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BindgenError);
  expect(readFileSync(project.schemaFile(V))).toEqual(PREVIOUS);
  expect(readdirSync(join(project.paths.cacheDir, V))).toEqual(["schema.json"]);
  expect(lockText()).toBe(lockBefore);
  return error as BindgenError;
}

describe("pull over HTTP", () => {
  it("200: places the file, verified against the lock", async () => {
    const [result] = await pull({ ...project.paths, versions: [V], from: `${base}/good` });
    expect(result).toMatchObject({
      version: V,
      status: "pulled",
      source: `${base}/good/${V}/schema.json`,
      sha256: sha256(GOOD),
    });
    expect(readFileSync(project.schemaFile(V))).toEqual(GOOD);
    expect(hits).toEqual([`/good/${V}/schema.json`]);
  });

  it("uses the lock's URL when no folder is given, and does not fetch a verified copy again", async () => {
    await pull({ ...project.paths, versions: [V] });
    expect(readFileSync(project.schemaFile(V))).toEqual(GOOD);
    const [again] = await pull({ ...project.paths, versions: [V] });
    expect(again?.status).toBe("present");
    expect(hits).toEqual([`/good/${V}/schema.json`]);
  });

  it("302: follows the redirect to the right path", async () => {
    await pull({ ...project.paths, versions: [V], from: `${base}/redirect` });
    expect(readFileSync(project.schemaFile(V))).toEqual(GOOD);
    expect(hits).toEqual([`/redirect/${V}/schema.json`, `/good/${V}/schema.json`]);
  });

  it("404: says which URL and status, keeps the previous file", async () => {
    const e = await failingPull(`${base}/missing`);
    expect(e.message).toBe(
      `${base}/missing/${V}/schema.json: expected HTTP 200 (got HTTP 404 Not Found; without network, or for a release recorded from a local folder, set MCP_SCHEMA_DIR to a folder laid out as <release>/schema.json, or pass --from DIR|URL)`,
    );
  });

  it("truncated body: says the body was incomplete, keeps the previous file", async () => {
    const e = await failingPull(`${base}/truncated`);
    expect(e.message).toContain(`${base}/truncated/${V}/schema.json: expected a complete response body`);
  });

  it("wrong hash: names both hashes, writes nothing", async () => {
    const e = await failingPull(`${base}/other`);
    expect(e.message).toContain(`expected sha256 ${sha256(GOOD)}`);
    expect(e.message).toContain(`got ${sha256(OTHER)}; nothing was written`);
  });

  it("timeout: a server that never answers is given up on", async () => {
    const e = await failingPull(`${base}/hang`, 300);
    expect(e.message).toBe(
      `${base}/hang/${V}/schema.json: expected a reachable URL (no answer within 0.3s; without network, or for a release recorded from a local folder, set MCP_SCHEMA_DIR to a folder laid out as <release>/schema.json, or pass --from DIR|URL)`,
    );
  });

  it("a body announced larger than any schema is refused from its header", async () => {
    const e = await failingPull(`${base}/huge`);
    expect(e.message).toBe(
      `${base}/huge/${V}/schema.json: expected a schema of at most 8 MiB (the server sent more; nothing was written)`,
    );
  });

  it("an endless body is cut off after 8 MiB instead of filling memory", async () => {
    const e = await failingPull(`${base}/endless`);
    expect(e.message).toContain("expected a schema of at most 8 MiB");
  });

  it("a redirect loop fails clearly", async () => {
    const e = await failingPull(`${base}/loop`);
    expect(e.message).toMatch(/expected a reachable URL \(.*redirect/);
  });

  it("nobody listening fails clearly", async () => {
    const e = await failingPull("http://127.0.0.1:1");
    expect(e.message).toMatch(/^http:\/\/127\.0\.0\.1:1\/2031-01-01\/schema\.json: expected a reachable URL \(.+\)$/);
  });
});

describe("--update-lock", () => {
  it("records a new release from a URL with its sha256 and that URL", async () => {
    const NEW = "2031-06-01";
    await pull({ ...project.paths, versions: [NEW], from: `${base}/other`, updateLock: true });
    expect(readFileSync(project.schemaFile(NEW))).toEqual(OTHER);
    expect(project.readLock()[NEW]).toEqual({ url: `${base}/other/${NEW}/schema.json`, sha256: sha256(OTHER) });
    expect(project.readLock()[V]).toEqual({ url: `${base}/good/${V}/schema.json`, sha256: sha256(GOOD) });
  });

  it("records a new release from a folder as that folder, relative to the lock, and pulls it from there later", async () => {
    const NEW = "2031-06-01";
    const dir = join(project.root, "drafts");
    mkdirSync(join(dir, NEW), { recursive: true });
    writeFileSync(join(dir, NEW, "schema.json"), OTHER);
    await pull({ ...project.paths, versions: [NEW], from: dir, updateLock: true });
    expect(project.readLock()[NEW]).toEqual({ url: `drafts/${NEW}/schema.json`, sha256: sha256(OTHER) });
    rmSync(project.schemaFile(NEW));
    await pull({ ...project.paths, versions: [NEW] });
    expect(readFileSync(project.schemaFile(NEW))).toEqual(OTHER);
    expect(hits).toEqual([]);
  });

  it("re-seals a locked release whose file changed", async () => {
    await pull({ ...project.paths, versions: [V], from: `${base}/other`, updateLock: true });
    expect(project.readLock()[V]?.sha256).toBe(sha256(OTHER));
    expect(readFileSync(project.schemaFile(V))).toEqual(OTHER);
  });

  it("without it, an unknown release is a usage error listing the known ones", async () => {
    await expect(pull({ ...project.paths, versions: ["2031-06-01"], from: `${base}/good` })).rejects.toThrow(
      `unknown release "2031-06-01" (known: ${V}); add it with --update-lock`,
    );
  });
});

describe("source precedence: --from, then MCP_SCHEMA_DIR, then the lock URL", () => {
  const folder = (name: string, bytes: Buffer) => {
    const dir = join(project.root, name);
    mkdirSync(join(dir, V), { recursive: true });
    writeFileSync(join(dir, V, "schema.json"), bytes);
    return dir;
  };

  it("--from wins over MCP_SCHEMA_DIR", async () => {
    const [r] = await pull({ ...project.paths, versions: [V], from: folder("from", GOOD), env: folder("env", OTHER) });
    expect(r?.source).toBe(join(project.root, "from", V, "schema.json"));
    expect(readFileSync(project.schemaFile(V))).toEqual(GOOD);
  });

  it("MCP_SCHEMA_DIR is used when there is no --from (a wrong copy there is reported, naming it)", async () => {
    const env = folder("env", OTHER);
    await expect(pull({ ...project.paths, versions: [V], env, force: true })).rejects.toThrow(
      `${join(env, V, "schema.json")}: expected sha256 ${sha256(GOOD)}`,
    );
    expect(readFileSync(project.schemaFile(V))).toEqual(PREVIOUS);
  });

  it("MCP_SCHEMA_DIR wins over the lock URL: the server is never asked", async () => {
    await pull({ ...project.paths, versions: [V], env: folder("env", GOOD), force: true });
    expect(readFileSync(project.schemaFile(V))).toEqual(GOOD);
    expect(hits).toEqual([]);
  });

  it("through the CLI: --from beats $MCP_SCHEMA_DIR, which beats the lock URL", async () => {
    const good = folder("from", GOOD);
    const other = folder("env", OTHER);
    const r1 = await runMain(["pull", "--from", good], project.root, { MCP_SCHEMA_DIR: other });
    expect(r1.code).toBe(0);
    expect(readFileSync(project.schemaFile(V))).toEqual(GOOD);
    const r2 = await runMain(["pull", "--force"], project.root, { MCP_SCHEMA_DIR: other });
    expect(r2.code).toBe(1);
    expect(r2.stderr.trim()).toContain(`${join(other, V, "schema.json")}: expected sha256 ${sha256(GOOD)}`);
    expect(readFileSync(project.schemaFile(V))).toEqual(GOOD);
    expect(hits).toEqual([]);
  });

  it("a named copy is checked on every use, even with a verified copy cached: generate fails on a wrong one, naming it", async () => {
    writeFileSync(project.schemaFile(V), GOOD);
    for (const [args, env] of [
      [["--from", folder("from", OTHER)], undefined],
      [[], folder("env", OTHER)],
    ] as const) {
      const r = await runMain(["generate", "--quiet", ...args], project.root, env ? { MCP_SCHEMA_DIR: env } : {});
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(
        `${join(project.root, args.length > 0 ? "from" : "env", V, "schema.json")}: expected sha256 ${sha256(GOOD)}`,
      );
      expect(readFileSync(project.schemaFile(V))).toEqual(GOOD);
    }
    // The same copy, right this time: used, and the cache left as it is, since it holds the same bytes.
    const [right] = await pull({ ...project.paths, versions: [V], env: folder("env", GOOD) });
    expect(right).toMatchObject({ status: "present", source: join(project.root, "env", V, "schema.json") });
    expect(hits).toEqual([]);
  });

  it("MCP_SCHEMA_DIR without the release: the cache serves it, as before", async () => {
    writeFileSync(project.schemaFile(V), GOOD);
    const empty = join(project.root, "empty");
    mkdirSync(empty);
    const [r] = await pull({ ...project.paths, versions: [V], env: empty });
    expect(r).toMatchObject({ status: "present", source: project.schemaFile(V) });
  });

  it("a release the lock records from a folder is read from that folder, whatever MCP_SCHEMA_DIR holds", async () => {
    const NEW = "2031-06-01";
    const drafts = folder("drafts", GOOD);
    mkdirSync(join(drafts, NEW), { recursive: true });
    writeFileSync(join(drafts, NEW, "schema.json"), OTHER);
    await pull({ ...project.paths, versions: [NEW], from: drafts, updateLock: true });
    const env = folder("env", GOOD);
    mkdirSync(join(env, NEW), { recursive: true });
    writeFileSync(join(env, NEW, "schema.json"), GOOD);
    rmSync(project.schemaFile(NEW));
    const [r] = await pull({ ...project.paths, versions: [NEW], env });
    expect(r?.source).toBe(join(drafts, NEW, "schema.json"));
    expect(readFileSync(project.schemaFile(NEW))).toEqual(OTHER);
    // An edited draft no longer matches the lock: every use says so, although the cache holds the recorded copy.
    writeFileSync(join(drafts, NEW, "schema.json"), GOOD);
    await expect(pull({ ...project.paths, versions: [NEW] })).rejects.toThrow(
      `${join(drafts, NEW, "schema.json")}: expected sha256 ${sha256(OTHER)}`,
    );
  });

  it("through the CLI: --timeout gives up on a silent server with exit 1 and one line", async () => {
    const r = await runMain(["pull", "--force", "--timeout", "0.3", "--from", `${base}/hang`], project.root);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([
      `mcp-bindgen: ${base}/hang/${V}/schema.json: expected a reachable URL (no answer within 0.3s; without network, or for a release recorded from a local folder, set MCP_SCHEMA_DIR to a folder laid out as <release>/schema.json, or pass --from DIR|URL)`,
    ]);
    expect(readFileSync(project.schemaFile(V))).toEqual(PREVIOUS);
  });
});

describe("pull --draft --commit without a folder", () => {
  const raw = "https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol";
  const pullDraft = async (commit: string) => {
    const log: string[] = [];
    await pull({
      ...project.paths,
      versions: [],
      draft: { commit },
      specRawBase: `${base}/spec`,
      log: (l) => log.push(l),
    });
    return log;
  };

  it("fetches the schema.ts the spec repository holds beside the schema, pinned at the commit", async () => {
    const log = await pullDraft("aaaaaaa");
    expect(hits).toEqual(["/spec/aaaaaaa/schema/draft/schema.json", "/spec/aaaaaaa/schema/draft/schema.ts"]);
    expect(project.readLock()["draft"]).toEqual({
      url: `${raw}/aaaaaaa/schema/draft/schema.json`,
      sha256: sha256(GOOD),
      typescript: { url: `${raw}/aaaaaaa/schema/draft/schema.ts`, sha256: sha256(DRAFT_TS) },
    });
    expect(readFileSync(join(project.paths.cacheDir, "draft", "schema.ts"))).toEqual(DRAFT_TS);
    expect(log.join("\n")).toContain("with its schema.ts");
  });

  it("says why when the commit has none, and records the schema alone", async () => {
    const log = await pullDraft("bbbbbbb");
    expect(project.readLock()["draft"]).toEqual({
      url: `${raw}/bbbbbbb/schema/draft/schema.json`,
      sha256: sha256(GOOD),
    });
    expect(log).toContain(
      `draft: no schema.ts at ${base}/spec/bbbbbbb/schema/draft/schema.ts (got HTTP 404 Not Found); deprecations come from schema/facts.json alone`,
    );
  });
});

describe("two pull --update-lock at once", () => {
  it("lose no update: each waits for the project's lock file, then records its release beside the others", async () => {
    const releases = ["2032-01-01", "2032-02-01", "2032-03-01"];
    const drafts = join(project.root, "drafts");
    for (const [i, r] of releases.entries()) {
      mkdirSync(join(drafts, r), { recursive: true });
      writeFileSync(join(drafts, r, "schema.json"), i % 2 ? GOOD : OTHER);
    }
    // Hold the lock file so that every process has read the lock and placed its schema before any may write.
    const release = acquireLock(project.paths.lockFile);
    const before = lockText();
    const children = releases.map((r) =>
      spawnCli(["pull", "--project", project.root, "--release", r, "--from", drafts, "--update-lock"]),
    );
    const done = children.map(
      (child) =>
        new Promise<{ code: number | null; out: string }>((resolve) => {
          let out = "";
          child.stdout.on("data", (d: Buffer) => (out += d.toString()));
          child.on("close", (code) => resolve({ code, out }));
        }),
    );
    const recorded = children.map(
      (child) =>
        new Promise<void>((resolve) =>
          child.stdout.on("data", (d: Buffer) => d.toString().includes("recorded") && resolve()),
        ),
    );
    await Promise.all(recorded);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(lockText()).toBe(before);
    release();
    expect((await Promise.all(done)).map((r) => r.code)).toEqual(releases.map(() => 0));
    expect(Object.keys(project.readLock()).sort()).toEqual([V, ...releases]);
  });
});

describe("pinned examples", () => {
  const pin = (hash: string) =>
    project.setLock({
      [V]: {
        url: `${base}/good/${V}/schema.json`,
        sha256: sha256(GOOD),
        examples: { "CallToolResult/one.json": hash },
      },
    });

  it("are fetched beside the schema from the lock's URLs, verified, and not fetched again", async () => {
    pin(sha256(GOOD));
    await pull({ ...project.paths, versions: [V], examples: true, force: true });
    expect(readFileSync(join(project.paths.cacheDir, V, "examples", "CallToolResult", "one.json"))).toEqual(GOOD);
    expect(hits).toEqual([`/good/${V}/schema.json`, `/good/${V}/examples/CallToolResult/one.json`]);
    await pull({ ...project.paths, versions: [V], examples: true });
    expect(hits).toHaveLength(2);
  });

  it("a copy with another sha256 is refused, naming its URL, and nothing is written", async () => {
    pin(sha256(OTHER));
    await expect(pull({ ...project.paths, versions: [V], examples: true, force: true })).rejects.toThrow(
      `${base}/good/${V}/examples/CallToolResult/one.json: expected sha256 ${sha256(OTHER)}`,
    );
    expect(readdirSync(join(project.paths.cacheDir, V))).toEqual(["schema.json"]);
  });
});
