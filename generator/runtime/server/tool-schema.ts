// A tool's `inputSchema`/`outputSchema` as `createMcpServer` takes it: a JSON Schema literal (its values
// typed by schema-literal.ts, checked by the runtime's own validator) or any Standard Schema v1 object
// (standardschema.dev: a release's `standardSchema(name)`, a server module's `argumentsSchema(tool)`,
// zod, valibot, arktype), checked by its own `validate` and listed as the JSON Schema it gives through
// Standard JSON Schema (`~standard.jsonSchema`). One member, two forms: a schema listed by one object and
// checked by another could disagree without anyone noticing.
import { escapeToken, type JsonObject } from "../core/json.js";
import { compileJsonSchema } from "../validation/json-schema.js";
import type { StandardIssue } from "../validation/standard-schema.js";
import type { SchemaValue } from "./schema-literal.js";

type StandardOutcome =
  | { readonly value: unknown; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] };

/** What the server reads of a Standard Schema v1 object; `validate` may answer a promise (zod's refinements do). */
interface AnyStandardSchema {
  readonly "~standard": {
    readonly validate: (value: unknown) => StandardOutcome | Promise<StandardOutcome>;
    readonly jsonSchema?: {
      readonly input?: (options: { readonly target: string }) => unknown;
      readonly output?: (options: { readonly target: string }) => unknown;
    };
  };
}

/** `~standard.types`' `input` or `output`: `unknown` where the schema says none. */
type StandardTyped<S, K extends "input" | "output"> = S extends {
  readonly "~standard": { readonly types?: infer T };
}
  ? NonNullable<T> extends { readonly [P in K]: infer V }
    ? V
    : unknown
  : never;

/** What tells a Standard Schema from a JSON Schema literal (named here: a literal in the aliases is instantiated with them). */
type StandardSchemaLike = { readonly "~standard": object };

/** The arguments a handler gets: a Standard Schema's output (what its `validate` gives back), a literal's values. */
export type ToolArguments<S> = S extends StandardSchemaLike
  ? StandardTyped<S, "output">
  : SchemaValue<S>;

/** The `structuredContent` a handler answers: what a Standard Schema's `validate` takes (its input), a literal's values. */
export type ToolStructured<O> = O extends StandardSchemaLike
  ? StandardTyped<O, "input">
  : SchemaValue<O>;

/** A value checked: what goes on (a Standard Schema may give back another value), or what is wrong, one line each. */
export type Checked =
  { readonly value: unknown; readonly issues?: undefined } | { readonly issues: readonly string[] };

/** Checks a value; a Standard Schema whose `validate` is asynchronous answers a promise. */
export type Check = (value: unknown) => Checked | Promise<Checked>;

export interface CompiledToolSchema {
  /** The JSON Schema `tools/list` shows. */
  readonly listed: JsonObject;
  readonly check: Check;
}

/**
 * Compiles one of a tool's schemas, once, when the tool is declared. A Standard Schema is listed as its
 * `~standard.jsonSchema[io]({ target: "draft-2020-12" })` (`io`: "input" for arguments, "output" for the
 * structured result, which is what its `validate` gives back); one that offers none is refused here,
 * with a `TypeError` naming `where`, rather than listed wrong. What is not a Standard Schema is a literal.
 */
export function compileToolSchema(
  schema: unknown,
  io: "input" | "output",
  where: string,
): CompiledToolSchema {
  // arktype's schemas are functions.
  const standard =
    (typeof schema === "object" && schema !== null) || typeof schema === "function"
      ? (schema as Partial<AnyStandardSchema>)["~standard"]
      : undefined;
  if (standard === undefined) {
    const compiled = compileJsonSchema(schema, { where });
    return {
      listed: schema as JsonObject,
      check: (value) => {
        const result = compiled.validate(value);
        return result.ok
          ? { value }
          : {
              issues: result.errors.map((e) =>
                line(e.pointer, `expected ${e.expected}, got ${e.got}`),
              ),
            };
      },
    };
  }
  const convert = standard.jsonSchema?.[io];
  if (typeof convert !== "function")
    throw new TypeError(
      `${where}: a Standard Schema without ~standard.jsonSchema (Standard JSON Schema), which tools/list ` +
        "shows: declare a JSON Schema literal instead",
    );
  let listed: JsonObject;
  try {
    listed = convert({ target: "draft-2020-12" }) as JsonObject;
  } catch (error) {
    const reason = (error as Error | undefined)?.message;
    throw new TypeError(`${where}: ~standard.jsonSchema.${io} threw: ${reason}`, { cause: error });
  }
  return {
    listed,
    check: (value) => {
      const outcome = standard.validate(value);
      return outcome instanceof Promise ? outcome.then(checked) : checked(outcome);
    },
  };
}

/** Standard Schema v1: issues mean refused (a falsy `issues` is success); each issue as `<pointer>: <message>`. */
function checked(outcome: StandardOutcome): Checked {
  if (!outcome.issues) return { value: outcome.value };
  return {
    issues: outcome.issues.map((issue) => {
      let pointer = "";
      for (const segment of issue.path ?? [])
        pointer += "/" + escapeToken(String(typeof segment === "object" ? segment.key : segment));
      return line(pointer, issue.message);
    }),
  };
}

/** One issue, one line: where (a JSON pointer, `(root)` for the value itself), then what. */
const line = (pointer: string, message: string): string =>
  `${pointer === "" ? "(root)" : pointer}: ${message}`;
