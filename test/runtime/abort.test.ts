import { describe, expect, it } from "vitest";
import { abortController, abortReason, LazyAbort } from "../../generator/runtime/abort.ts";

describe("abortController", () => {
  it("is the platform's controller: its signal aborts once, tells its listeners, and goes on to fetch", async () => {
    const handle = abortController();
    expect(handle.signal).toBeInstanceOf(AbortSignal);
    let heard = 0;
    handle.signal.addEventListener("abort", () => heard++, { once: true });
    expect(handle.signal.aborted).toBe(false);
    handle.abort();
    handle.abort();
    expect([handle.signal.aborted, heard]).toEqual([true, 1]);
    await expect(fetch("http://127.0.0.1:9", { signal: handle.signal })).rejects.toMatchObject({ name: "AbortError" });
  });

  it("each call is a new controller", () => {
    const [a, b] = [abortController(), abortController()];
    a.abort();
    expect([a.signal.aborted, b.signal.aborted]).toEqual([true, false]);
  });
});

describe("abortReason", () => {
  it.each([
    { name: "the reason given", signal: () => AbortSignal.abort("client went away"), want: "client went away" },
    { name: "an object reason, as is", signal: () => AbortSignal.abort({ code: 1 }), want: { code: 1 } },
    { name: "nothing before the abort", signal: () => new AbortController().signal, want: undefined },
  ])("$name", ({ signal, want }) => {
    expect(abortReason(signal())).toEqual(want);
  });

  it("the platform's AbortError when aborted without a reason", () => {
    const handle = abortController();
    handle.abort();
    expect(abortReason(handle.signal)).toMatchObject({ name: "AbortError" });
  });
});

describe("LazyAbort", () => {
  it("a signal read before the abort hears it; onAbort runs once, and aborted says so", () => {
    let calls = 0;
    const handle = new LazyAbort(() => calls++);
    const signal = handle.signal;
    let heard = 0;
    signal.addEventListener("abort", () => heard++);
    expect([handle.aborted, signal.aborted]).toEqual([false, false]);
    handle.abort();
    handle.abort();
    expect([handle.aborted, signal.aborted, heard, calls]).toEqual([true, true, 1, 1]);
    expect(handle.signal).toBe(signal);
  });

  it("a signal first read after the abort is the platform's, aborted, with its AbortError", () => {
    const handle = new LazyAbort();
    handle.abort();
    expect(handle.aborted).toBe(true);
    expect(handle.signal).toBeInstanceOf(AbortSignal);
    expect(handle.signal.aborted).toBe(true);
    expect(abortReason(handle.signal)).toMatchObject({ name: "AbortError" });
  });
});
