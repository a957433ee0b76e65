// The SSE parser (runtime/client/sse-parser.ts), from outside: byte streams as given/want rows and as properties
// (fast-check) over every way a stream can be cut into chunks, and a long line costing its length once.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSseParser, type SseEvent } from "../../../generator/runtime/client/sse-parser.ts";

const RUNS = Number(process.env["FUZZ_RUNS"] ?? 200);

function parseSse(chunks: readonly (string | Uint8Array)[]): {
  events: SseEvent[];
  lastEventId: string | undefined;
  retryMs: number | undefined;
} {
  const events: SseEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return { events, lastEventId: parser.lastEventId, retryMs: parser.retryMs };
}

const message = (data: string, id?: string, event = "message"): SseEvent => ({ event, data, id });

describe("SSE parser", () => {
  const rows: [string, string, SseEvent[]][] = [
    ["one event", "data: a\n\n", [message("a")]],
    ["CRLF line ends, two data lines joined by LF", "data:a\r\ndata: b\r\n\r\n", [message("a\nb")]],
    ["CR line ends", "data: a\rdata: b\r\r", [message("a\nb")]],
    ["id and event name", "id: 7\nevent: x\ndata: y\n\n", [message("y", "7", "x")]],
    ["the id stays for later events", "id: 7\ndata: a\n\ndata: b\n\n", [message("a", "7"), message("b", "7")]],
    ["a comment is no event", ": keep-alive\n\n", []],
    ["a field without a colon has an empty value", "data\n\n", [message("")]],
    ["only the first space after the colon goes", "data:  two\n\n", [message(" two")]],
    ["an event cut off by the end is dropped", "data: a\n\ndata: cut", [message("a")]],
    ["a BOM at the start is skipped", "\uFEFFdata: bom\n\n", [message("bom")]],
    ["an id with NUL is ignored", "id: a\0b\ndata: z\n\n", [message("z")]],
    ["unknown fields are ignored", "foo: bar\ndata: z\n\n", [message("z")]],
  ];
  it.each(rows)("%s", (_, text, want) => {
    expect(parseSse([text]).events).toEqual(want);
  });

  it("strips one BOM, from bytes as from text: after a second one the first line is a field of another name", () => {
    const twice = "\uFEFF\uFEFFdata: x\n\ndata: y\n\n";
    expect(parseSse([twice]).events).toEqual([message("y")]);
    expect(parseSse([new TextEncoder().encode(twice)]).events).toEqual([message("y")]);
    expect(parseSse([new TextEncoder().encode("\uFEFFdata: x\n\n")]).events).toEqual([message("x")]);
  });

  it("keeps the last event id and the server's retry advice (digits only)", () => {
    expect(parseSse(["id: e1\ndata: x\n\nretry: 250\n\n"])).toMatchObject({ lastEventId: "e1", retryMs: 250 });
    expect(parseSse(["retry: 2x\n\n"]).retryMs).toBeUndefined();
  });

  it("an overlong line fails the stream with a RangeError instead of growing without bound", () => {
    const parser = createSseParser(() => undefined, { maxEventChars: 10 });
    expect(() => parser.push("data: 0123456789abcdef")).toThrow(RangeError);
  });

  const field = fc.string({ unit: "grapheme" }).filter((s) => !/[\r\n\0]/.test(s));
  const eventArb = fc.record({
    id: fc.option(field, { nil: undefined }),
    event: fc.option(
      field.filter((s) => s !== "" && !s.startsWith(" ")),
      { nil: undefined },
    ),
    data: fc.array(field, { minLength: 1, maxLength: 3 }),
  });

  it("any split of a valid stream into chunks, inside characters and line breaks included, gives the same events", () => {
    fc.assert(
      fc.property(
        fc.array(eventArb, { maxLength: 6 }),
        fc.constantFrom("\n", "\r\n", "\r"),
        fc.array(fc.nat(), { maxLength: 8 }),
        (events, eol, cuts) => {
          const text = events
            .map(
              (e) =>
                [
                  ...(e.id === undefined ? [] : [`id: ${e.id}`]),
                  ...(e.event === undefined ? [] : [`event: ${e.event}`]),
                  ...e.data.map((d) => `data: ${d}`),
                  "",
                ].join(eol) + eol,
            )
            .join("");
          const bytes = new TextEncoder().encode(text);
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...points].map((start, i) => bytes.subarray(start, [...points, bytes.length][i]));
          let lastId: string | undefined;
          const want = events.map((e) => {
            lastId = e.id ?? lastId;
            return message(e.data.join("\n"), lastId, e.event ?? "message");
          });
          expect(parseSse(chunks).events).toEqual(want);
          expect(parseSse([text]).events).toEqual(want);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("random bytes in random chunks never throw", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 10 }), (chunks) => {
        expect(() => parseSse(chunks)).not.toThrow();
      }),
      { numRuns: RUNS },
    );
  });

  it("a 16 MiB line in 1 KiB chunks is searched once, not again at each chunk (the test's timeout is the witness)", async () => {
    const line = `data: ${"x".repeat(16 * 2 ** 20 - 200)}`;
    const events: SseEvent[] = [];
    const parser = createSseParser((event) => events.push(event));
    const chunk = 1024;
    for (let at = 0; at < line.length; at += chunk) {
      parser.push(line.slice(at, at + chunk));
      // Now and then a turn of the event loop, so that the timeout can end a parser that re-reads its buffer.
      if (at % (256 * chunk) === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    parser.push("\n\n");
    expect(events).toHaveLength(1);
    expect(events[0]?.data.length).toBe(line.length - 6);
  }, 60_000);
});
