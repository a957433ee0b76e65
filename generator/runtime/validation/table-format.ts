// The validator table: what the emitter (generator/emit/validate-table.ts) writes into each
// release's `validate.ts` and what the interpreter (validator.ts) decodes. One definition here,
// read by both, so the two cannot drift apart. The table is most of a validator's bundle size, so
// it travels as text denser than JSON, below; the interpreter decodes it into named fields once.

// The text a table travels as (`encodeTable` in the emitter writes it, `decodeTable` reads it): lines joined by
// `\n`, namely the version, the definition names (comma-separated), the JSON array `[result, error, ...methods]`
// (a `WireNamedTable` leaves the version and that line empty), then one entry per line. An alias entry is `=` and
// its index. A node is its fields joined by `;`, each a `WireNode` key letter and the value as JSON (`;` escaped),
// except `p`: names and entry indices alternating, joined by `,`, where a name that could read as a number or holds
// a character beyond `[\w$@./-]` is JSON with `,;` escaped, so no separator occurs inside one. Against the same table
// as JSON: no quotes around property names and keys, no braces; the decoder is a few lines.

/** One schema node: one-letter keys, `$ref`s as entry indices. An empty node accepts every value. */
export interface WireNode {
  /** `type` as a bit mask of `TYPE_BITS`; absent: any type. */
  readonly t?: number;
  /** `const`. */
  readonly c?: unknown;
  /** `enum`. */
  readonly e?: readonly unknown[];
  /** `properties` as pairs: property name, entry index; required properties store `~index`. */
  readonly p?: readonly (string | number)[];
  /** `additionalProperties`: entry index (`false` is an entry whose type mask is 0). */
  readonly a?: number;
  /** `items`: entry index. */
  readonly i?: number;
  /** `anyOf`, `oneOf`, `allOf`: entry indices. */
  readonly u?: readonly number[];
  readonly o?: readonly number[];
  readonly l?: readonly number[];
  /** Discriminator: the property whose `const` tells the `anyOf`/`oneOf` members apart. */
  readonly d?: string;
  /** `format`: one of `FORMATS`. */
  readonly f?: string;
  /** `minimum`, `maximum`, `maxItems` (X). */
  readonly n?: number;
  readonly x?: number;
  readonly X?: number;
  /** Keywords only tool schemas use, apart so the protocol's nodes pay nothing for them. */
  readonly k?: WireRare;
}

/** `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `minProperties`, `maxProperties`, `uniqueItems` (1), `minItems`, `minLength`, `maxLength`, `pattern`, and `not`, `if`, `then`, `else` as entry indices. */
export interface WireRare {
  readonly en?: number;
  readonly ex?: number;
  readonly m?: number;
  readonly np?: number;
  readonly xp?: number;
  readonly q?: 1;
  readonly ni?: number;
  readonly nl?: number;
  readonly xl?: number;
  readonly r?: string;
  readonly no?: number;
  readonly if?: number;
  readonly th?: number;
  readonly el?: number;
}

/** A number entry is an alias: the definition is exactly the (non-alias) entry at that index. */
export type WireEntry = WireNode | number;

/** Method name, `METHOD_KINDS` code, params entry or -1, params required (1) or not (0), then the result entries, primary first. */
export type WireMethod = readonly [string, number, number, number, ...number[]];

/**
 * What messages reach: the definitions and nodes that the methods' params and results and the response
 * members use. The rest is a `WireNamedTable`, so a program that validates messages but never asks for
 * a definition by name bundles none of it.
 */
export interface WireTable {
  readonly version: string;
  /** Definition names, comma-separated; definition `i` is entry `i`. Anonymous nodes follow the definitions. */
  readonly names: string;
  readonly nodes: readonly WireEntry[];
  /** A method's params entry may be a definition: its issues then name that definition, as any other's do. */
  readonly methods: readonly WireMethod[];
  /** The generic `result` and `error` members of a response envelope. */
  readonly result: number;
  readonly error: number;
}

/**
 * The definitions only `validate` and the guards reach (wrappers such as `JSONRPCMessage` or
 * `CallToolRequest`), and the nodes only they use. Entries are numbered after the `WireTable`'s,
 * and may refer to its entries.
 */
export interface WireNamedTable {
  /** Definition names, comma-separated; definition `i` is entry `i` + the `WireTable`'s entry count. */
  readonly names: string;
  readonly nodes: readonly WireEntry[];
}

// Each bit and kind is a constant of its own: a bundler writes the interpreter's uses as literals, where reading
// them off an object kept the object and its names in every validator bundle. The tables name them for the emitter.

/** JSON types by bit; `integer` is a separate bit so a mask can say "number but integral". */
export const NULL_BIT = 1;
export const BOOLEAN_BIT = 2;
export const OBJECT_BIT = 4;
export const ARRAY_BIT = 8;
export const NUMBER_BIT = 16;
export const INTEGER_BIT = 32;
export const STRING_BIT = 64;

export const TYPE_BITS: {
  readonly null: typeof NULL_BIT;
  readonly boolean: typeof BOOLEAN_BIT;
  readonly object: typeof OBJECT_BIT;
  readonly array: typeof ARRAY_BIT;
  readonly number: typeof NUMBER_BIT;
  readonly integer: typeof INTEGER_BIT;
  readonly string: typeof STRING_BIT;
} = {
  null: NULL_BIT,
  boolean: BOOLEAN_BIT,
  object: OBJECT_BIT,
  array: ARRAY_BIT,
  number: NUMBER_BIT,
  integer: INTEGER_BIT,
  string: STRING_BIT,
};

/** Every type bit: a node without `t`. */
export const ANY_TYPE = 127;

/** `TYPE_BITS` names, indexed by bit position. */
export const TYPE_NAMES: readonly string[] = [
  "null",
  "boolean",
  "object",
  "array",
  "number",
  "integer",
  "string",
];

export const REQUEST_KIND = 0;
export const NOTIFICATION_KIND = 1;
export const INPUT_KIND = 2;

export const METHOD_KINDS: {
  readonly request: typeof REQUEST_KIND;
  readonly notification: typeof NOTIFICATION_KIND;
  readonly input: typeof INPUT_KIND;
} = { request: REQUEST_KIND, notification: NOTIFICATION_KIND, input: INPUT_KIND };

/** The formats the interpreter implements (all the MCP schemas name); the emitter refuses any other. */
export const FORMATS: readonly string[] = ["uri", "uri-template", "byte"];
