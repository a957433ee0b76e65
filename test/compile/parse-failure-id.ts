// A parse failure's id answers the request it came from, through every release's `parse` and the version-agnostic one;
// a ParseFailure written before the id existed still is one. Checked by tsc (test/emit/compile.test.ts).
import * as root from "../../generated/index.js";
import * as v2024 from "../../generated/2024-11-05/index.js";
import * as v2025 from "../../generated/2025-11-25/index.js";
import * as v2026 from "../../generated/2026-07-28/index.js";

export function answerModern(text: string) {
  const parsed = v2026.parse(text, { validate: true });
  return parsed.ok ? undefined : v2026.errorResponse(parsed.id, parsed.error.code, parsed.error.message);
}

export function answerSession(text: string) {
  const parsed = v2025.parse(text);
  return parsed.ok ? undefined : v2025.errorResponse(parsed.id, parsed.error.code, parsed.error.message);
}

// Up to 2025-06-18 an error response needs an id: null where none could be read.
export function answerLegacy(text: string) {
  const parsed = v2024.parse(text, { validate: true });
  return parsed.ok ? undefined : v2024.errorResponse(parsed.id ?? null, parsed.error.code, parsed.error.message);
}

export function answerAnyVersion(text: string) {
  const parsed = root.parse(text);
  return parsed.ok ? undefined : root.errorResponse(parsed.id, parsed.error.code, parsed.error.message);
}

export const before: v2026.ParseFailure = { ok: false, error: { code: -32700, message: "not JSON" } };
export const withId: root.ParseFailure = {
  ok: false,
  error: { code: -32602, message: "params by position" },
  id: "req-1",
};
// @ts-expect-error an id that cannot be read is left out, never null
export const nullId: v2026.ParseFailure = { ok: false, error: { code: -32600, message: "m" }, id: null };
// @ts-expect-error nor present and undefined (exactOptionalPropertyTypes)
export const undefinedId: v2025.ParseFailure = { ok: false, error: { code: -32600, message: "m" }, id: undefined };
