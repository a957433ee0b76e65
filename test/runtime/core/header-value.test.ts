import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeHeaderValue,
  encodeHeaderValue,
  isPlainHeaderValue,
  type SentinelForm,
} from "../../../generator/runtime/core/header-value.ts";

// The 2026-07-28 markers (basic/transports/streamable-http, "Value Encoding").
const S: SentinelForm = { prefix: "=?base64?", suffix: "?=" };

describe("header value encoding: the spec page's table", () => {
  // basic/transports/streamable-http, "Value Encoding", encoding examples.
  it.each([
    ["us-west1", "us-west1"],
    ["Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    [" padded ", "=?base64?IHBhZGRlZCA=?="],
    ["line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
    ["=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
  ])("%j → %s, and back", (value, encoded) => {
    expect(encodeHeaderValue(value, S)).toBe(encoded);
    expect(decodeHeaderValue(encoded, S)).toBe(value);
  });

  it("control characters, tabs and the empty string are encoded", () => {
    for (const value of ["a\tb", "\x7f", "a\rb", ""])
      expect(encodeHeaderValue(value, S).startsWith("=?base64?")).toBe(true);
  });

  it("received values with invalid characters or a broken encoding are rejected", () => {
    for (const raw of [
      "a\nb",
      "é",
      " x",
      "=?base64?!!!?=",
      "=?base64?SGk?=",
      "=?base64?SGk=x?=",
      "=?base64?SGl=?=", // "Hi" with non-zero pad bits: not the canonical form
      "=?base64?SG k=?=",
      "=?base64?/w==?=",
      "=?base64?7aCA?=",
    ])
      expect(decodeHeaderValue(raw, S), raw).toBeUndefined();
  });

  it("every string survives encode then decode, and encoded values are plain ASCII", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (value) => {
        const encoded = encodeHeaderValue(value, S);
        expect(encoded).toMatch(/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/);
        // A lone surrogate has no UTF-8 form and comes back as U+FFFD, as TextEncoder writes it.
        expect(decodeHeaderValue(encoded, S)).toBe(new TextDecoder().decode(new TextEncoder().encode(value)));
      }),
    );
  });
});

describe("another release's markers", () => {
  const form: SentinelForm = { prefix: "<b64:", suffix: ">" };
  it("encode and decode use the markers given, not the 2026-07-28 ones", () => {
    expect(encodeHeaderValue("é", form)).toBe("<b64:w6k=>");
    expect(decodeHeaderValue("<b64:w6k=>", form)).toBe("é");
    expect(encodeHeaderValue("=?base64?w6k=?=", form)).toBe("=?base64?w6k=?=");
    expect(decodeHeaderValue("=?base64?w6k=?=", form)).toBe("=?base64?w6k=?=");
  });
});

describe("isPlainHeaderValue: the headers that have no sentinel form", () => {
  it.each([
    { value: "2026-07-28", want: true },
    { value: "a b", want: true },
    { value: "=?base64?SGk=?=", want: true },
    { value: "", want: false },
    { value: " leading", want: false },
    { value: "trailing ", want: false },
    { value: "a\tb", want: false },
    { value: "line\nbreak", want: false },
    { value: "é", want: false },
  ])("$value → $want", ({ value, want }) => {
    expect(isPlainHeaderValue(value)).toBe(want);
  });
});
