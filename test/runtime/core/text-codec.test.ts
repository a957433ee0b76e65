import { describe, expect, it } from "vitest";
import { concatBytes, utf8Decoder, utf8Encode } from "../../../generator/runtime/core/text-codec.ts";

const BOM = [0xef, 0xbb, 0xbf];
const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);

describe("utf8Encode", () => {
  it.each([
    ["ASCII", "abc", [0x61, 0x62, 0x63]],
    ["a two-byte character", "é", [0xc3, 0xa9]],
    ["a character outside the BMP", "😀", [0xf0, 0x9f, 0x98, 0x80]],
    ["a lone surrogate, as U+FFFD", "\ud800", [0xef, 0xbf, 0xbd]],
  ])("encodes %s as UTF-8", (_name, text, want) => {
    expect([...utf8Encode(text)]).toEqual(want);
  });
});

describe("utf8Decoder", () => {
  it("replaces malformed bytes with U+FFFD rather than throwing", () => {
    expect(utf8Decoder().decode(bytes(0x61, 0xff, 0x62))).toBe("a\ufffdb");
  });

  it("keeps a character split across chunks when streaming", () => {
    const decoder = utf8Decoder();
    const [a, b, c, d] = [...utf8Encode("😀")];
    expect(decoder.decode(bytes(a!, b!), { stream: true })).toBe("");
    expect(decoder.decode(bytes(c!, d!), { stream: true })).toBe("😀");
  });

  it("drops one leading byte order mark by default", () => {
    expect(utf8Decoder().decode(bytes(...BOM, 0x61))).toBe("a");
    expect(utf8Decoder().decode(bytes(...BOM, ...BOM, 0x61))).toBe("\ufeffa");
  });

  it("keeps the byte order mark with keepBom, for a parser that strips the one its standard allows", () => {
    expect(utf8Decoder(true).decode(bytes(...BOM, 0x61))).toBe("\ufeffa");
    expect(utf8Decoder(true).decode(bytes(...BOM, ...BOM, 0x61))).toBe("\ufeff\ufeffa");
  });
});

describe("concatBytes", () => {
  it("joins chunks in order into one array of the given size", () => {
    expect([...concatBytes([bytes(1, 2), bytes(), bytes(3)], 3)]).toEqual([1, 2, 3]);
  });

  it("hands back a single chunk as it is, without copying", () => {
    const only = bytes(7, 8);
    expect(concatBytes([only], 2)).toBe(only);
  });
});
