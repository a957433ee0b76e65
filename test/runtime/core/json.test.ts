import { describe, expect, it } from "vitest";
import {
  deepFreeze,
  describeValue,
  escapeToken,
  isObject,
  own,
  setOwn,
  type ReadonlyInput,
} from "../../../generator/runtime/core/json.ts";

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

describe("reading input", () => {
  it("own sees own keys only: an inherited member of Object.prototype is no key of the input", () => {
    const parsed = JSON.parse('{"a":1,"__proto__":2}') as object;
    expect([own(parsed, "a"), own(parsed, "__proto__"), own(parsed, "toString"), own({}, "constructor")]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(own(Object.create(null) as object, "a")).toBe(false);
  });

  it.each([
    { given: {}, want: true },
    { given: Object.create(null), want: true },
    { given: [], want: false },
    { given: null, want: false },
    { given: "{}", want: false },
    { given: undefined, want: false },
  ])("isObject($given) is $want", ({ given, want }) => {
    expect(isObject(given)).toBe(want);
  });

  it.each([
    { key: "plain", want: "plain" },
    { key: "a/b", want: "a~1b" },
    { key: "m~n", want: "m~0n" },
    { key: "~1", want: "~01" },
    { key: "/~", want: "~1~0" },
    { key: "", want: "" },
  ])("escapeToken($key) is $want (RFC 6901)", ({ key, want }) => {
    expect(escapeToken(key)).toBe(want);
  });

  it("a secret value is never shown whole", () => {
    const token = "sk-" + "x".repeat(60);
    expect(describeValue(token)).not.toContain(token);
    expect(describeValue({ token })).toBe("object");
  });

  it("ReadonlyInput lets as-const data through where the mutable type is asked", () => {
    const take = (value: ReadonlyInput<{ tags: string[]; nested: { n: number }[] }>) => value.tags.length;
    expect(take({ tags: ["a", "b"], nested: [{ n: 1 }] } as const)).toBe(2);
  });

  it("ReadonlyInput keeps unknown members unknown, so null and nested data still fit them", () => {
    const take = (value: ReadonlyInput<{ data: { [key: string]: unknown }; tuple: [string, number] }>) =>
      value.tuple[0];
    expect(take({ data: { none: null, list: [1] }, tuple: ["a", 1] } as const)).toBe("a");
  });
});
