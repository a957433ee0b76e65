import { build } from "esbuild";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { PACKAGE_ROOT } from "../generator/project/project.ts";
import { missingRow, row, type BenchRow } from "./table.ts";

const SECTION = "bundle";
const VERSION_DIR = join(PACKAGE_ROOT, "generated", "2026-07-28");
const ENTRY = "./generated/2026-07-28/index.js";

export const BUNDLE_COMMANDS = [
  "esbuild.build({ stdin: <entry>, bundle: true, minify: true, format: 'esm', platform: 'neutral', treeShaking: true }) → bytes, gzip -9 (node:zlib) bytes",
  "OAuth rows: the same with platform: 'browser' (the SDK's pkce-challenge resolves only under the browser or node condition); the SDK v2 entry is `new Client(…).connect(new StreamableHTTPClientTransport(url, { authProvider }))` + one callTool, the provider given by the caller",
];

/** Minified and gzipped size of what one entry pulls in. */
async function sizeOf(
  contents: string,
  platform: "neutral" | "browser" = "neutral",
): Promise<{ min: number; gzip: number }> {
  const result = await build({
    stdin: { contents, resolveDir: PACKAGE_ROOT, loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform,
    ...(platform === "neutral" ? { mainFields: ["module", "main"] } : {}),
    treeShaking: true,
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { min: code.length, gzip: code.length === 0 ? 0 : gzipSync(code, { level: 9 }).length };
}

/** One version's imports against the SDK's message schema bundled alone. */
export async function benchBundle(): Promise<BenchRow[]> {
  const sdk = await sizeOf(`export { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";`);
  const rows: BenchRow[] = [];
  // The speed issue's size bound holds for builders + parse + the message validators together (validateResult too:
  // the validation row times both). `validate(name)` and the guards bring the definitions only they reach.
  const entries: [string, string, string, BenchRow["target"]?][] = [
    [
      "types-only import (must be 0 B)",
      "index.ts",
      `import type { CallToolRequest, ServerHandlers } from "${ENTRY}";\nexport type Used = [CallToolRequest, ServerHandlers];`,
    ],
    [
      "builders (request, notification, resultResponse, errorResponse)",
      "envelope.ts",
      `export { request, notification, resultResponse, errorResponse } from "${ENTRY}";`,
    ],
    [
      "builders + parse + validators",
      "envelope.ts",
      `export { request, notification, resultResponse, errorResponse, parse, validateMessage, validateResult } from "${ENTRY}";`,
      { op: "≤", value: 8000, unit: "B" },
    ],
    [
      "browser client: connect (negotiating) + httpTransport + one tools/call, with builders, parse and validators",
      "client.ts",
      [
        `import { clientRelease, connect, httpTransport } from "${ENTRY}";`,
        `export { request, notification, resultResponse, errorResponse, parse, validateMessage, validateResult } from "${ENTRY}";`,
        `export async function callTool(url: string, name: string): Promise<unknown> {`,
        `  const session = await connect(httpTransport(url), { releases: [clientRelease()], clientInfo: { name: "browser", version: "1" } });`,
        `  try { return await session.request("tools/call", { name, arguments: {} }); } finally { await session.close(); }`,
        `}`,
      ].join("\n"),
      { op: "≤", value: 12800, unit: "B" },
    ],
    [
      "browser client alone: connect (negotiating) + httpTransport + one tools/call, nothing else exported",
      "client.ts",
      [
        `import { clientRelease, connect, httpTransport } from "${ENTRY}";`,
        `export async function callTool(url: string, name: string): Promise<unknown> {`,
        `  const session = await connect(httpTransport(url), { releases: [clientRelease()], clientInfo: { name: "browser", version: "1" } });`,
        `  try { return await session.request("tools/call", { name, arguments: {} }); } finally { await session.close(); }`,
        `}`,
      ].join("\n"),
    ],
    [
      "the same + validate(name)",
      "envelope.ts",
      `export { request, notification, resultResponse, errorResponse, parse, validateMessage, validateResult, validate } from "${ENTRY}";`,
    ],
  ];
  for (const [what, needs, contents, limit] of entries) {
    if (!existsSync(join(VERSION_DIR, needs))) {
      rows.push(missingRow(SECTION, what, `n/a (generated/2026-07-28/${needs} missing)`));
      continue;
    }
    const ours = await sizeOf(contents);
    rows.push(row(SECTION, `${what}, min+gzip vs SDK JSONRPCMessageSchema`, ours.gzip, sdk.gzip, "B", limit));
    rows.push(row(SECTION, `${what}, minified vs SDK JSONRPCMessageSchema`, ours.min, sdk.min, "B"));
  }
  rows.push(...(await benchOAuthClients()));
  return rows;
}

/**
 * The browser client with OAuth against the official SDK v2 client with its OAuth provider, both bundled for the
 * browser. How the user reaches the authorization URL is the caller's on both sides (our `openAuthorizationUrl`,
 * the SDK's `OAuthClientProvider`, which also keeps the tokens: ours keeps them in the bundled memory store).
 */
export async function benchOAuthClients(): Promise<BenchRow[]> {
  const what = "SDK v2 Client + StreamableHTTPClientTransport with an OAuthClientProvider";
  const sdkOAuth = await sizeOf(
    [
      `import { Client, StreamableHTTPClientTransport, type OAuthClientProvider } from "@modelcontextprotocol/client";`,
      `export async function callTool(url: string, name: string, authProvider: OAuthClientProvider): Promise<unknown> {`,
      `  const client = new Client({ name: "browser", version: "1" });`,
      `  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider }));`,
      `  try { return await client.callTool({ name, arguments: {} }); } finally { await client.close(); }`,
      `}`,
    ].join("\n"),
    "browser",
  );
  const ours = (connectWith: string, call: string): string =>
    [
      `import { CLIENT_AUTH, clientRelease, ${connectWith}, httpTransport } from "${ENTRY}";`,
      `import type { AuthorizationUrlHandler } from "./generated/runtime/client/client-auth.js";`,
      `import { oauthClient } from "./generated/runtime/oauth/oauth-client.js";`,
      `export async function callTool(url: string, name: string, redirectUri: string, openAuthorizationUrl: AuthorizationUrlHandler): Promise<unknown> {`,
      `  const auth = oauthClient({ facts: CLIENT_AUTH, redirectUri, openAuthorizationUrl });`,
      `  const client = await ${connectWith}(httpTransport(url, { auth }), { releases: [clientRelease()], clientInfo: { name: "browser", version: "1" } });`,
      `  try { return await ${call}; } finally { await client.close(); }`,
      `}`,
    ].join("\n");
  const entries: [string, string, string][] = [
    [
      "browser client with OAuth: connect + httpTransport({ auth: oauthClient }) + one tools/call, for the browser",
      "client.ts",
      ours("connect", `client.request("tools/call", { name, arguments: {} })`),
    ],
    [
      "one-call client with OAuth: connectClient + httpTransport({ auth: oauthClient }) + one callTool, for the browser",
      "client.ts",
      ours("connectClient", "client.callTool(name, {})"),
    ],
  ];
  const rows: BenchRow[] = [];
  for (const [measure, needs, contents] of entries) {
    if (!existsSync(join(VERSION_DIR, needs)) || !existsSync(join(PACKAGE_ROOT, "generated", "runtime", "oauth"))) {
      rows.push(missingRow(SECTION, measure, "n/a (generated/ lacks 2026-07-28 or the oauth extra)"));
      continue;
    }
    const size = await sizeOf(contents, "browser");
    rows.push(row(SECTION, `${measure}, min+gzip vs ${what}`, size.gzip, sdkOAuth.gzip, "B"));
    rows.push(row(SECTION, `${measure}, minified vs ${what}`, size.min, sdkOAuth.min, "B"));
  }
  return rows;
}
