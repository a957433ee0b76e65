import type { RequestId } from "./dispatcher.js";
import type { ReadonlyInput } from "./json.js";
import type { TraceContext } from "./trace-context.js";

/**
 * The typed face of the dispatchers, written once for every release: each release's `dispatch.ts`
 * writes its handler tables out method by method with these, from its own method tables
 * (`{ [method]: { params, result } }`), the notifications each side may send and its progress
 * notification. Types only: nothing here runs.
 */

/** The params a table gives `M`, or `undefined` where the method takes none. */
type ParamsIn<Table, M extends keyof Table> = Table[M] extends { params: infer P } ? P : undefined;

/** The `_meta` a params type declares. */
type MetaIn<P> = NonNullable<P> extends { _meta?: infer X } ? X : undefined;

/**
 * A request's `_meta` as a handler sees it: always there where the params type requires it,
 * since the dispatcher answers -32602 before any handler runs when it is missing.
 */
type RequestMetaIn<P> = NonNullable<P> extends { _meta: infer X } ? X : MetaIn<P> | undefined;

/** Sends one of the notifications in `Table`, typed by it. */
export type Notify<Table> = <N extends keyof Table & string>(
  method: N,
  ...params: undefined extends ParamsIn<Table, N>
    ? [params?: ParamsIn<Table, N>]
    : [params: ParamsIn<Table, N>]
) => void;

/** What `ctx.progress` takes: the progress notification's params without the token, which the dispatcher adds. */
export type ProgressParams<
  Table,
  Method extends string,
  TokenParam extends string,
> = Method extends keyof Table
  ? Omit<NonNullable<ParamsIn<Table, Method>>, TokenParam | "_meta">
  : never;

/** What a request handler gets beside the params. `Sends` is the table of notifications this side may send. */
export interface HandlerContext<M extends string, P, Sends, Progress, C> {
  readonly id: RequestId;
  readonly method: M;
  /** The request's `params._meta`. */
  readonly _meta: RequestMetaIn<P>;
  /** Aborted when the peer cancels the request (or the signal given to `handle` aborts): stop work, the answer is dropped. */
  readonly signal: AbortSignal;
  /** The value given to `handle`. */
  readonly context: C;
  /** Sent through `options.send` with the same context; dropped once the request is answered. */
  readonly notify: Notify<Sends>;
  /** Present when the request carried a progress token. */
  readonly progress: ((update: Progress) => void) | undefined;
  /** The caller's W3C trace context, where the release reserves its `_meta` keys and the request carried a valid one. */
  readonly traceContext: TraceContext | undefined;
}

/** What a modern server's request handler may also call: answers -32021 naming what the request's `clientCapabilities` lack. */
export interface CapabilityCheck<Capabilities> {
  requireClientCapability(required: (keyof Capabilities & string) | Capabilities): void;
}

export interface NotificationContext<M extends string, P, C> {
  readonly method: M;
  readonly _meta: MetaIn<P> | undefined;
  readonly context: C;
}

export interface InputContext<M extends string, P, C> {
  /** The key the server gave this input request. */
  readonly key: string;
  readonly method: M;
  readonly _meta: MetaIn<P> | undefined;
  readonly signal: AbortSignal;
  readonly context: C;
}

/** A handler's result: `Key` may be left out where `Default` is one of its values, which the dispatcher then writes. */
export type DefaultedResult<R, Key extends string, Default> = [Key] extends [never]
  ? R
  : R extends { [K in Key]: infer X }
    ? Default extends X
      ? Omit<R, Key> & { [K in Key]?: X }
      : R
    : R;

/** What a handler returns: its answer, or a promise of it. */
export type Answer<R> = R | Promise<R>;

/**
 * A request handler's result as the table takes it: readonly data fits (`ReadonlyInput`), and `Key` may be left out
 * as in `DefaultedResult`. `Key` is omitted from the mapped result (the same `ReadonlyInput<R>` the other branches
 * map) and the optional key added after it, not under it: mapped over that intersection, the bench consumer's eight
 * handlers cost tsc a fifth more instantiations.
 */
export type ReadonlyAnswer<R, Key extends string = never, Default = never> = [Key] extends [never]
  ? ReadonlyInput<R>
  : R extends { [K in Key]: infer X }
    ? Default extends X
      ? Omit<ReadonlyInput<R>, Key> & { readonly [K in Key]?: X }
      : ReadonlyInput<R>
    : ReadonlyInput<R>;

/**
 * The notification handlers of a release's table (`Notifications`, what the other side sends), each optional: what a
 * release's `ServerDispatchHandlers` and `ClientDispatchHandlers` extend, their requests written out beside.
 */
export type NotificationHandlers<Notifications, C> = {
  readonly [M in keyof Notifications & string]?: (
    params: ParamsIn<Notifications, M>,
    ctx: NotificationContext<M, ParamsIn<Notifications, M>, C>,
  ) => void | Promise<void>;
};
