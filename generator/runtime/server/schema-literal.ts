// The TypeScript type of the values a JSON Schema literal (`as const`) accepts, so a tool's handler
// gets its arguments typed from the `inputSchema` it declares. Types only. What the type cannot
// follow (`not`, `if`/`then`/`else`, remote `$ref`s, recursion past a few levels) is `unknown`: the
// validator still checks it at run time, the type is just less precise.

type Depth = readonly unknown[];
type Deeper<D extends Depth> = readonly [...D, unknown];

type Flatten<T> = { readonly [K in keyof T]: T[K] } & {};

type RequiredOf<S> = S extends { readonly required: readonly (infer K)[] } ? K : never;

type ObjectOf<S, Root, D extends Depth> = S extends { readonly properties: infer P }
  ? Flatten<
      {
        readonly [K in keyof P as K extends RequiredOf<S> ? K : never]: SchemaValue<P[K], Root, D>;
      } & {
        readonly [K in keyof P as K extends RequiredOf<S> ? never : K]?: SchemaValue<P[K], Root, D>;
      }
    >
  : { readonly [key: string]: unknown };

type OfType<S, T, Root, D extends Depth> = T extends "string"
  ? string
  : T extends "number" | "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? S extends { readonly items: infer I }
            ? readonly SchemaValue<I, Root, D>[]
            : readonly unknown[]
          : T extends "object"
            ? ObjectOf<S, Root, D>
            : unknown;

type Member<M, Root, D extends Depth> = M extends unknown ? SchemaValue<M, Root, D> : never;

type RefOf<Ref, Root, D extends Depth> = Ref extends "#"
  ? SchemaValue<Root, Root, D>
  : Ref extends `#/${"$defs" | "definitions"}/${infer Name}`
    ? Root extends { readonly $defs: { readonly [K in Name]: infer Def } }
      ? SchemaValue<Def, Root, D>
      : Root extends { readonly definitions: { readonly [K in Name]: infer Def } }
        ? SchemaValue<Def, Root, D>
        : unknown
    : unknown;

/** The values `S` accepts; `Root` is the literal its `#/$defs/…` references point into. */
export type SchemaValue<S, Root = S, D extends Depth = []> = D["length"] extends 12
  ? unknown
  : S extends true
    ? unknown
    : S extends false
      ? never
      : S extends { readonly const: infer C }
        ? C
        : S extends { readonly enum: readonly (infer E)[] }
          ? E
          : S extends { readonly $ref: infer Ref }
            ? RefOf<Ref, Root, Deeper<D>>
            : S extends { readonly anyOf: readonly (infer M)[] }
              ? Member<M, Root, Deeper<D>>
              : S extends { readonly oneOf: readonly (infer M)[] }
                ? Member<M, Root, Deeper<D>>
                : S extends { readonly type: infer T }
                  ? T extends readonly (infer Each)[]
                    ? OfType<S, Each, Root, Deeper<D>>
                    : OfType<S, T, Root, Deeper<D>>
                  : unknown;
