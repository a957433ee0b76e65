import { build } from "esbuild";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../generator/project/project.ts";
import { GENERATED_DIR } from "../support/test-tree.ts";

/**
 * What a bundler keeps of a release when a program imports it through its index: only what the
 * program reaches. Top-level initialisers with side effects (even a property read) would pin
 * whole modules; the validator table is the largest, so its absence is the witness.
 */
async function bundle(contents: string): Promise<string> {
  const result = await build({
    stdin: { contents, resolveDir: PACKAGE_ROOT, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "neutral",
    treeShaking: true,
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

const INDEX = join(GENERATED_DIR, "2026-07-28", "index.js");
/** Text only the validator table holds: the start of its `tools/call` method entry. */
const TABLE_WITNESS = '["tools/call",0,';

describe("the README's import patterns", () => {
  const call = `mcp.request("tools/call", { name: "weather", arguments: { city: "Oslo" } }, { id: 1, clientCapabilities: {} })`;

  it("the first one, a release folder as a namespace, keeps the builders and leaves the validator table and METHODS out", async () => {
    const code = await bundle(`import * as mcp from ${JSON.stringify(INDEX)};\nexport const msg = ${call};`);
    expect(code).toContain("function request");
    expect(code).not.toContain(TABLE_WITNESS);
    expect(code).not.toContain("METHODS");
  });

  it("the root index's namespace keeps the whole release, as the README says (the witness above can fail)", async () => {
    const code = await bundle(
      `import { v2026_07_28 as mcp } from ${JSON.stringify(join(GENERATED_DIR, "index.js"))};\nexport const msg = ${call};`,
    );
    expect(code).toContain(TABLE_WITNESS);
  });
});

describe("tree-shaking a release", () => {
  it("the builders alone leave the validator table and the dispatchers out", async () => {
    const code = await bundle(
      `export { request, notification, resultResponse, errorResponse } from ${JSON.stringify(INDEX)};`,
    );
    expect(code).toContain("function request");
    expect(code).not.toContain(TABLE_WITNESS);
    expect(code).not.toContain("SERVER_SIDE");
    expect(code).not.toContain("METHODS");
  });

  it("validateMessage brings the table (the witness above can fail)", async () => {
    expect(await bundle(`export { validateMessage } from ${JSON.stringify(INDEX)};`)).toContain(TABLE_WITNESS);
  });

  it("checking messages leaves out the definitions only validate() and the guards reach; validate brings them", async () => {
    const messages = await bundle(`export { parse, validateMessage, validateResult } from ${JSON.stringify(INDEX)};`);
    expect(messages).toContain("TextContent");
    expect(messages).not.toContain("JSONRPCMessage");
    expect(await bundle(`export { validate } from ${JSON.stringify(INDEX)};`)).toContain("JSONRPCMessage");
  });

  it("validators leave the Standard Schema objects out; standardSchema brings them (the witness can fail)", async () => {
    const witness = "function standardSchemas";
    const checking = await bundle(
      `export { parse, validateMessage, validateResult, validate } from ${JSON.stringify(INDEX)};`,
    );
    expect(checking).not.toContain(witness);
    expect(await bundle(`export { standardSchema } from ${JSON.stringify(INDEX)};`)).toContain(witness);
  });
});

describe("the browser client (the bench's 12.5 KB row)", () => {
  const client = [
    `import { clientRelease, connect, httpTransport } from ${JSON.stringify(INDEX)};`,
    `export const call = async (url: string) => {`,
    `  const session = await connect(httpTransport(url), { releases: [clientRelease()], clientInfo: { name: "b", version: "1" } });`,
    `  return session.request("tools/call", { name: "echo", arguments: {} });`,
    `};`,
  ].join("\n");

  it("leaves out unused constants, the server's codecs and tables, the worded x-mcp-header problems and, with no dispatcher, the input rounds", async () => {
    const code = await bundle(client);
    expect(code).toContain("function connect");
    for (const left of [
      "REQUIRED_REQUEST_META_KEYS",
      "DEFAULT_MAX_AGE_MS",
      "DEFAULT_MAX_LINE_BYTES",
      "is not reachable from the root",
      "function inputHandlerFor",
      "function isTraceparent",
      // The release's server-side tables (a bare Object.freeze once kept RESOURCE_SERVER_RULES in every client).
      "resourceMetadataInChallenge",
      // Authorization: the authorizer wraps the transport's fetch, so a transport without `auth` holds none of it.
      "www-authenticate",
      "Authorization",
    ])
      expect(code, left).not.toContain(left);
  });

  it("a trace context carrier brings its checks (the witness above can fail)", async () => {
    const tracing = client
      .replace(
        `clientInfo: { name: "b", version: "1" }`,
        `clientInfo: { name: "b", version: "1" }, traceContext: traceContextFrom(() => undefined)`,
      )
      .replace("{ clientRelease,", "{ traceContextFrom, clientRelease,");
    expect(await bundle(tracing)).toContain("function isTraceparent");
  });

  it("an authorizer brings the authorization code (the witness above can fail)", async () => {
    const authorizing = client
      .replace(
        "httpTransport(url)",
        "httpTransport(url, { auth: authorizeRequests({ authorization: async () => undefined, refused: async () => false }) })",
      )
      .replace(
        "export const call",
        `import { authorizeRequests } from ${JSON.stringify(join(GENERATED_DIR, "runtime", "client", "client-auth.js"))};\nexport const call`,
      );
    const code = await bundle(authorizing);
    expect(code).toContain("www-authenticate");
    expect(code).toContain("Authorization");
  });

  it("a client dispatcher brings the input rounds (the witness above can fail)", async () => {
    const answering = client
      .replace("clientRelease()", "clientRelease({ dispatcher: createClientDispatcher({}) })")
      .replace("{ clientRelease,", "{ createClientDispatcher, clientRelease,");
    expect(await bundle(answering)).toContain("function inputHandlerFor");
  });

  it("httpHeaders with a tool brings the worded problems (the witness above can fail)", async () => {
    expect(await bundle(`export { httpHeaders } from ${JSON.stringify(INDEX)};`)).toContain(
      "is not reachable from the root",
    );
  });
});
