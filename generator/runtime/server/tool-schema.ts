// A tool's `inputSchema`/`outputSchema` as `createMcpServer` takes it: a JSON Schema literal (its values
// typed by schema-literal.ts, checked by the runtime's own validator) or any Standard Schema v1 object
// (standardschema.dev: a release's `standardSchema(name)`, a server module's `argumentsSchema(tool)`,
// zod, valibot, arktype), checked by its own `validate` and listed as the JSON Schema it gives through
// Standard JSON Schema (`~standard.jsonSchema`). One member, two forms: a schema listed by one object and
// checked by another could disagree without anyone noticing.
import { describeValue, escapeToken, isObject, type JsonObject } from "../core/json.js";
import { compileJsonSchema } from "../validation/json-schema.js";
import type { StandardIssue } from "../validation/standard-schema.js";
import type { SchemaValue } from "./schema-literal.js";

type StandardOutcome =
  | { readonly value: unknown; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] };

/** What the server reads of a Standard Schema v1 object; `validate` may answer a promise (zod's refinements do). */
interface AnyStandardSchema {
  readonly "~standard": {
    readonly vendor: string;
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

/** The arguments a handler gets: a Standard Schema's output (what its `validate` gives back), a literal's values. */
export type ToolArguments<S> = S extends { readonly "~standard": object }
  ? StandardTyped<S, "output">
  : SchemaValue<S>;

/** The `structuredContent` a handler answers: what a Standard Schema's `validate` takes (its input), a literal's values. */
export type ToolStructured<O> = O extends { readonly "~standard": object }
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
 * with a `TypeError` naming `where`, rather than listed wrong.
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
              issues: result.errors.map(
                (e) =>
                  `${e.pointer === "" ? "(root)" : e.pointer}: expected ${e.expected}, got ${e.got}`,
              ),
            };
      },
    };
  }
  if (!isObject(standard) || typeof standard.validate !== "function")
    throw new TypeError(`${where}: ~standard has no validate function (Standard Schema v1)`);
  const validate = standard.validate;
  return {
    listed: listedSchema(standard, io, where),
    check: (value) => {
      const outcome = validate(value);
      return outcome instanceof Promise ? outcome.then(checked) : checked(outcome);
    },
  };
}

function listedSchema(
  standard: AnyStandardSchema["~standard"],
  io: "input" | "output",
  where: string,
): JsonObject {
  const convert = standard.jsonSchema?.[io];
  const call = `~standard.jsonSchema.${io}({ target: "draft-2020-12" })`;
  if (typeof convert !== "function")
    throw new TypeError(
      `${where}: a Standard Schema (vendor ${describeValue(standard.vendor)}) without ${call}, ` +
        "so tools/list cannot show it: use a version of the library that offers Standard JSON Schema, " +
        "or declare the schema as a JSON Schema literal",
    );
  let listed: unknown;
  try {
    listed = convert({ target: "draft-2020-12" });
  } catch (error) {
    throw new TypeError(`${where}: ${call} threw: ${(error as Error | undefined)?.message}`, {
      cause: error,
    });
  }
  if (!isObject(listed))
    throw new TypeError(
      `${where}: ${call} gave ${describeValue(listed)}, not a JSON Schema object`,
    );
  return listed;
}

/** Standard Schema v1: issues mean refused (a falsy `issues` is success); each issue as `<pointer>: <message>`. */
function checked(outcome: StandardOutcome): Checked {
  if (!outcome.issues) return { value: outcome.value };
  return {
    issues: outcome.issues.map((issue) => {
      const pointer = (issue.path ?? [])
        .map((segment) => {
          const key = typeof segment === "object" && segment !== null ? segment.key : segment;
          return "/" + escapeToken(String(key));
        })
        .join("");
      return `${pointer === "" ? "(root)" : pointer}: ${issue.message}`;
    }),
  };
}
