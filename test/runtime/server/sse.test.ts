// runtime/sse.ts from outside: one SSE stream of JSON-RPC messages with a connection (a sink) coming and going,
// its event ids, what it hands the event store, and `parseEventId` for the `Last-Event-ID` a client sends back.
import { describe, expect, it } from "vitest";
import { createEventStream, parseEventId, type StreamSink } from "../../../generator/runtime/server/sse.ts";

/** A connection that records what is written to it and whether it was ended. */
function sink(): StreamSink & { readonly chunks: string[]; ended: boolean } {
  const chunks: string[] = [];
  const made = {
    chunks,
    ended: false,
    write: (chunk: string) => void chunks.push(chunk),
    end: () => {
      made.ended = true;
    },
  };
  return made;
}

const frame = (n: number, message: object, stream = "s1") =>
  `id: ${stream}_${n}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`;

describe("createEventStream", () => {
  it("numbers its events <stream>_<n> from 1, one frame per message", () => {
    const stream = createEventStream("s1");
    const to = sink();
    stream.attach(to);
    stream.write({ a: 1 });
    stream.write({ b: "x\ny" });
    expect(to.chunks).toEqual([frame(1, { a: 1 }), frame(2, { b: "x\ny" })]);
  });

  it("a stream without an id writes events without ids, and keeps nothing", () => {
    const kept: unknown[] = [];
    const stream = createEventStream(undefined, undefined, (...args) => kept.push(args));
    const to = sink();
    stream.attach(to);
    stream.write({ a: 1 });
    expect([stream.id, to.chunks, kept]).toEqual([undefined, ['event: message\ndata: {"a":1}\n\n'], []]);
  });

  it("hands every frame to the event store as it is written, attached or not", () => {
    const kept: [number, string][] = [];
    const stream = createEventStream("s1", undefined, (seq, text) => kept.push([seq, text]));
    stream.write({ a: 1 });
    stream.attach(sink());
    stream.write({ a: 2 });
    expect(kept).toEqual([
      [1, frame(1, { a: 1 })],
      [2, frame(2, { a: 2 })],
    ]);
  });

  it("queues frames until a connection attaches, then writes them in order and later ones as they come", () => {
    const stream = createEventStream("s1");
    stream.write({ a: 1 });
    stream.write({ a: 2 });
    expect(stream.attached).toBe(false);
    const to = sink();
    stream.attach(to);
    expect(stream.attached).toBe(true);
    expect(to.chunks).toEqual([frame(1, { a: 1 }), frame(2, { a: 2 })]);
    stream.write({ a: 3 });
    expect(to.chunks).toEqual([frame(1, { a: 1 }), frame(2, { a: 2 }), frame(3, { a: 3 })]);
  });

  it("attach after a seq writes only the queued frames above it (the event store replayed the rest)", () => {
    const stream = createEventStream("s1");
    for (let a = 1; a <= 4; a++) stream.write({ a });
    const to = sink();
    stream.attach(to, 2);
    expect(to.chunks).toEqual([frame(3, { a: 3 }), frame(4, { a: 4 })]);
  });

  it("a detached connection's frames queue again and go to the next connection; onDetach is told", () => {
    let detached = 0;
    const stream = createEventStream("s1", () => detached++);
    const first = sink();
    stream.attach(first);
    stream.write({ a: 1 });
    stream.detach(first);
    expect([stream.attached, detached]).toEqual([false, 1]);
    stream.write({ a: 2 });
    expect(first.chunks).toEqual([frame(1, { a: 1 })]);
    const second = sink();
    stream.attach(second);
    expect(second.chunks).toEqual([frame(2, { a: 2 })]);
  });

  it("detach of a connection that is not the current one changes nothing", () => {
    let detached = 0;
    const stream = createEventStream("s1", () => detached++);
    const current = sink();
    stream.attach(current);
    stream.detach(sink());
    stream.write({ a: 1 });
    expect([stream.attached, detached, current.chunks]).toEqual([true, 0, [frame(1, { a: 1 })]]);
  });

  it("one stream, one connection: attaching another ends the previous one", () => {
    const stream = createEventStream("s1");
    const first = sink();
    const second = sink();
    stream.attach(first);
    stream.attach(second);
    stream.write({ a: 1 });
    expect([first.ended, first.chunks, second.ended, second.chunks]).toEqual([true, [], false, [frame(1, { a: 1 })]]);
  });

  it("end ends the connection, ignores later writes, and does not tell onDetach when it goes", () => {
    let detached = 0;
    const stream = createEventStream("s1", () => detached++);
    const to = sink();
    stream.attach(to);
    stream.end();
    stream.write({ a: 1 });
    stream.comment("ping");
    stream.end();
    stream.detach(to);
    expect([stream.ended, to.ended, to.chunks, detached]).toEqual([true, true, [], 0]);
  });

  it("a stream ended before any connection writes what it queued to the next one, then ends it", () => {
    const stream = createEventStream("s1");
    stream.write({ a: 1 });
    stream.end();
    const to = sink();
    stream.attach(to);
    expect([to.chunks, to.ended]).toEqual([[frame(1, { a: 1 })], true]);
  });

  it("comments go to an attached connection only and are neither queued, numbered nor kept", () => {
    const kept: number[] = [];
    const stream = createEventStream("s1", undefined, (seq) => kept.push(seq));
    stream.comment("nobody hears this");
    const to = sink();
    stream.attach(to);
    stream.comment("keep-alive");
    stream.write({ a: 1 });
    expect([to.chunks, kept]).toEqual([[": keep-alive\n\n", frame(1, { a: 1 })], [1]]);
  });
});

describe("parseEventId", () => {
  it("reads back every id the stream writes", () => {
    const stream = createEventStream("Ab-9");
    const to = sink();
    stream.attach(to);
    for (let a = 1; a <= 12; a++) stream.write({ a });
    const ids = to.chunks.map((chunk) => /^id: (.*)$/m.exec(chunk)![1]!);
    expect(ids.map(parseEventId)).toEqual(ids.map((_, i) => ({ stream: "Ab-9", seq: i + 1 })));
  });

  it.each([
    { given: "s1_0", want: { stream: "s1", seq: 0 } },
    { given: "a-b_999999999999999", want: { stream: "a-b", seq: 999_999_999_999_999 } },
    { given: "", want: undefined },
    { given: "s1", want: undefined },
    { given: "s1_", want: undefined },
    { given: "_1", want: undefined },
    { given: "s1_x", want: undefined },
    { given: "s1_-1", want: undefined },
    { given: "s1_1.5", want: undefined },
    { given: "s1_1e3", want: undefined },
    { given: "a_b_1", want: undefined },
    { given: "s1_1234567890123456", want: undefined },
    { given: " s1_1", want: undefined },
    { given: "s1_1 ", want: undefined },
    { given: "s1_1\n", want: undefined },
    { given: "../s1_1", want: undefined },
    { given: "é_1", want: undefined },
    { given: "__proto___1", want: undefined },
  ])("$given", ({ given, want }) => {
    expect(parseEventId(given)).toEqual(want);
  });
});
