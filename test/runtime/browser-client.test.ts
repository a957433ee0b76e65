// The browser client in a real browser (Debian's headless Chromium through playwright-core): a page that bundles
// `connect` + `httpTransport` is served from one loopback port and calls the example server on another, which
// lists the page's origin in `allowedOrigins`. Both eras cross origins (2026-07-28 stateless with an `Mcp-Param-*`
// header, and a 2025-11-25 session: initialize, its GET stream and the DELETE on close), and the same page served
// from an origin the server does not list is refused by the browser (the server's CORS answer is a 403).
import { build } from "esbuild";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type ExampleServer } from "../../examples/server.ts";
import { TEST_TREE } from "../support/test-tree.ts";

const CHROMIUM = "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** What the page runs: one era's client, one tool call, its text (or the error) shown in `#result`. */
const PAGE_SCRIPT = `
import { connect, httpTransport, v2025_11_25, v2026_07_28 } from "./generated/index.js";

async function run(url, era) {
  const releases = era === "2026-07-28" ? [v2026_07_28.clientRelease()] : [v2025_11_25.clientRelease()];
  const session = await connect(httpTransport(url), { releases, clientInfo: { name: "browser", version: "1" }, timeoutMs: 10000 });
  try {
    const call = session.version === "2026-07-28"
      ? { name: "test_header_param", arguments: { region: "eu-west" } }
      : { name: "echo", arguments: { text: "hello from the browser" } };
    if (session.version === "2026-07-28") await session.request("tools/list", {});
    const result = await session.request("tools/call", call);
    return session.version + " " + result.content.map((part) => part.text).join(" ");
  } finally {
    await session.close();
  }
}

const query = new URLSearchParams(location.search);
const out = document.getElementById("result");
run(query.get("server"), query.get("era")).then(
  (text) => { out.textContent = text; out.dataset.state = "done"; },
  (error) => { out.textContent = error.name + ": " + error.message; out.dataset.state = "failed"; },
);
`;
const PAGE = `<!doctype html><meta charset="utf-8"><title>mcp-bindgen browser client</title><pre id="result"></pre><script type="module" src="/page.js"></script>`;

/** Serves the page and its bundle on a free loopback port; returns its origin. */
async function servePage(bundle: string): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    const script = req.url === "/page.js";
    res.writeHead(200, { "content-type": script ? "text/javascript" : "text/html; charset=utf-8" });
    res.end(script ? bundle : PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const present = existsSync(CHROMIUM);
const ABSENT = `skipped: no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run installs it)`;
if (!present) console.warn(`browser-client.test.ts: ${ABSENT}`);

describe.skipIf(!present)(
  `the browser client in headless Chromium, across origins${present ? "" : ` (${ABSENT})`}`,
  () => {
    let allowed: { origin: string; server: Server };
    let foreign: { origin: string; server: Server };
    let mcp: ExampleServer;
    let profile: string;
    let browser: BrowserContext;

    beforeAll(async () => {
      const bundled = await build({
        stdin: { contents: PAGE_SCRIPT, resolveDir: TEST_TREE, loader: "js", sourcefile: "page.js" },
        bundle: true,
        format: "esm",
        platform: "browser",
        write: false,
        logLevel: "silent",
      });
      const bundle = bundled.outputFiles[0]!.text;
      allowed = await servePage(bundle);
      foreign = await servePage(bundle);
      mcp = await startServer({ port: 0, allowedOrigins: [allowed.origin], onError: () => undefined });
      profile = await mkdtemp(join(tmpdir(), "mcp-chromium-"));
      browser = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: ARGS,
      });
    });

    afterAll(async () => {
      await browser?.close();
      await mcp?.close();
      for (const page of [allowed, foreign]) await new Promise((resolve) => page?.server.close(resolve));
      if (profile !== undefined) await rm(profile, { recursive: true, force: true });
    });

    /** Opens the page from `origin` against the example server in `era`; what `#result` shows once settled. */
    async function shown(origin: string, era: string): Promise<{ state: string | null; text: string }> {
      const page = await browser.newPage();
      try {
        await page.goto(`${origin}/?server=${encodeURIComponent(mcp.url)}&era=${era}`);
        const result = page.locator("#result[data-state]");
        await result.waitFor({ timeout: 30_000 });
        return { state: await result.getAttribute("data-state"), text: await result.innerText() };
      } finally {
        await page.close();
      }
    }

    it("2026-07-28 (stateless, with an Mcp-Param-* header): calls a tool from another origin and shows its result", async () => {
      expect(await shown(allowed.origin, "2026-07-28")).toEqual({ state: "done", text: "2026-07-28 Region: eu-west" });
    });

    it("2025-11-25 (a session: Mcp-Session-Id read by the page, GET stream, DELETE): calls a tool and shows its result", async () => {
      expect(await shown(allowed.origin, "2025-11-25")).toEqual({
        state: "done",
        text: "2025-11-25 hello from the browser",
      });
      expect(mcp.handler.sessions).toBe(0);
    });

    it.each(["2026-07-28", "2025-11-25"])(
      "%s: the same page from an origin the server does not list is refused",
      async (era) => {
        const { state, text } = await shown(foreign.origin, era);
        expect(state).toBe("failed");
        expect(text).toMatch(/^ConnectionError/);
      },
    );
  },
);
