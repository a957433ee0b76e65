import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { UsageError } from "../common/failures.ts";
import type {
  AuthorizationUrlHandler,
  ClientAuthFacts,
  ClientAuthorizer,
  RequestAuthorizer,
  StoredRecord,
  TokenStore,
} from "../runtime/client/client-auth.ts";

/**
 * OAuth for `tools add --oauth` and `tools update`: the command line's side of the runtime's seams, which needs Node.
 * Tokens go to a file in the user's config directory (mode 0600), never to the project, its snapshots, its
 * config or a log; the user is sent to the authorization URL by printing it, and comes back to a listener on
 * 127.0.0.1 at a fixed port, so a registration made once (its redirect URI) holds for every later run.
 */

/** The loopback port the authorization server sends the user back to. */
export const REDIRECT_PORT = 8976;
export const REDIRECT_URI = `http://127.0.0.1:${REDIRECT_PORT}/callback`;

/** The token file: `$XDG_CONFIG_HOME` (else `~/.config`), or `%APPDATA%` on Windows, then `mcp-bindgen/tokens.json`. */
export function tokenFile(env: NodeJS.ProcessEnv = process.env, platform: string = process.platform): string {
  const base =
    platform === "win32"
      ? (env["APPDATA"] ?? join(homedir(), "AppData", "Roaming"))
      : env["XDG_CONFIG_HOME"] || join(homedir(), ".config");
  return join(base, "mcp-bindgen", "tokens.json");
}

/** A token store in one JSON file, readable by its owner only (0600, in a 0700 folder), replaced whole on each write. */
export function fileTokenStore(file: string): TokenStore {
  const read = (): Record<string, StoredRecord> => {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return {};
    }
    try {
      const all: unknown = JSON.parse(text);
      return typeof all === "object" && all !== null ? (all as Record<string, StoredRecord>) : {};
    } catch {
      return {};
    }
  };
  const write = (all: Record<string, StoredRecord>): void => {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const next = `${file}.${process.pid}.tmp`;
    writeFileSync(next, JSON.stringify(all, null, 2), { mode: 0o600 });
    renameSync(next, file);
  };
  return {
    get: (key) => Promise.resolve(read()[key]),
    set: (key, value) => Promise.resolve(write({ ...read(), [key]: value })),
    delete: (key) => {
      const all = read();
      delete all[key];
      write(all);
      return Promise.resolve();
    },
  };
}

/** How long the loopback listener waits for the user to come back (connect's timeout does not count this wait). */
export const LOGIN_WAIT_MS = 300_000;

/**
 * Prints the authorization URL and waits for the authorization server to send the user back to
 * `REDIRECT_URI`, on a listener that lives only that long (at most `waitMs`, so a login never finished does
 * not keep the command running) and answers nothing but the callback.
 */
export function loopbackRedirect(
  print: (line: string) => void,
  port = REDIRECT_PORT,
  waitMs = LOGIN_WAIT_MS,
): AuthorizationUrlHandler {
  return (url) =>
    new Promise((resolve, reject) => {
      const server = createServer((request, response) => {
        const path = new URL(request.url ?? "/", `http://127.0.0.1:${port}`);
        if (path.pathname !== "/callback") return void response.writeHead(404).end();
        response
          .writeHead(200, { "content-type": "text/plain" })
          .end("mcp-bindgen: authorized; you may close this window.\n");
        clearTimeout(timer);
        server.close();
        resolve(path.href);
      });
      const timer = setTimeout(() => {
        server.close();
        server.closeAllConnections();
        reject(new UsageError(`no authorization came back to 127.0.0.1:${port} within ${waitMs / 1000} s`));
      }, waitMs);
      server.once("error", (error: Error) => {
        clearTimeout(timer);
        reject(
          new UsageError(`cannot listen on 127.0.0.1:${port} for the authorization's redirect (${error.message})`),
        );
      });
      server.listen(port, "127.0.0.1", () => print(`open this URL to authorize mcp-bindgen:\n  ${url}\n`));
    });
}

/** The authorizer `tools add --oauth` and `tools update` reach a server with; `oauth4webapi` is loaded only now. */
export async function cliAuthorizer(
  url: string,
  facts: ClientAuthFacts,
  options: { readonly store: TokenStore; readonly print: (line: string) => void; readonly port?: number },
): Promise<ClientAuthorizer & RequestAuthorizer> {
  const { oauthClient } = await import("../runtime/oauth/oauth-client.ts").catch(() => {
    throw new UsageError("--oauth needs the package oauth4webapi: npm install oauth4webapi");
  });
  const port = options.port ?? REDIRECT_PORT;
  return oauthClient({
    facts,
    redirectUri: `http://127.0.0.1:${port}/callback`,
    openAuthorizationUrl: loopbackRedirect(options.print, port),
    store: options.store,
    clientName: "mcp-bindgen",
    // A server on this machine may run its authorization server over plain HTTP too.
    allowHttp: ["localhost", "127.0.0.1", "[::1]"].includes(new URL(url).hostname),
  });
}
