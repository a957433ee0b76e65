// A parse failure carries the refused request's id whenever it can be read, so that the error response can carry it
// (JSON-RPC 2.0 §5): every release's `parse`, with and without validation, and the version-agnostic one. The dispatchers
// answer the same texts with the same ids, and the answer a user builds from a failure fits the release's official schema.
import { describe, expect, it } from "vitest";
import * as root from "../../generated/index.ts";
import * as v2026_07_28 from "../../generated/2026-07-28/index.ts";
import { officialSchema } from "../support/official-schema.ts";
import { importGenerated } from "../support/test-tree.ts";

type Id = string | number;
type Failure = { ok: false; error: { code: number; message: string }; id?: Id };
type Outcome = { ok: true } | Failure;

/** The per-release surface these tests drive, typed loosely so one loop covers every release. */
interface Release {
  parse(text: string, options?: { validate?: boolean }): Outcome;
  errorResponse(id: Id | null | undefined, code: number, message: string): Record<string, unknown>;
  createServerDispatcher(
    handlers: object,
    options?: { onError?: () => void },
  ): { handle(message: unknown): Promise<{ id?: Id | null } | undefined> };
}

const RELEASES = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;
const releases = new Map<string, Release>();
for (const v of RELEASES) releases.set(v, (await importGenerated(`${v}/index.ts`)) as Release);

/**
 * given a text, want the refusal's code and id (`id` absent: none can be read). `silent`: a notification or a response,
 * which no one answers, so the dispatchers stay silent too.
 */
interface Row {
  readonly name: string;
  readonly given: string;
  readonly code: number;
  readonly id?: Id;
  readonly silent?: true;
}

const PLAIN: readonly Row[] = [
  {
    name: "params by position",
    given: '{"jsonrpc":"2.0","id":7,"method":"tools/list","params":[]}',
    code: -32602,
    id: 7,
  },
  {
    name: "params by position, a string id",
    given: '{"jsonrpc":"2.0","id":"req-1","method":"tools/list","params":[1]}',
    code: -32602,
    id: "req-1",
  },
  { name: "id 0", given: '{"jsonrpc":"2.0","id":0,"method":"tools/list","params":[]}', code: -32602, id: 0 },
  { name: 'id ""', given: '{"jsonrpc":"2.0","id":"","method":"tools/list","params":[]}', code: -32602, id: "" },
  { name: "a negative id", given: '{"jsonrpc":"2.0","id":-3,"method":"tools/list","params":[]}', code: -32602, id: -3 },
  {
    name: "params that are no structured value",
    given: '{"jsonrpc":"2.0","id":7,"method":"ping","params":"x"}',
    code: -32600,
    id: 7,
  },
  { name: "params null", given: '{"jsonrpc":"2.0","id":7,"method":"ping","params":null}', code: -32600, id: 7 },
  { name: "a method that is no string", given: '{"jsonrpc":"2.0","id":7,"method":5}', code: -32600, id: 7 },
  { name: "jsonrpc 1.0", given: '{"jsonrpc":"1.0","id":7,"method":"ping"}', code: -32600, id: 7 },
  { name: "no jsonrpc", given: '{"id":7,"method":"ping"}', code: -32600, id: 7 },
  { name: "an id and nothing else", given: '{"jsonrpc":"2.0","id":7}', code: -32600, id: 7 },
  {
    name: "a method beside a result",
    given: '{"jsonrpc":"2.0","id":7,"method":"ping","result":{}}',
    code: -32600,
    id: 7,
  },
  { name: "not JSON", given: "{oops", code: -32700 },
  { name: "empty text", given: "", code: -32700 },
  { name: "a number", given: "42", code: -32600 },
  { name: "null", given: "null", code: -32600 },
  { name: "an empty object", given: "{}", code: -32600 },
  { name: "a request with a null id", given: '{"jsonrpc":"2.0","id":null,"method":"ping"}', code: -32600 },
  { name: "a fractional id", given: '{"jsonrpc":"2.0","id":1.5,"method":"ping"}', code: -32600 },
  { name: "a boolean id", given: '{"jsonrpc":"2.0","id":true,"method":"ping"}', code: -32600 },
  { name: "an object id", given: '{"jsonrpc":"2.0","id":{"n":7},"method":"ping"}', code: -32600 },
  { name: "an array id", given: '{"jsonrpc":"2.0","id":[7],"method":"ping","params":[]}', code: -32600 },
  {
    name: "a notification with params by position",
    given: '{"jsonrpc":"2.0","method":"notifications/initialized","params":[]}',
    code: -32602,
    silent: true,
  },
  {
    name: "a notification with params null",
    given: '{"jsonrpc":"2.0","method":"notifications/initialized","params":null}',
    code: -32600,
    silent: true,
  },
  { name: "a result that is no object", given: '{"jsonrpc":"2.0","id":7,"result":[]}', code: -32600, silent: true },
  {
    name: "an error with a fractional code",
    given: '{"jsonrpc":"2.0","id":7,"error":{"code":1.5,"message":"x"}}',
    code: -32600,
    silent: true,
  },
  {
    name: "a result beside an error",
    given: '{"jsonrpc":"2.0","id":7,"result":{},"error":{"code":1,"message":"x"}}',
    code: -32600,
    silent: true,
  },
];

/** Refused by the release's validation only (`parse(text, { validate: true })`). */
const VALIDATED: readonly Row[] = [
  { name: "an unknown method", given: '{"jsonrpc":"2.0","id":7,"method":"nope"}', code: -32601, id: 7 },
  {
    name: "params that do not fit the schema",
    given: '{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":5}}',
    code: -32602,
    id: "c",
  },
  {
    name: "a notification of an unknown method",
    given: '{"jsonrpc":"2.0","method":"notifications/nope"}',
    code: -32601,
    silent: true,
  },
  {
    name: "a notification with bad params",
    given: '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1}}',
    code: -32602,
    silent: true,
  },
];

/** What the failure says, with `id` only when present: `toEqual` would let a present `id: undefined` pass. */
function refusal(outcome: Outcome): { code: number; id?: Id } | "ok" {
  if (outcome.ok) return "ok";
  return Object.hasOwn(outcome, "id") ? { code: outcome.error.code, id: outcome.id! } : { code: outcome.error.code };
}

const want = (row: Row): { code: number; id?: Id } =>
  row.id === undefined ? { code: row.code } : { code: row.code, id: row.id };

describe.each(RELEASES)(
  "%s: parse failures carry the request's id when it can be read, as the dispatcher answers",
  (version) => {
    const release = releases.get(version)!;
    const check = officialSchema(version);
    const dispatcher = release.createServerDispatcher({}, { onError: () => undefined });

    /** The dispatcher answers with the same id where one can be read; how it answers an unreadable one (null or none, `unreadableId`) is dispatch-ajv.test.ts's. */
    const dispatcherAgrees = async (row: Row): Promise<void> => {
      const response = await dispatcher.handle(row.given);
      if (row.silent) expect(response).toBeUndefined();
      else expect(response?.id ?? undefined).toBe(row.id);
    };

    it.each(PLAIN)("$name", async (row) => {
      expect(refusal(release.parse(row.given))).toEqual(want(row));
      expect(refusal(release.parse(row.given, { validate: true }))).toEqual(want(row));
      await dispatcherAgrees(row);
    });

    it.each(VALIDATED)("with validate: $name", async (row) => {
      expect(release.parse(row.given).ok).toBe(true);
      expect(refusal(release.parse(row.given, { validate: true }))).toEqual(want(row));
      await dispatcherAgrees(row);
    });

    it.each([...PLAIN, ...VALIDATED].filter((row) => !row.silent))(
      "the error response built from the failure fits the schema: $name",
      (row) => {
        const outcome = release.parse(row.given, { validate: true });
        if (outcome.ok) throw new Error(`${row.given} was not refused`);
        const legacyError = version < "2025-11-25";
        const response = release.errorResponse(
          outcome.id ?? (legacyError ? null : undefined),
          outcome.error.code,
          outcome.error.message,
        );
        expect(response["id"]).toBe(row.id ?? (legacyError ? null : undefined));
        // Up to 2025-06-18 JSONRPCError wants a string or integer id: an answer with a null id can only have its error judged.
        if (legacyError && outcome.id === undefined)
          expect(check("JSONRPCError/properties/error", response["error"])).toBeNull();
        else expect(check(legacyError ? "JSONRPCError" : "JSONRPCErrorResponse", response)).toBeNull();
      },
    );
  },
);

describe("the version-agnostic parse", () => {
  it.each(PLAIN)("$name", (row) => {
    expect(refusal(root.parse(row.given))).toEqual(want(row));
  });
});

describe("validation refusing a response", () => {
  it("gives no id: a response is never answered", () => {
    // 2026-07-28 results carry a resultType; the envelope alone accepts this one.
    const text = '{"jsonrpc":"2.0","id":7,"result":{"content":[]}}';
    expect(v2026_07_28.parse(text).ok).toBe(true);
    expect(refusal(v2026_07_28.parse(text, { validate: true }))).toEqual({ code: -32600 });
  });
});
