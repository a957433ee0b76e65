import { propertyKey } from "./names.ts";

/**
 * The type TypeScript infers for `Object.freeze(<JSON literal>)`, written out so exported
 * constants carry an explicit type (`isolatedDeclarations`) that is exactly the inferred one.
 * `Object.freeze` keeps literal types of an object's direct primitive members and widens the
 * rest; `depth` is how many levels of nested objects the initializer freezes too, and
 * `readonlyKeys` marks members `readonly` as `as const` does.
 */
export function frozenType(
  value: unknown,
  options: {
    readonly depth?: number;
    readonly readonlyKeys?: boolean;
    readonly docs?: ReadonlyMap<string, string>;
    readonly bare?: boolean;
  } = {},
): string {
  const type = frozen(value, options.depth ?? 1, options);
  // `bare`: the object type without its outer Readonly, as the type argument of Object.freeze.
  return options.bare === true && type.startsWith("Readonly<") ? type.slice("Readonly<".length, -1) : type;
}

function frozen(
  value: unknown,
  depth: number,
  options: { readonly readonlyKeys?: boolean; readonly docs?: ReadonlyMap<string, string> },
): string {
  if (depth === 0 || typeof value !== "object" || value === null || Array.isArray(value)) return widened(value);
  const members = Object.entries(value).map(([key, member]) => {
    const type =
      typeof member === "object" && member !== null && !Array.isArray(member)
        ? frozen(member, depth - 1, {})
        : literal(member);
    const doc = options.docs?.get(key);
    return `${doc === undefined ? "" : `/** ${doc} */\n`}${options.readonlyKeys ? "readonly " : ""}${propertyKey(key)}: ${type};`;
  });
  return `Readonly<{ ${members.join(options.docs === undefined ? " " : "\n")} }>`;
}

function literal(value: unknown): string {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value === null
    ? JSON.stringify(value)
    : widened(value);
}

/** The type of a JSON value in a mutable literal: primitives widen, arrays become `T[]`. */
function widened(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) {
    const elements = [...new Set(value.map(widened))];
    return elements.length === 0
      ? "never[]"
      : elements.length === 1
        ? `${elements[0]}[]`
        : `(${elements.join(" | ")})[]`;
  }
  if (typeof value === "object")
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${propertyKey(k)}: ${widened(v)};`)
      .join(" ")} }`;
  return typeof value;
}
