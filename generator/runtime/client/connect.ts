/**
 * `connect`: one call that agrees on an era with a server and returns a session typed by the release
 * agreed on. As the spec's versioning page describes: the newest stateless release first (its discovery
 * request); a -32022 naming versions the server supports is retried with the newest of those the caller
 * generated; another modern error signal (-32020, -32021) proves a stateless server and fails; any other
 * error means a session-era server, reached with `initialize` at the newest session release it supports.
 * Release data (method names, codes, builders) comes from each release's `clientRelease()`.
 */
import { isObject, type JsonObject } from "../core/json.js";
import { asError, type CallOptions, type RequesterLifecycle } from "../core/requester.js";
import { RpcError } from "../core/rpc-error.js";
import {
  CONNECTION_ERROR,
  type ClientTransport,
  type SendOptions,
  type TransportFactory,
} from "./client-transport.js";
import type { HttpSessionFactory } from "./http-client.js";
import type { HeaderParam } from "../core/http-headers.js";
import type { TraceContextCarrier, TraceContextKeys } from "../core/trace-context.js";

/** A requester with its release's typed `request`. */
export interface TypedRequester extends RequesterLifecycle {
  request(method: never, params: never, options?: CallOptions): Promise<unknown>;
}

/** How a stateless release is reached: its discovery request, and the error codes that prove the era. */
export interface StatelessEra {
  readonly kind: "stateless";
  readonly discover: string;
  readonly unsupportedVersion: number;
  readonly signals: readonly number[];
  /** None: the stateless era dropped the session era's part of Streamable HTTP. */
  readonly httpSession?: undefined;
}

/**
 * How a session-era release is reached: `open` runs its handshake (`initialize`, then `initialized`), and
 * `httpSession` is its part of Streamable HTTP; both live in `session-era.ts`, which only session releases
 * import, so a program that offers stateless releases alone bundles neither.
 */
export interface SessionEra {
  readonly kind: "session";
  /** The handshake at `release`: the attempt it settled on (the release the server agreed on) and what the server said. */
  open(
    release: ClientRelease,
    opening: SessionOpening,
  ): Promise<{ readonly attempt: Attempt; readonly server: unknown }>;
  /**
   * The session's calls from `first` on: each made once more on a new session (`open` again, with
   * `opening`) when the server no longer knows the one it went out on (a 404 for the session).
   */
  renewing(first: Attempt, opening: SessionOpening): Calls;
  readonly httpSession: HttpSessionFactory;
}

/** A session's calls, and the attempt they now go through (a renewed session's). */
export interface Calls {
  readonly attempt: Attempt;
  request(method: string, params: object, options?: CallOptions): Promise<unknown>;
}

/** What `connect` lends a session era's handshake. */
export interface SessionOpening {
  /** The session releases offered, newest first: the server's choice must be one of them. */
  readonly releases: readonly ClientRelease[];
  readonly clientInfo: ClientIdentity;
  readonly wire: ClientTransport<HttpSessionFactory>;
  /** Starts talking `release`: its requester, and the transport told of its era. */
  begin(release: ClientRelease): Attempt;
  /** One negotiation request, with the negotiation's timeout and signal. */
  call(attempt: Attempt, method: string, params: object): Promise<unknown>;
}

/** One release being tried. */
export interface Attempt {
  readonly release: ClientRelease;
  readonly requester: TypedRequester;
}

/** What a stateless release adds to each HTTP POST, and which tools it may call with header parameters. */
export interface ReleaseHttp {
  readonly listTools: string;
  /** A message's headers; `params`: those of the listed tool its `params.name` names (they count only in a call of it). */
  headers(message: object, params: readonly HeaderParam[] | undefined): Record<string, string>;
  /** A listed tool's `x-mcp-header` parameters, or undefined when its annotations are invalid: a client drops it. */
  params(tool: JsonObject): readonly HeaderParam[] | undefined;
}

export interface ClientIdentity {
  readonly name: string;
  readonly version: string;
}

/** One generated release as `connect` sees it; each release's `clientRelease()` returns one. */
export interface ClientRelease<
  V extends string = string,
  R extends TypedRequester = TypedRequester,
  S = unknown,
  T = unknown,
> {
  readonly version: V;
  readonly era: StatelessEra | SessionEra;
  /** The release's requester over `send`: its `_meta` (stateless) and its input handler are the release's. */
  requester(
    send: (message: object, options?: SendOptions) => Promise<void>,
    options: { readonly clientInfo: ClientIdentity; readonly timeoutMs?: number },
  ): R;
  /** Answers what the server sends the client (requests, notifications); absent, requests get `methodNotFound`. */
  readonly dispatcher: { handle(message: unknown): Promise<unknown> } | undefined;
  readonly methodNotFound: number;
  /** Streamable HTTP headers per message, for releases that route on them. */
  readonly http: ReleaseHttp | undefined;
  /** Only a type: what the server said when the era was agreed (discovery's or `initialize`'s result). */
  readonly server?: S;
  /** Only a type: the release's client requests by method (`ClientRequests`), which the one-call client reads. */
  readonly requests?: T;
  /** The `_meta` keys of W3C trace context, where the release reserves them: `ConnectOptions.traceContext` fills them. */
  readonly traceContext?: TraceContextKeys;
}

/** A session with a server, typed by the release agreed on: narrow on `version` for its methods. */
export interface ClientSession<V extends string, R extends TypedRequester, S> {
  readonly version: V;
  /** True for a session-era release (`initialize`, `Mcp-Session-Id`), false for a stateless one. */
  readonly sessionEra: boolean;
  /** The release's typed requests; tools whose `x-mcp-header` annotations are invalid are dropped from `tools/list`. */
  readonly request: R["request"];
  /** What the server said when the era was agreed: discovery's result, or `initialize`'s. */
  readonly server: S;
  /** Ends the session: pending calls fail, a session-era HTTP session is DELETEd, a spawned server is stopped. */
  close(): Promise<void>;
}

export type SessionOf<D> =
  D extends ClientRelease<infer V, infer R, infer S> ? ClientSession<V, R, S> : never;

export interface ConnectOptions<D extends readonly ClientRelease[]> {
  /** The releases to offer, any order: the newest stateless one is tried first. */
  readonly releases: D;
  readonly clientInfo: ClientIdentity;
  /** Speak only this version (no negotiation beyond it). */
  readonly protocolVersion?: string;
  /**
   * Each negotiation request's timeout, and the session's default per call (`CallOptions.timeoutMs`
   * overrides it). Defaults to 30 s for negotiation, 60 s per call after. The servers' time only: an
   * authorizer's wait for the user to log in does not count (`untimed`).
   */
  readonly timeoutMs?: number;
  /** Aborts the negotiation. */
  readonly signal?: AbortSignal;
  /** Told why an era was tried and left (a log line). */
  readonly onFallback?: (reason: string) => void;
  /**
   * The caller's trace context, `traceContextFrom(source)`: asked as each request goes out and put into its
   * `_meta` where the agreed release reserves the keys (elsewhere never asked); an invalid one is not sent. The
   * `opentelemetry` extra's `openTelemetryTraceContext()` carries OpenTelemetry's active context.
   */
  readonly traceContext?: TraceContextCarrier;
}

const DEFAULT_NEGOTIATION_TIMEOUT_MS = 30_000;

/**
 * Connects through `transport` (`httpTransport(url)`, `stdioTransport(…)`), agreeing on the newest release
 * both sides speak. Rejects with the server's `RpcError` or the transport's error when no era works.
 */
export async function connect<const D extends readonly ClientRelease[]>(
  transport: TransportFactory<HttpSessionFactory>,
  options: ConnectOptions<D>,
): Promise<SessionOf<D[number]>> {
  const offered = options.releases.filter(
    (release) =>
      options.protocolVersion === undefined || release.version === options.protocolVersion,
  );
  if (offered.length === 0)
    throw new RangeError(
      `no release to offer${options.protocolVersion === undefined ? "" : ` for version ${options.protocolVersion}`}`,
    );
  // `filter` made `offered` a new array: sorting it leaves the caller's as it was.
  const newestFirst = offered.sort((a, b) => (a.version < b.version ? 1 : -1));
  const stateless = newestFirst.filter((release) => release.era.kind === "stateless");
  const sessionReleases = newestFirst.filter((release) => release.era.kind === "session");
  const negotiation: CallOptions = {
    timeoutMs: options.timeoutMs ?? DEFAULT_NEGOTIATION_TIMEOUT_MS,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };

  let current: Attempt | undefined;
  /** Listed tools' header parameters, by tool name. */
  const tools = new Map<string, readonly HeaderParam[]>();
  const wire: ClientTransport<HttpSessionFactory> = transport({
    message: receive,
    closed: (error) => current?.requester.close(error),
  });

  function receive(message: unknown): void {
    const attempt = current;
    if (attempt === undefined || attempt.requester.receive(message)) return;
    if (!isObject(message) || typeof message["method"] !== "string") return;
    // `handle` always returns a promise: without a dispatcher, requests are answered `methodNotFound`.
    const reply =
      attempt.release.dispatcher?.handle(message) ??
      Promise.resolve(
        "id" in message
          ? {
              jsonrpc: "2.0",
              id: message["id"],
              error: { code: attempt.release.methodNotFound, message: "Method not found" },
            }
          : undefined,
      );
    void reply
      .then((response) =>
        isObject(response) || Array.isArray(response) ? wire.send(response) : undefined,
      )
      .catch(() => undefined);
  }

  /**
   * Starts talking `release`. Another era's attempt is superseded (its calls fail); a renewed session's is
   * not: what it still has in flight fails on its own, with the old session's 404.
   */
  function start(release: ClientRelease, supersede: boolean): Attempt {
    if (supersede) current?.requester.close(new Error("superseded by another protocol version"));
    wire.begin(release.version, release.era.httpSession);
    // A call's own headers (`CallOptions.headers`) go with its POST; the release's routing headers win over them.
    const send = (sending: object, sent: SendOptions = {}): Promise<void> => {
      // The carrier checks the release's keys, so that a client that traces nothing bundles no check.
      const message = options.traceContext?.carry(sending, release.traceContext) ?? sending;
      const http = release.http;
      if (http === undefined) return wire.send(message, sent);
      // A missing name, or one that is no string, finds no tool; `headers` ignores what another method's finds.
      const params = tools.get(
        (message as { readonly params?: { name?: string } }).params?.name as string,
      );
      return wire.send(message, {
        ...sent,
        headers: { ...sent.headers, ...http.headers(message, params) },
      });
    };
    const requester = release.requester(send, {
      clientInfo: options.clientInfo,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    current = { release, requester };
    return current;
  }
  const begin = (release: ClientRelease): Attempt => start(release, true);

  const call = (attempt: Attempt, method: string, params: object): Promise<unknown> =>
    attempt.requester.request(method as never, params as never, negotiation);

  try {
    let legacyChoice = sessionReleases[0];
    // A version the server says it supports is tried again once: its -32022 may have been about the
    // request (the conformance suite rejects a client's first choice once, to see it retry). `tried`
    // holds the version of every attempt, so it counts them.
    const tried: string[] = [];
    for (let release = stateless[0]; release !== undefined;) {
      const era = release.era as StatelessEra;
      tried.push(release.version);
      const attempt = begin(release);
      try {
        const server = await call(attempt, era.discover, {});
        return session(attempt, server);
      } catch (error) {
        // An unreachable server, refused credentials or a command that does not start: no era would fare better.
        if (asError(error).name === CONNECTION_ERROR) throw error;
        if (!(error instanceof RpcError) || !era.signals.includes(error.code)) {
          options.onFallback?.(`${release.version}: ${asError(error).message}; trying initialize`);
          break;
        }
        if (error.code !== era.unsupportedVersion) throw error;
        const supported = supportedVersions(error.data);
        const next = stateless.find(
          (r) => supported.includes(r.version) && tried.filter((v) => v === r.version).length < 2,
        );
        legacyChoice = sessionReleases.find((r) => supported.includes(r.version));
        if (next === undefined && legacyChoice === undefined) throw error;
        options.onFallback?.(`${release.version}: the server supports ${supported.join(", ")}`);
        release = next;
      }
    }
    if (legacyChoice === undefined)
      throw new Error(
        `the server speaks none of the stateless releases offered (${stateless.map((r) => r.version).join(", ")})`,
      );
    const opened = await (legacyChoice.era as SessionEra).open(legacyChoice, {
      releases: sessionReleases,
      clientInfo: options.clientInfo,
      wire,
      begin,
      call,
    });
    return session(opened.attempt, opened.server);
  } catch (error) {
    current?.requester.close(asError(error));
    await wire.close();
    throw error;
  }

  function session(first: Attempt, server: unknown): SessionOf<D[number]> {
    const { release } = first;
    const http = release.http;
    const calls: Calls =
      release.era.kind === "session"
        ? release.era.renewing(first, {
            releases: [release],
            clientInfo: options.clientInfo,
            wire,
            begin: (again) => start(again, false),
            call,
          })
        : {
            attempt: first,
            request: (method, params, callOptions) =>
              first.requester.request(method as never, params as never, callOptions),
          };
    const request = async (method: string, params: object, callOptions?: CallOptions) => {
      const result = await calls.request(method, params, callOptions);
      if (http === undefined || method !== http.listTools || !isObject(result)) return result;
      const listed: unknown = result["tools"];
      if (!Array.isArray(listed)) return result;
      const usable = (listed as unknown[]).filter((tool): tool is JsonObject => {
        const params = isObject(tool) ? http.params(tool) : undefined;
        if (params === undefined) return false;
        // A name that is no string names no tool a call could give (and String() of an object may throw).
        const name = (tool as JsonObject)["name"];
        if (typeof name === "string") tools.set(name, params);
        return true;
      });
      return { ...result, tools: usable };
    };
    const made: ClientSession<string, TypedRequester, unknown> = {
      version: release.version,
      sessionEra: release.era.kind === "session",
      request,
      server,
      async close() {
        calls.attempt.requester.close(new Error("the session is closed"));
        await wire.close();
      },
    };
    return made as SessionOf<D[number]>;
  }
}

/** The versions a -32022 error's `data.supported` lists. */
function supportedVersions(data: unknown): string[] {
  const supported = isObject(data) ? data["supported"] : undefined;
  return Array.isArray(supported)
    ? supported.filter((v: unknown): v is string => typeof v === "string")
    : [];
}
