// The command line's OAuth (generator/tools/oauth-login.ts), as `tools add --oauth` runs it: the authorization URL
// printed, the user's browser (played by fetch) sent back to the loopback listener, the tokens in a file of the
// user's config directory readable by its owner only, and nothing of them anywhere else.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLIENT_AUTH } from "../../generated/2026-07-28/index.ts";
import { cliAuthorizer, fileTokenStore, loopbackRedirect, tokenFile } from "../../generator/tools/oauth-login.ts";
import { fakeServer, honestAuthorizationServer, protectedResource, type FakeServer } from "../support/fake-oauth.ts";

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0)) await step();
});

/** A free port on 127.0.0.1 for the listener, so the test does not need 8976. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const port = (probe.address() as { port: number }).port;
  await new Promise((done) => probe.close(done));
  return port;
}

describe("tokenFile", () => {
  it("is in the user's config directory: XDG_CONFIG_HOME, else ~/.config, APPDATA on Windows", () => {
    expect(tokenFile({ XDG_CONFIG_HOME: "/x" }, "linux")).toBe(join("/x", "mcp-bindgen", "tokens.json"));
    expect(tokenFile({}, "darwin")).toMatch(/\.config[\\/]mcp-bindgen[\\/]tokens\.json$/);
    expect(tokenFile({ APPDATA: "C:\\Users\\u\\AppData\\Roaming" }, "win32")).toMatch(/Roaming[\\/]mcp-bindgen/);
  });
});

describe("loopbackRedirect", () => {
  it("gives up when no authorization comes back in time, and frees its port", async () => {
    const port = await freePort();
    const printed: string[] = [];
    const waiting = loopbackRedirect((line) => printed.push(line), port, 50)("https://as.example/authorize", "");
    await expect(waiting).rejects.toThrow(`no authorization came back to 127.0.0.1:${port} within 0.05 s`);
    expect(printed.join("")).toContain("https://as.example/authorize");
    const again = createServer();
    await new Promise<void>((done, fail) => again.once("error", fail).listen(port, "127.0.0.1", done));
    await new Promise((done) => again.close(done));
  });
});

describe("cliAuthorizer", () => {
  it("prints the URL, takes the browser's return on 127.0.0.1, and keeps the tokens in a 0600 file only", async () => {
    const home = mkdtempSync(join(tmpdir(), "mcp-bindgen-home-"));
    cleanup.push(() => rmSync(home, { recursive: true, force: true }));
    const as: FakeServer = await fakeServer();
    const rs: FakeServer = await fakeServer();
    cleanup.push(
      () => as.close(),
      () => rs.close(),
    );
    honestAuthorizationServer(as);
    protectedResource(rs, as.url);
    const endpoint = `${rs.url}/mcp`;
    const file = tokenFile({ XDG_CONFIG_HOME: home }, "linux");
    const printed: string[] = [];
    const browser: Promise<void>[] = [];
    const auth = await cliAuthorizer(endpoint, CLIENT_AUTH, {
      store: fileTokenStore(file),
      port: await freePort(),
      print: (line) => {
        printed.push(line);
        // The user opens the URL: the authorization server approves and redirects to the listener.
        const url = /https?:\/\/\S+/.exec(line)![0];
        browser.push(fetch(url).then((response) => void response.text()));
      },
    });
    expect(await auth.refused(endpoint, 401, null)).toBe(true);
    await Promise.all(browser);
    expect(printed.join("")).toContain(`${as.url}/authorize?`);
    expect(await auth.authorization(endpoint)).toBe("Bearer token-1");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, "mcp-bindgen")).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(home, "mcp-bindgen"))).toEqual(["tokens.json"]);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({
      [`tokens ${endpoint}`]: { accessToken: "token-1", refreshToken: "refresh-1", issuer: as.url },
      [`client ${as.url}`]: { clientId: "registered-client" },
    });
    expect(printed.join("")).not.toContain("token-1");
  });
});
