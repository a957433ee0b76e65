// The package-free side of client authorization (runtime/client/client-auth.ts): the memory token store and the
// headless authorization URL handler, which follows the authorization endpoint's redirects within its origin to
// the redirect URI and refuses anything else (a login page, a redirect to another host).
import { afterEach, describe, expect, it, vi } from "vitest";
import { authorizeRequests, followRedirect, memoryTokenStore } from "../../../generated/runtime/client/client-auth.ts";
import { fakeServer, type FakeServer } from "../../support/fake-oauth.ts";

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe("authorizeRequests", () => {
  const refusal = (status: number) => ({ status, headers: { get: () => 'Bearer error="invalid_token"' } });
  const ENDPOINT = "https://mcp.example/mcp";
  /** Records what each request carried, and the responses discarded (their body cancelled). */
  function wrapped(auth: ReturnType<typeof authorizeRequests>, statuses: number[]) {
    const sent: (string | undefined)[] = [];
    const discarded: number[] = [];
    const fetch = auth.fetch(ENDPOINT, async (_url: string, init: { headers: Record<string, string> }) => {
      sent.push(init.headers["Authorization"]);
      const status = statuses.shift() ?? 200;
      return { ...refusal(status), body: { getReader: () => ({ cancel: async () => void discarded.push(status) }) } };
    });
    return { fetch: () => fetch(ENDPOINT, { headers: { Accept: "application/json" } }), sent, discarded };
  }

  it("puts the token on each attempt and tries once more per refusing status, discarding what it retries", async () => {
    let token = 0;
    const auth = authorizeRequests({
      authorization: async () => (token === 0 ? undefined : `Bearer t${token}`),
      refused: async () => ((token += 1), true),
    });
    const { fetch, sent, discarded } = wrapped(auth, [401, 403, 401]);
    const response = await fetch();
    expect(response.status).toBe(401);
    expect(sent).toEqual([undefined, "Bearer t1", "Bearer t2"]);
    expect(discarded).toEqual([401, 403]);
  });

  it("an authorization that fails is a ConnectionError with its message, and the response is discarded", async () => {
    const auth = authorizeRequests({
      authorization: async () => undefined,
      refused: async () => {
        throw new Error("no client id for the authorization server");
      },
    });
    const { fetch, discarded } = wrapped(auth, [401]);
    const failure = await fetch().catch((error: unknown) => error as Error);
    expect(failure).toMatchObject({ name: "ConnectionError", message: "no client id for the authorization server" });
    expect(discarded).toEqual([401]);
  });

  it("hands the refused request's untimed (its call's, from the transport) to the authorizer", async () => {
    const given: unknown[] = [];
    const auth = authorizeRequests({
      authorization: async () => undefined,
      refused: async (_endpoint, _status, _challenge, untimed) => (given.push(untimed), false),
    });
    const untimed = <T>(waiting: Promise<T>): Promise<T> => waiting;
    const fetch = auth.fetch(ENDPOINT, async () => refusal(401));
    await fetch(ENDPOINT, { headers: {}, untimed });
    expect(given).toEqual([untimed]);
  });

  it("a token that cannot be had is a ConnectionError too, and nothing is sent", async () => {
    const auth = authorizeRequests({
      authorization: async () => {
        throw new Error("the token store is unreadable");
      },
      refused: async () => true,
    });
    const { fetch, sent } = wrapped(auth, []);
    const failure = await fetch().catch((error: unknown) => error as Error);
    expect(failure).toMatchObject({ name: "ConnectionError", message: "the token store is unreadable" });
    expect(sent).toEqual([]);
  });
});

describe("memoryTokenStore", () => {
  it("keeps records by key until deleted", async () => {
    const store = memoryTokenStore();
    await store.set("tokens a", { accessToken: "x" });
    expect(await store.get("tokens a")).toEqual({ accessToken: "x" });
    expect(await store.get("tokens b")).toBeUndefined();
    await store.delete("tokens a");
    expect(await store.get("tokens a")).toBeUndefined();
  });
});

describe("followRedirect", () => {
  const REDIRECT = "http://127.0.0.1:1/callback";

  async function authorizationServer(location: (url: string) => string | undefined): Promise<string> {
    const server = await fakeServer({
      "/authorize": (_request, response) => {
        const target = location(server.url);
        if (target === undefined) return void response.writeHead(200, { "content-type": "text/html" }).end("<form>");
        response.writeHead(302, { location: target }).end();
      },
      "/login": (_request, response) => void response.writeHead(302, { location: `${REDIRECT}?code=c&state=s` }).end(),
    });
    servers.push(server);
    return `${server.url}/authorize?client_id=x`;
  }

  it("follows redirects within the authorization server's origin to the redirect URI, and returns it", async () => {
    const url = await authorizationServer((base) => `${base}/login`);
    expect(await followRedirect()(url, REDIRECT)).toBe(`${REDIRECT}?code=c&state=s`);
  });

  it("gives up on an authorization endpoint that does not answer within timeoutMs (its wait is no call's)", async () => {
    vi.useFakeTimers();
    try {
      const hanging = (_url: string, init: { signal: AbortSignal }) =>
        new Promise<never>((_resolve, reject) =>
          init.signal.addEventListener("abort", () => reject(new Error("aborted"))),
        );
      const following = followRedirect({ fetch: hanging, timeoutMs: 1000 })("https://as.example/authorize", REDIRECT);
      const failure = following.catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(1000);
      expect(await failure).toMatchObject({ message: "the authorization endpoint did not answer within 1000 ms" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses a page that wants a user, and a redirect to another host", async () => {
    const page = await authorizationServer(() => undefined);
    await expect(followRedirect()(page, REDIRECT)).rejects.toThrow(/HTTP 200, not a redirect/);
    const away = await authorizationServer(() => "https://evil.example/steal");
    await expect(followRedirect()(away, REDIRECT)).rejects.toThrow(/redirects to https:\/\/evil.example/);
  });
});
