import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as mcp from "../../generated/index.ts";
import * as v2024_11_05 from "../../generated/2024-11-05/index.ts";
import * as v2026_07_28 from "../../generated/2026-07-28/index.ts";

/** fast-check's default run count for the everyday suite; `FUZZ_RUNS=100000 npx vitest run test/runtime/parse-property.test.ts` for a long run. */
const FUZZ_RUNS = process.env["FUZZ_RUNS"];
if (FUZZ_RUNS !== undefined && !/^[1-9][0-9]*$/.test(FUZZ_RUNS))
  throw new Error(`FUZZ_RUNS must be a positive integer (got "${FUZZ_RUNS}")`);
const RUNS: { numRuns?: number } = FUZZ_RUNS === undefined ? {} : { numRuns: Number(FUZZ_RUNS) };

const id = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.maxSafeInteger().map((n) => -n),
);
const object = fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 });
const withParams = <T extends object>(base: T) =>
  fc.option(object, { nil: undefined }).map((params) => (params === undefined ? base : { ...base, params }));

/** Valid JSON-RPC 2.0 messages of all four kinds, with arbitrary methods, ids and JSON payloads. */
const message = fc.oneof(
  fc.tuple(id, fc.string()).chain(([i, method]) => withParams({ jsonrpc: "2.0" as const, id: i, method })),
  fc.string().chain((method) => withParams({ jsonrpc: "2.0" as const, method })),
  fc.tuple(id, object).map(([i, result]) => ({ jsonrpc: "2.0" as const, id: i, result })),
  fc
    .tuple(fc.option(id, { nil: undefined }), fc.integer(), fc.string(), fc.option(fc.jsonValue(), { nil: undefined }))
    .map(([i, code, text, data]) => ({
      jsonrpc: "2.0" as const,
      ...(i === undefined ? {} : { id: i }),
      error: data === undefined ? { code, message: text } : { code, message: text, data },
    })),
);

const kindOf = (m: Record<string, unknown>) =>
  "method" in m ? ("id" in m ? "request" : "notification") : "result" in m ? "result" : "error";

/** Character-level damage: deletions, insertions and replacements at random places. */
const mutated = fc
  .tuple(
    message,
    fc.array(
      fc.tuple(fc.nat(), fc.constantFrom("delete", "insert", "replace"), fc.string({ minLength: 1, maxLength: 3 })),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([m, edits]) => {
    let text = JSON.stringify(m);
    for (const [at, op, chunk] of edits) {
      const i = at % (text.length + 1);
      text =
        op === "delete"
          ? text.slice(0, i) + text.slice(i + 1)
          : op === "insert"
            ? text.slice(0, i) + chunk + text.slice(i)
            : text.slice(0, i) + chunk + text.slice(i + chunk.length);
    }
    return text;
  });

/** Structure-level damage: one member replaced by an arbitrary JSON value, or removed. */
const reshaped = fc
  .tuple(
    message,
    fc.constantFrom("jsonrpc", "id", "method", "params", "result", "error"),
    fc.option(fc.jsonValue(), { nil: undefined }),
  )
  .map(([m, key, value]) => {
    const copy: Record<string, unknown> = { ...m };
    if (value === undefined) delete copy[key];
    else copy[key] = value;
    return JSON.stringify(copy);
  });

const parsers = [mcp.parse, v2024_11_05.parse, v2026_07_28.parse] as const;
const REJECTION_CODES = new Set([-32700, -32600, -32601, -32602]);
/** Every outcome is ok or a rejection with a JSON-RPC error code; nothing throws. */
const settled = (outcome: { ok: boolean; error?: { code: number } }) => {
  if (!outcome.ok && !REJECTION_CODES.has(outcome.error!.code))
    throw new Error(`rejection without a JSON-RPC code: ${JSON.stringify(outcome)}`);
};
const neverThrows = (text: string) => {
  for (const parse of parsers) settled(parse(text));
};
const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort().join(",");
const PROTOTYPE_AT_START = prototypeKeys();

describe("parse, property-based", () => {
  it("parse(encode(m)) gives back m, with its kind, for generated valid messages", () => {
    fc.assert(
      fc.property(message, (m) => {
        const outcome = mcp.parse(mcp.encode(m));
        // JSON has no -0; compare with what survives the wire.
        expect(outcome).toEqual({
          ok: true,
          message: { ...(JSON.parse(JSON.stringify(m)) as object), kind: kindOf(m) },
        });
        if (outcome.ok) expect(mcp.encode(outcome.message)).toBe(JSON.stringify(m));
      }),
      RUNS,
    );
  });

  it("parse never throws on arbitrary strings", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme-composite", maxLength: 200 }), neverThrows), RUNS);
  });

  it("parse never throws on arbitrary JSON", () => {
    fc.assert(fc.property(fc.json(), neverThrows), RUNS);
  });

  it("parse never throws on character-mutated valid messages", () => {
    fc.assert(fc.property(mutated, neverThrows), RUNS);
  });

  it("parse never throws on structurally damaged messages, and rejects those that lost jsonrpc", () => {
    fc.assert(
      fc.property(reshaped, (text) => {
        neverThrows(text);
        const value = JSON.parse(text) as Record<string, unknown>;
        if (value["jsonrpc"] !== "2.0") expect(mcp.parse(text)).toMatchObject({ ok: false, error: { code: -32600 } });
      }),
      RUNS,
    );
  });

  it("parse({ validate: true }) never throws on damaged messages either", () => {
    fc.assert(
      fc.property(fc.oneof(mutated, reshaped), (text) => {
        settled(v2026_07_28.parse(text, { validate: true }));
        settled(v2024_11_05.parse(text, { validate: true }));
      }),
      RUNS,
    );
  });

  it("no run above added anything to Object.prototype", () => {
    for (const text of [
      '{"__proto__": {"x": 1}}',
      '{"jsonrpc":"2.0","method":"m","params":{"__proto__":{"polluted":true}}}',
    ])
      neverThrows(text);
    expect(prototypeKeys()).toBe(PROTOTYPE_AT_START);
    expect(({} as Record<string, unknown>)["x"]).toBeUndefined();
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});
