import { describe, expect, it } from "vitest";
import { deepFreeze, describeValue, setOwn } from "../../generator/runtime/json.ts";

describe("json helpers", () => {
  it("deepFreeze freezes every nested object and array and returns its argument", () => {
    const value = { a: [{ b: 1 }], c: { d: "x" } };
    expect(deepFreeze(value)).toBe(value);
    expect([value, value.a, value.a[0], value.c].every((v) => Object.isFrozen(v))).toBe(true);
    expect(deepFreeze(3)).toBe(3);
  });

  it("setOwn keeps __proto__ a key", () => {
    const o: { [key: string]: number } = {};
    setOwn(o, "__proto__", 1);
    expect(Object.keys(o)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
  });

  it.each([
    { given: undefined, want: "missing" },
    { given: "x".repeat(50), want: JSON.stringify("x".repeat(40) + "…") },
    { given: [1, 2], want: "array(2)" },
    { given: null, want: "null" },
    { given: {}, want: "object" },
    { given: 1.5, want: "1.5" },
  ])("describeValue($given) is $want", ({ given, want }) => {
    expect(describeValue(given)).toBe(want);
  });
});
