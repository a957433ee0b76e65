// The spec reserves some `_meta` key prefixes for MCP (basic/index, "General fields: _meta"): a key
// under one of them is a protocol key, so a misspelt one (`io.modelcontextprotocol/protocolVerson`)
// is a bug the compiler can catch, while every other key stays the application's own. Types only:
// the schema types keep their open `_meta` (an index signature that excluded the reserved keys would
// clash with the keys they declare, TS2411), so the builders that take a caller's `_meta` check it.

/**
 * Which prefixes a release reserves: those whose `position` label (of the dot-separated labels
 * before the `/`) is one of `Labels`. `"second"`: 2025-11-25 on (`io.modelcontextprotocol/`,
 * `dev.mcp/`); `"penultimate"`: 2025-06-18 (`modelcontextprotocol.io/`, `tools.mcp.com/`);
 * `"none"`: releases that reserve no prefix.
 */
export type PrefixPosition = "second" | "penultimate" | "none";

/** Whether the label after the first one is in `Labels`. */
type SecondLabelIn<
  Prefix extends string,
  Labels extends string,
> = Prefix extends `${string}.${infer Rest}`
  ? Rest extends Labels | `${Labels}.${string}`
    ? true
    : false
  : false;

/** Whether the label before the last one is in `Labels`. */
type PenultimateLabelIn<
  Prefix extends string,
  Labels extends string,
> = Prefix extends `${infer First}.${infer Rest}`
  ? Rest extends `${string}.${string}`
    ? PenultimateLabelIn<Rest, Labels>
    : First extends Labels
      ? true
      : false
  : false;

/**
 * Whether `Key` lies under a prefix the release reserves (the prefix ends at the first `/`). `Position` may be a
 * union (the version-agnostic builders check every generated release's rule): then it is `boolean` where the
 * rules disagree, so checks ask `true extends IsReservedMetaKey<…>`.
 */
export type IsReservedMetaKey<
  Key,
  Labels extends string,
  Position extends PrefixPosition,
> = Key extends `${infer Prefix}/${string}`
  ? Position extends "second"
    ? SecondLabelIn<Prefix, Labels>
    : Position extends "penultimate"
      ? PenultimateLabelIn<Prefix, Labels>
      : false
  : false;

/** The type of a reserved key that is no `MetaKey`: a sentence tsc repeats in its error at that key, not a value to send. */
export type UnknownReservedMetaKey<Key extends string> =
  `${Key} is under a _meta prefix MCP reserves but is no MetaKey of this release`;

/**
 * `Meta` as a caller wrote it, with every key under a reserved prefix that is not one of the
 * release's `Known` keys typed `UnknownReservedMetaKey`, so writing it is a compile error at that key. Keys that are
 * only `string` (a `_meta` built elsewhere and typed as an open object) are not checked: that is the
 * way to send a reserved key the release does not list (an extension's own).
 */
export type CheckedMetaOf<
  Meta,
  Known extends string,
  Labels extends string,
  Position extends PrefixPosition,
> = {
  readonly [K in keyof Meta]: K extends Known
    ? Meta[K]
    : true extends IsReservedMetaKey<K, Labels, Position>
      ? UnknownReservedMetaKey<K & string>
      : Meta[K];
};

/**
 * What params that may carry `_meta` are intersected with: their `_meta`, as the caller wrote it
 * (`Meta`), must pass `Checked`. Not a conditional over the params, so a generic wrapper passing a
 * table's own params (`ServerRequests[M]["params"]`) still fits; `undefined` where params may be left out.
 */
export type CheckedMetaField<Meta, Checked> = { readonly _meta?: Meta & Checked } | undefined;

/**
 * The `_meta` a release's params declare (`Params["_meta"]`), every key optional: what a caller's own `_meta` is
 * intersected with where the builder writes the required keys, so the value of a key the release declares
 * (`progressToken`, `io.modelcontextprotocol/logLevel`) must have its type. Its open index signature leaves other keys as they are.
 */
export type MetaValuesOf<Params> = Params extends { readonly _meta?: infer Meta }
  ? { readonly [K in keyof Meta]?: Meta[K] }
  : unknown;

/** The keys of one `_meta` (a union is taken member by member) under a reserved prefix that are no `Known` key. */
type UnknownReservedKeysOf<
  Meta,
  Known extends string,
  Labels extends string,
  Position extends PrefixPosition,
> = Meta extends object
  ? {
      [K in keyof Meta]-?: K extends Known
        ? never
        : true extends IsReservedMetaKey<K, Labels, Position>
          ? K
          : never;
    }[keyof Meta]
  : never;

/** The `_meta` a result declares, member by member of a union of results (a handler's branches). */
type ResultMetaOf<R> = R extends { readonly _meta?: infer Meta } ? Meta : never;

/**
 * The unknown reserved keys of a handler's result (`R` or `Promise<R>`, the table's Answer), member by member. It reads
 * `_meta` itself rather than through `ResultMetaOf`: the one conditional fewer per handler is 100 fewer instantiations
 * for the bench consumer.
 */
type ReservedKeysIn<
  R,
  Known extends string,
  Labels extends string,
  Position extends PrefixPosition,
> =
  R extends Promise<infer Result>
    ? ReservedKeysIn<Result, Known, Labels, Position>
    : R extends { readonly _meta?: infer Meta }
      ? UnknownReservedKeysOf<Meta, Known, Labels, Position>
      : never;

/** What a handler must answer when its result's `_meta` has an unknown reserved key: the same, that key typed `UnknownReservedMetaKey`. */
type CheckedAnswerOf<
  R,
  Known extends string,
  Labels extends string,
  Position extends PrefixPosition,
> =
  // A promise is held to a promise: the plain object alternative would let any promise through (all its keys optional).
  R extends Promise<infer Result>
    ? Promise<{ readonly _meta?: CheckedMetaOf<ResultMetaOf<Result>, Known, Labels, Position> }>
    : { readonly _meta?: CheckedMetaOf<ResultMetaOf<R>, Known, Labels, Position> };

/** The type of a handler under a key that is no method of the table: a sentence tsc repeats in its error at that key. */
export type UnknownHandlerMethod<Method extends string> =
  `${Method} is no method this side receives`;

/**
 * What a dispatcher's table parameter is intersected with, to infer the table as the caller wrote it (`Table`) and check
 * it (`Methods`, the methods the side receives): a handler whose result's `_meta` has a key under a reserved prefix
 * that is no `Known` key gains a second signature whose result types that key `UnknownReservedMetaKey`, a compile
 * error at the handler naming the key; a key that is no method is typed `UnknownHandlerMethod` (the inferred table
 * has every key it was given, so no excess-property check sees a misspelt method); every other handler meets
 * `unknown`, so its type, and its parameters' contextual types, are the release table's own. Results whose
 * `_meta` is typed as an open object are not checked, as in `CheckedMetaOf`.
 */
export type CheckedResultsOf<
  Table,
  Methods extends string,
  Known extends string,
  Labels extends string,
  Position extends PrefixPosition,
> =
  // A conditional on `Table` itself, so the check waits until the table is inferred: as a plain mapped type it was also
  // computed on the table while being inferred, an eighth of what an inline table cost the bench consumer to check.
  // The false branch is never taken; it is where tsc infers `Table` from (it infers into both branches), so the parameter
  // need not also be intersected with `Table`: that made each handler's contextual result the intersection of its
  // inferred result and the release's, and each array in it an intersection of two arrays' every method: an eighth of
  // the bench consumer's instantiations.
  Table extends infer Written
    ? {
        readonly [M in keyof Written]: M extends Methods
          ? // The parameters are not inferred (a context-sensitive handler's are costly to read back): the signature a
            // handler with a bad key meets takes `never`, which any parameters accept, so its result decides.
            Written[M] extends (...args: never) => infer R
            ? [ReservedKeysIn<R, Known, Labels, Position>] extends [never]
              ? unknown
              : (...args: never) => CheckedAnswerOf<R, Known, Labels, Position>
            : unknown
          : UnknownHandlerMethod<M & string>;
      }
    : Table;
