/**
 * Keywords servers publish in tool schemas that constrain nothing the validators could check, so a
 * tool carrying them is generated with them dropped (and named here, rather than left out):
 *
 * - `propertyNames` whose schema every string satisfies: JSON keys are always strings, and zod writes
 *   `{"type": "string"}` for every record. One that constrains keys (`pattern`, `enum`) is not accepted.
 * - The content vocabulary (`contentEncoding`, `contentMediaType`, `contentSchema`): annotations in
 *   JSON Schema 2020-12 (validation spec §8), which zod writes for base64 strings.
 * - `discriminator`: OpenAPI's annotation beside a `oneOf`/`anyOf` (pydantic writes it); the union checks the value.
 */
export function acceptsToolKeyword(keyword: string, value: unknown): boolean {
  if (keyword === "propertyNames") return admitsEveryString(value);
  return ANNOTATIONS.has(keyword);
}

const ANNOTATIONS: ReadonlySet<string> = new Set([
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "discriminator",
]);

/** Keywords that say something about a value without constraining it. */
const SILENT: ReadonlySet<string> = new Set([
  "description",
  "title",
  "$comment",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

/** `true`, `{}`, or a schema that only says `type` includes `"string"`, with annotations beside it. */
function admitsEveryString(schema: unknown): boolean {
  if (schema === true) return true;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return false;
  return Object.entries(schema).every(([key, value]) => {
    if (key === "type") return value === "string" || (Array.isArray(value) && value.includes("string"));
    return SILENT.has(key) || key.startsWith("x-");
  });
}
