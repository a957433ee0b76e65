/**
 * The session era on the client (2024-11-05 to 2025-11-25): the `initialize` handshake `connect` falls back
 * to, and the era's part of Streamable HTTP. Each session release's `clientRelease()` builds its era here
 * from its own method names and types, so a program offering stateless releases alone bundles none of it.
 */
import { SESSION_EXPIRED } from "./client-transport.js";
import type {
  Attempt,
  Calls,
  ClientIdentity,
  ClientRelease,
  SessionEra,
  SessionOpening,
} from "./connect.js";
import { httpSession } from "./http-session.js";
import { asError } from "../core/requester.js";

/** A session release's lifecycle, as its `clientRelease()` states it. */
export interface SessionEraFacts {
  readonly initialize: string;
  readonly initialized: string;
  initializeParams(version: string, clientInfo: ClientIdentity): object;
  /** The version `initialize`'s result agrees on. */
  agreedVersion(result: unknown): string | undefined;
}

export function sessionEra(facts: SessionEraFacts): SessionEra {
  return {
    kind: "session",
    open: (release, opening) => open(facts, release, opening),
    renewing: (first, opening) => renewing(facts, first, opening),
    httpSession,
  };
}

/**
 * The spec (2025-11-25, transports): a client answered 404 for its session MUST start a new one with
 * `initialize` (the transport has dropped the old id). The call is then made again, once: the server never
 * ran it. Calls that failed together wait for the same new session.
 */
function renewing(facts: SessionEraFacts, first: Attempt, opening: SessionOpening): Calls {
  let attempt = first;
  let renewal: Promise<void> | undefined;
  const renew = async (): Promise<void> => {
    attempt = (await open(facts, first.release, opening)).attempt;
  };
  return {
    get attempt() {
      return attempt;
    },
    async request(method, params, options) {
      const sentOn = attempt;
      const made = (): Promise<unknown> =>
        attempt.requester.request(method as never, params as never, options);
      try {
        return await made();
      } catch (error) {
        if (asError(error).name !== SESSION_EXPIRED) throw error;
        if (attempt === sentOn) renewal ??= renew().finally(() => (renewal = undefined));
        await renewal;
        return made();
      }
    },
  };
}

/**
 * `initialize` at `release`; the server answers with the version it agrees on, which must be one offered
 * (then the session goes on in that release), and `initialized` completes the handshake.
 */
async function open(
  facts: SessionEraFacts,
  release: ClientRelease,
  opening: SessionOpening,
): Promise<{ readonly attempt: Attempt; readonly server: unknown }> {
  const attempt = opening.begin(release);
  const server = await opening.call(
    attempt,
    facts.initialize,
    facts.initializeParams(release.version, opening.clientInfo),
  );
  const agreed = facts.agreedVersion(server);
  const chosen = opening.releases.find((r) => r.version === agreed);
  if (chosen === undefined)
    throw new Error(
      `the server chose protocol version ${String(agreed)}, which is not among the releases offered (${opening.releases.map((r) => r.version).join(", ")})`,
    );
  const settled = chosen === release ? attempt : opening.begin(chosen);
  opening.wire.started(chosen.version);
  await opening.wire.send({ jsonrpc: "2.0", method: facts.initialized });
  opening.wire.listen();
  return { attempt: settled, server };
}
