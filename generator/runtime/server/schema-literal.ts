// The TypeScript type of the values a JSON Schema literal (`as const`) accepts, so a tool's handler
// gets its arguments typed from the `inputSchema` it declares. Types only. What the type cannot
// follow (`not`, `if`/`then`/`else`, remote `$ref`s, recursion past a few levels) is `unknown`: the
// validator still checks it at run time, the type is just less precise.

type Depth = readonly unknown[];
type Deeper<D extends Depth> = readonly [...D, unknown];

type Flatten<T> = { readonly [K in keyof T]: T[K] } & {};

/**
 * The members a schema node is tested for, named out here: a type literal written inside a generic alias is
 * instantiated each time the alias is, even when it names none of the alias's parameters.
 */
type WithRequired = { readonly required: readonly unknown[] };
type WithProperties = { readonly properties: object };
type WithItems = { readonly items: unknown };
type WithConst = { readonly const: unknown };
type WithEnum = { readonly enum: readonly unknown[] };
type WithRef = { readonly $ref: unknown };
type WithAnyOf = { readonly anyOf: readonly unknown[] };
type WithOneOf = { readonly oneOf: readonly unknown[] };
type WithType = { readonly type: unknown };

type RequiredOf<S> = S extends WithRequired ? S["required"][number] : never;

/**
 * Every property optional, and the required ones again as required: their intersection is required, and no
 * `Exclude` per property works out which are left (a consumer's tsc paid for one per property, per schema).
 */
type Props<P, Req, Root, D extends Depth> = {
  readonly [K in keyof P & Req]: SchemaValue<P[K], Root, D>;
} & {
  readonly [K in keyof P]?: SchemaValue<P[K], Root, D>;
};

type ObjectOf<S, Root, D extends Depth> = S extends WithProperties
  ? Flatten<Props<S["properties"], RequiredOf<S>, Root, D>>
  : { readonly [key: string]: unknown };

interface Primitives {
  string: string;
  number: number;
  integer: number;
  boolean: boolean;
  null: null;
}

type OfType<S, T, Root, D extends Depth> = T extends keyof Primitives
  ? Primitives[T]
  : T extends "object"
    ? ObjectOf<S, Root, D>
    : T extends "array"
      ? S extends WithItems
        ? readonly SchemaValue<S["items"], Root, D>[]
        : readonly unknown[]
      : unknown;

type Member<M, Root, D extends Depth> = M extends unknown ? SchemaValue<M, Root, D> : never;

type RefOf<Ref, Root, D extends Depth> = D["length"] extends 12
  ? unknown
  : Ref extends "#"
    ? SchemaValue<Root, Root, D>
    : Ref extends `#/${"$defs" | "definitions"}/${infer Name}`
      ? Root extends { readonly $defs: { readonly [K in Name]: infer Def } }
        ? SchemaValue<Def, Root, D>
        : Root extends { readonly definitions: { readonly [K in Name]: infer Def } }
          ? SchemaValue<Def, Root, D>
          : unknown
      : unknown;

/**
 * The values `S` accepts; `Root` is the literal its `#/$defs/…` references point into, `D` counts the references
 * followed (only a reference can recurse). Members are read by indexed access after a test with no `infer`: a
 * pattern with `infer` is instantiated at every schema node, which cost a consumer's tsc a third more.
 */
export type SchemaValue<S, Root = S, D extends Depth = []> = S extends WithConst
  ? S["const"]
  : S extends WithEnum
    ? S["enum"][number]
    : S extends WithRef
      ? RefOf<S["$ref"], Root, Deeper<D>>
      : S extends WithAnyOf
        ? Member<S["anyOf"][number], Root, D>
        : S extends WithOneOf
          ? Member<S["oneOf"][number], Root, D>
          : S extends WithType
            ? S["type"] extends readonly unknown[]
              ? OfType<S, S["type"][number], Root, D>
              : OfType<S, S["type"], Root, D>
            : S extends false
              ? never
              : unknown;
