// AbortSignal and AbortController exist wherever MCP runs (Node 18+, browsers, Deno, Bun, workers)
// but are not part of the ES2022 library the generated code compiles against. This declares the
// members the runtime uses; it merges with the platform's own declarations (DOM or @types/node)
// where a project has them, so `ctx.signal` is the platform's AbortSignal and can go on to fetch.
declare global {
  interface AbortSignal {
    readonly aborted: boolean;
    addEventListener(
      type: "abort",
      listener: () => void,
      options?: { readonly once?: boolean },
    ): void;
    removeEventListener(type: "abort", listener: () => void): void;
  }
}

export interface AbortHandle {
  readonly signal: AbortSignal;
  abort(): void;
}

/** A new AbortController, reached through globalThis because the ES2022 library does not declare it. */
export function abortController(): AbortHandle {
  return new (
    globalThis as unknown as { AbortController: new () => AbortHandle }
  ).AbortController();
}

/**
 * Why `signal` was aborted. Read through a cast rather than declared above: DOM and @types/node declare
 * `reason: any`, and a merged declaration must agree with theirs to the letter, which `unknown` does not.
 */
export function abortReason(signal: AbortSignal): unknown {
  return (signal as { readonly reason?: unknown }).reason;
}

/**
 * An abort whose `signal` is made on first read (already aborted when `abort` came first), and
 * that says whether it was aborted and runs listeners without making it; `onAbort` runs once, on
 * the first `abort`, before the listeners. Making an AbortSignal costs Node more than the rest of
 * a request's dispatch, and most requests end without anyone reading theirs. A class because V8
 * builds an object literal with getters on a slow path.
 */
export class LazyAbort implements AbortHandle {
  #controller: AbortHandle | undefined;
  #aborted = false;
  #listeners: Set<() => void> | undefined;
  readonly #onAbort: (() => void) | undefined;

  constructor(onAbort?: () => void) {
    this.#onAbort = onAbort;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = abortController();
      if (this.#aborted) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  abort(): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#controller?.abort();
    this.#onAbort?.();
    const listeners = this.#listeners;
    this.#listeners = undefined;
    for (const listener of listeners ?? []) listener();
  }

  /** Runs `listener` once on the first `abort` (never when it came already); returns what cancels that. */
  listen(listener: () => void): () => void {
    const listeners = (this.#listeners ??= new Set());
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }
}

/** What aborts a request inside the runtime: the platform's signal, or a `LazyAbort` that makes one only when read. */
export type AbortSource = AbortSignal | LazyAbort;

/** Runs `listener` once when `source` aborts (never when it is aborted already); returns what cancels that. */
export function onAbort(source: AbortSource, listener: () => void): () => void {
  if (source instanceof LazyAbort) return source.listen(listener);
  source.addEventListener("abort", listener, { once: true });
  return () => source.removeEventListener("abort", listener);
}

/** The platform's signal for `source`, for what takes nothing else (fetch, a requester). */
export function signalOf(source: AbortSource): AbortSignal {
  return source instanceof LazyAbort ? source.signal : source;
}
