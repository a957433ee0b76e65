import { describe, expect, it } from "vitest";
import { abortController, abortReason, LazyAbort, onAbort, signalOf } from "../../../generator/runtime/core/abort.ts";

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

describe("onAbort and signalOf", () => {
  const lazy = () => {
    const handle = new LazyAbort();
    return { handle, source: handle };
  };
  const platform = () => {
    const handle = abortController();
    return { handle, source: handle.signal };
  };

  it.each([
    { name: "a LazyAbort, without making its signal", make: lazy },
    { name: "the platform's signal", make: platform },
  ])("onAbort on $name: once on abort, not after being cancelled, not for an abort that came already", ({ make }) => {
    const [kept, cancelled, late] = [make(), make(), make()];
    const heard: string[] = [];
    onAbort(kept.source, () => heard.push("kept"));
    const stop = onAbort(cancelled.source, () => heard.push("cancelled"));
    stop();
    late.handle.abort();
    onAbort(late.source, () => heard.push("late"));
    for (const { handle } of [kept, cancelled, late]) {
      handle.abort();
      handle.abort();
    }
    expect(heard).toEqual(["kept"]);
  });

  it("signalOf gives a LazyAbort's platform signal, and a platform signal as it is", () => {
    const { handle } = lazy();
    expect(signalOf(handle)).toBe(handle.signal);
    const { source } = platform();
    expect(signalOf(source)).toBe(source);
  });
});
