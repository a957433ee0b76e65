import type { BearerIdentity } from "./bearer-gate.js";

/**
 * Tokens a verifier has accepted, so that a busy client costs one check per token rather than one per
 * request. An entry lasts until the token expires or `maxMs` passes, whichever is first; only accepted
 * tokens are kept (a flood of bad ones cannot push the good ones out), the oldest dropped first.
 */
export interface VerifiedTokens {
  /** The identity of a token accepted before and not yet expired here. */
  get(token: string): BearerIdentity | undefined;
  remember(token: string, identity: BearerIdentity): void;
}

export interface VerifiedTokensOptions {
  /** Tokens kept at most. */
  readonly size: number;
  /** Most ms a token is kept, whatever its `exp`; 0 keeps none. */
  readonly maxMs: number;
  /** The clock, in ms since the epoch. */
  readonly now: () => number;
}

export function verifiedTokens(options: VerifiedTokensOptions): VerifiedTokens {
  const { size, maxMs, now } = options;
  const kept = new Map<string, { readonly identity: BearerIdentity; readonly until: number }>();
  return {
    get(token) {
      const entry = kept.get(token);
      if (entry === undefined) return undefined;
      if (entry.until > now()) return entry.identity;
      kept.delete(token);
      return undefined;
    },
    remember(token, identity) {
      // A token that states no expiry is not kept: nothing says how long it stays good.
      if (identity.expiresAt === undefined || size <= 0) return;
      const until = Math.min(identity.expiresAt * 1000, now() + maxMs);
      if (until <= now()) return;
      if (kept.size >= size) kept.delete(kept.keys().next().value as string);
      kept.set(token, { identity, until });
    },
  };
}
