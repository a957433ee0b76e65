// The stdio transports' framing (runtime/core/ndjson.ts), from outside: newline-delimited JSON split from byte
// streams cut anywhere, a line over the limit dropped with its first bytes reported.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLineSplitter, encodeLine } from "../../../generator/runtime/core/ndjson.ts";

const RUNS = Number(process.env["FUZZ_RUNS"] ?? 200);

describe("ndjson line splitter", () => {
  function split(
    chunks: readonly (string | Uint8Array)[],
    maxLineBytes?: number,
  ): { lines: string[]; overflows: string[] } {
    const lines: string[] = [];
    const overflows: string[] = [];
    const splitter = createLineSplitter((line) => lines.push(line), {
      ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
      onOverflow: (head) => overflows.push(head),
    });
    for (const chunk of chunks) splitter.push(chunk);
    splitter.end();
    return { lines, overflows };
  }

  const rows: [string, string[], string[]][] = [
    ["lines split on LF", ['{"a":1}\n{"b":2}\n'], ['{"a":1}', '{"b":2}']],
    ["a trailing CR is removed", ["x\r\ny\n"], ["x", "y"]],
    ["a line across chunks", ["ab", "c\nd", "e\n"], ["abc", "de"]],
    ["the last line without LF is flushed by end", ["x\ny"], ["x", "y"]],
    ["empty lines are lines", ["\n\n"], ["", ""]],
  ];
  it.each(rows)("%s", (_, chunks, want) => {
    expect(split(chunks).lines).toEqual(want);
  });

  it("a line longer than maxLineBytes is dropped whole and reported with its start, and the next line is read", () => {
    expect(split(["0123", "456789\nok\n"], 5)).toEqual({ lines: ["ok"], overflows: ["0123456789"] });
    expect(split(["0123", "456789"], 5)).toEqual({ lines: [], overflows: ["0123456789"] });
  });

  it("the start reported is the line's first 256 bytes, whichever chunks they came in", () => {
    const long = `{"jsonrpc":"2.0","id":7,"result":{"text":"${"é".repeat(300)}"}}`;
    const bytes = new TextEncoder().encode(`${long}\n`);
    const { overflows } = split([bytes.subarray(0, 30), bytes.subarray(30, 100), bytes.subarray(100)], 200);
    expect(overflows).toHaveLength(1);
    expect(new TextEncoder().encode(overflows[0]).length).toBeGreaterThanOrEqual(255);
    expect(long.startsWith(overflows[0]!.replace(/\uFFFD$/, ""))).toBe(true);
  });

  it("encodeLine is JSON and one LF, whatever the strings hold", () => {
    expect(encodeLine({ text: "a\nb\u2028" })).toBe('{"text":"a\\nb\u2028"}\n');
  });

  it("any split of UTF-8 bytes gives the same lines", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: "grapheme" }).filter((s) => !s.includes("\n") && !s.endsWith("\r")),
          { maxLength: 6 },
        ),
        fc.array(fc.nat(), { maxLength: 8 }),
        (lines, cuts) => {
          const bytes = new TextEncoder().encode(lines.map((line) => `${line}\n`).join(""));
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...points].map((start, i) => bytes.subarray(start, [...points, bytes.length][i]));
          expect(split(chunks).lines).toEqual(lines);
          expect(split(chunks).overflows).toEqual([]);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
