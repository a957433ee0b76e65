/**
 * The package-free side of a client's authorization: what the HTTP transport asks of an authorizer (a token
 * for each request; a 401 or a 403 to answer), where tokens are kept, and how the user is sent to the
 * authorization URL. The OAuth protocol steps are the optional `oauth/` part, which needs `oauth4webapi`;
 * everything here ships with every client, so a program can plug in its own authorizer or store.
 */
import { connectionError } from "./client-transport.js";
import type { Untimed } from "../core/requester.js";
import { abortController } from "../core/abort.js";

/**
 * The rules of a release's authorization page that differ by release, from schema/facts.json: each release's
 * `client.ts` exports its own as `CLIENT_AUTH`, and the OAuth client follows the one it is given.
 */
export interface ClientAuthFacts {
  /** The release whose authorization page these are. */
  readonly release: string;
  /**
   * Where protected resource metadata is looked for, in order: the `resource_metadata` URL of the
   * `WWW-Authenticate` challenge, the path-aware well-known URI, the root one.
   */
  readonly resourceMetadata: readonly ("challenge" | "path" | "root")[];
  /**
   * The well-known URIs of authorization server metadata, in order: OAuth with the issuer's path inserted,
   * OpenID Connect inserted, OpenID Connect appended (one issuer without a path has just the two root forms).
   */
  readonly serverMetadata: readonly ("oauth-insert" | "oidc-insert" | "oidc-append")[];
  /** An authorization server whose metadata does not list S256 in `code_challenge_methods_supported` is refused. */
  readonly requireS256: boolean;
  /** How the client gets a client id, in order: pre-registered, a client ID metadata document, dynamic registration. */
  readonly registration: readonly ("preregistered" | "metadata-document" | "dynamic")[];
  /** Dynamic registration sends `application_type`. */
  readonly applicationType: boolean;
  /** A step-up asks for the scopes asked for before plus the challenge's, not the challenge's alone. */
  readonly stepUpUnion: boolean;
  /** The client may add `offline_access` when the authorization server lists it in `scopes_supported`. */
  readonly offlineAccess: boolean;
  /** The spec page the rules come from. */
  readonly source: string;
}

/** What the HTTP transport asks of whatever authorizes its requests (the `oauth/` part makes one). */
export interface ClientAuthorizer {
  /** The `Authorization` header for a request to `endpoint`, or undefined while no token is held. */
  authorization(endpoint: string): Promise<string | undefined>;
  /**
   * The server at `endpoint` refused a request with `status` (401, or 403) and this `WWW-Authenticate` header:
   * authorizes again (a refresh, a new grant, a step-up to more scopes) and says whether the request is worth
   * one more try. Throws a clear error when authorization cannot go on (no token is kept then). Wrap the wait
   * for the user (from handing out the authorization URL to the redirect back) in `untimed`: it stops the
   * refused call's clock, so that its timeout counts the servers' time, not the user's.
   */
  refused(
    endpoint: string,
    status: number,
    challenge: string | null,
    untimed?: Untimed,
  ): Promise<boolean>;
}

/** What `authorizeRequests` reads of a response: its status, its `WWW-Authenticate` header, its body to discard. */
export interface RefusableResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly body?: { getReader(): { cancel(): Promise<void> } } | null;
}

/** What a request's `init` holds that an authorizer reads: its headers, and its call's `untimed`. */
export interface AuthorizableInit {
  readonly headers: Readonly<Record<string, string>>;
  readonly untimed?: Untimed | undefined;
}

/** A `fetch` as the HTTP transport calls it, with the request's headers as an object. */
export type HeaderFetch<I extends AuthorizableInit, R extends RefusableResponse> = (
  url: string,
  init: I,
) => Promise<R>;

/**
 * What `httpTransport`'s `auth` option takes: wraps the transport's `fetch` for the MCP endpoint `endpoint`,
 * putting the `Authorization` value on each request and answering a refusal as it can. `authorizeRequests`
 * makes one from a `ClientAuthorizer` (`oauthClient` is one already); the transport holds none of this, so a
 * client without `auth` bundles none of it.
 */
export interface RequestAuthorizer {
  fetch<I extends AuthorizableInit, R extends RefusableResponse>(
    endpoint: string,
    fetch: HeaderFetch<I, R>,
  ): HeaderFetch<I, R>;
}

/**
 * `authorizer` for the transport: its token goes on every request; a 401 authorizes and retries the request
 * once, a 403 (`insufficient_scope`) steps up and retries it once. A failed authorization is a connection
 * error, named as such so that the transport passes it on as it is: no reason to try another protocol version.
 */
export function authorizeRequests(
  authorizer: ClientAuthorizer,
): ClientAuthorizer & RequestAuthorizer {
  return {
    authorization: (endpoint) => authorizer.authorization(endpoint),
    refused: (endpoint, status, challenge, untimed) =>
      authorizer.refused(endpoint, status, challenge, untimed),
    fetch: (endpoint, fetch) => async (url, init) => {
      // One retry for each kind of refusal: a loop of authorizations the server keeps refusing ends here.
      const retried = new Set<number>();
      for (;;) {
        const authorization = await authorizer
          .authorization(endpoint)
          .catch((error: unknown) => Promise.reject(failed(error)));
        const response = await fetch(
          url,
          authorization === undefined
            ? init
            : { ...init, headers: { ...init.headers, Authorization: authorization } },
        );
        const status = response.status;
        if ((status !== 401 && status !== 403) || retried.has(status)) return response;
        retried.add(status);
        const challenge = response.headers.get("www-authenticate");
        const again = await authorizer
          .refused(endpoint, status, challenge, init.untimed)
          .catch(async (error: unknown) => {
            await discard(response);
            throw failed(error);
          });
        if (!again) return response;
        await discard(response);
      }
    },
  };
}

/** A failed authorization, as the connection error that `connect` tries in no other era. */
function failed(error: unknown): Error {
  return connectionError(error instanceof Error ? error.message : String(error));
}

/** Frees a refused response before the retry: an unread body holds its connection. */
async function discard(response: RefusableResponse): Promise<void> {
  await response.body
    ?.getReader()
    .cancel()
    .catch(() => undefined);
}

/** A JSON object a token store keeps: tokens under one key, a client registration under another. */
export type StoredRecord = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * Where an authorizer keeps tokens and client registrations, by key (a resource's tokens, an authorization
 * server's registration). The memory store is the default; a command-line tool keeps them in a file in the
 * user's config directory instead, never inside a project.
 */
export interface TokenStore {
  get(key: string): Promise<StoredRecord | undefined>;
  set(key: string, value: StoredRecord): Promise<void>;
  delete(key: string): Promise<void>;
}

/** A token store in memory: what a process authorizes dies with it. */
export function memoryTokenStore(): TokenStore {
  const records = new Map<string, StoredRecord>();
  return {
    get: (key) => Promise.resolve(records.get(key)),
    set: (key, value) => Promise.resolve(void records.set(key, value)),
    delete: (key) => Promise.resolve(void records.delete(key)),
  };
}

/**
 * Sends the user to the authorization URL `url` and resolves with the URL the authorization server redirected
 * back to (`redirectUri` with `code`, `state`, `iss`): a browser and a loopback listener for a command-line
 * tool, `followRedirect` for tests and headless use.
 */
export type AuthorizationUrlHandler = (url: string, redirectUri: string) => Promise<string>;

/** The members of a `fetch` this module uses; the platform's `fetch` has them. */
export type RedirectFetch = (
  url: string,
  init: { readonly method: "GET"; readonly redirect: "manual"; readonly signal: AbortSignal },
) => Promise<{ readonly status: number; readonly headers: { get(name: string): string | null } }>;

const MAX_HOPS = 5;
const HOP_TIMEOUT_MS = 30_000;

// Timers exist on every platform the output runs on, but not in the ES library it compiles against.
declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(timer: unknown): void;

const platform = globalThis as unknown as {
  readonly URL: new (
    url: string,
    base?: string,
  ) => { readonly href: string; readonly origin: string; readonly pathname: string };
  readonly fetch: RedirectFetch;
};

/**
 * The headless way through the authorization endpoint: requests the URL and follows its redirects, within its
 * origin, until one goes to `redirectUri`, which it returns. For an authorization server that approves without
 * a user (a test's, a machine's); anything else (a login page, a redirect to another host) is an error. Each
 * request has `timeoutMs` (30 s): this stands in for the user's wait, which a call's timeout does not count.
 */
export function followRedirect(
  options: { readonly fetch?: RedirectFetch; readonly timeoutMs?: number } = {},
): AuthorizationUrlHandler {
  return async (url, redirectUri) => {
    const fetchFn = options.fetch ?? platform.fetch.bind(globalThis);
    const back = new platform.URL(redirectUri);
    const origin = new platform.URL(url).origin;
    let target = url;
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const timeoutMs = options.timeoutMs ?? HOP_TIMEOUT_MS;
      const stop = abortController();
      const timer = setTimeout(() => stop.abort(), timeoutMs);
      const response = await fetchFn(target, {
        method: "GET",
        redirect: "manual",
        signal: stop.signal,
      })
        .catch((error: unknown) => {
          throw stop.signal.aborted
            ? new Error(`the authorization endpoint did not answer within ${timeoutMs} ms`)
            : error;
        })
        .finally(() => clearTimeout(timer));
      const location = response.headers.get("location");
      if (response.status < 300 || response.status > 399 || location === null)
        throw new Error(
          `the authorization endpoint answered HTTP ${response.status}, not a redirect: it wants a user (give an authorization URL handler that opens a browser)`,
        );
      const next = new platform.URL(location, target);
      if (next.origin === back.origin && next.pathname === back.pathname) return next.href;
      if (next.origin !== origin)
        throw new Error(
          `the authorization endpoint redirects to ${next.origin}, neither itself nor the redirect URI`,
        );
      target = next.href;
    }
    throw new Error(`the authorization endpoint redirected more than ${MAX_HOPS} times`);
  };
}
