/**
 * The normalised schema: both dialects (draft-07 `definitions`, 2020-12 `$defs`) reduced to one
 * shape with only the keywords MCP schemas use. Everything downstream (model, emitters,
 * validators, diff) reads this, never raw JSON, so dialect quirks are handled exactly once.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type JsonType = "string" | "number" | "integer" | "boolean" | "object" | "array" | "null";

export type Dialect = "draft-07" | "2020-12";

export interface SchemaProperty {
  readonly name: string;
  readonly required: boolean;
  readonly schema: SchemaNode;
}

export interface SchemaNode {
  /** Where this node stands in the source file (RFC 6901), for messages and diffs. */
  readonly pointer: string;
  readonly description?: string;
  /** Name of the referenced definition. Sibling keywords other than `description` are rejected. */
  readonly ref?: string;
  /** Normalised to a sorted array; absent means "any type". */
  readonly type?: readonly JsonType[];
  readonly const?: JsonValue;
  readonly enum?: readonly JsonValue[];
  /** Sorted by name, so key order in the input never changes the output. */
  readonly properties?: readonly SchemaProperty[];
  /**
   * `false`/absent: closed object (no index signature); `true` or a schema: open object.
   * MCP schemas never say `false`: absence means the TypeScript source had no index signature.
   */
  readonly additionalProperties?: boolean | SchemaNode;
  readonly items?: SchemaNode;
  readonly anyOf?: readonly SchemaNode[];
  readonly oneOf?: readonly SchemaNode[];
  readonly allOf?: readonly SchemaNode[];
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  /** Keywords no MCP release schema uses, validated for tool schemas; the types ignore them (they stay wider). */
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  readonly uniqueItems?: boolean;
  readonly not?: SchemaNode;
  readonly if?: SchemaNode;
  readonly then?: SchemaNode;
  readonly else?: SchemaNode;
  readonly default?: JsonValue;
  readonly deprecated?: boolean;
  /** Types only (the model adds it from facts, never the loader): values an open string is known to take, listed beside `string`. */
  readonly known?: readonly string[];
  /** `x-*` annotation keywords, by name (sorted). */
  readonly extensions?: Readonly<Record<string, JsonValue>>;
}

export interface NormalisedSchema {
  /** The file it was read from, as given to the loader: used in every message. */
  readonly file: string;
  readonly dialect: Dialect;
  /** `/definitions` or `/$defs`: where definitions live in the source file. */
  readonly definitionsPointer: string;
  /** Sorted by name. */
  readonly definitions: ReadonlyMap<string, SchemaNode>;
  /** sha256 of the file's bytes, recorded so incremental runs can skip unchanged input. */
  readonly sha256: string;
}
