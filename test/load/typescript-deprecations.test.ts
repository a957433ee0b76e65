import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readSourceDeprecations, readSourceProtocolVersion } from "../../generator/load/typescript-deprecations.ts";
import { normalise } from "../../generator/load/normalise.ts";
import { buildModel } from "../../generator/model/build.ts";
import { loadFacts } from "../../generator/model/facts.ts";
import { PACKAGE_FACTS } from "../../generator/project/project.ts";
import { sha256 } from "../support/tmp-project.ts";

const dir = mkdtempSync(join(tmpdir(), "mcp-bindgen-ts-deprecations-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A small schema.ts in the spec's style: JSDoc `@deprecated` on types, properties and reserved `_meta` keys. */
const SOURCE = `
/** @deprecated Use Modern instead. */
export interface Legacy { name: string }
export interface Capabilities {
  /** @deprecated Deprecated as of 2099-01-01. */
  roots?: {};
  tools?: {};
}
export interface RequestMetaObject {
  /** @deprecated */
  "io.example/logLevel"?: string;
  "io.example/trace"?: string;
}
/** Not deprecated, though the word deprecated appears in prose. */
export type Level = "a" | "b";
`;

function write(name: string, text: string): { file: string; hash: string } {
  const file = join(dir, name);
  writeFileSync(file, text);
  return { file, hash: sha256(text) };
}

describe("deprecations from the pinned schema.ts", () => {
  it("reads @deprecated on definitions, properties and reserved keys, and nothing from prose", () => {
    const { file, hash } = write("schema.ts", SOURCE);
    expect(readSourceDeprecations(file, hash)).toEqual([
      { kind: "definition", name: "Legacy" },
      { kind: "property", name: "Capabilities.roots" },
      { kind: "meta-key", name: "io.example/logLevel" },
    ]);
  });

  it("is absent when the file was not pulled, and refuses a copy that is not the pinned one", () => {
    expect(readSourceDeprecations(join(dir, "missing.ts"), "0".repeat(64))).toBeNull();
    const { file } = write("changed.ts", SOURCE);
    expect(() => readSourceDeprecations(file, "0".repeat(64))).toThrow(/changed\.ts.*sha256 0{64}/s);
  });

  it("lands in the model with the pin as its source, and deprecates the definition", () => {
    const doc = JSON.parse(readFileSync(new URL("../fixtures/diff/base.json", import.meta.url), "utf8")) as {
      definitions: Record<string, unknown>;
    };
    doc.definitions["Legacy"] = { type: "object", properties: { name: { type: "string" } } };
    const schema = normalise("base.json", doc, "0".repeat(64));
    const pin = "https://example.invalid/schema.ts";
    const model = buildModel("2099-01-01", schema, loadFacts(PACKAGE_FACTS), {
      deprecations: [{ kind: "definition", name: "Legacy" }],
      source: pin,
    });
    expect(model.definitions.get("Legacy")!.deprecated).toBe(true);
    expect(model.deprecations.filter((d) => d.source === pin)).toEqual([
      { kind: "definition", name: "Legacy", values: null, source: pin },
    ]);
  });
});

describe("a draft's protocol version from its schema.ts", () => {
  it.each([
    ['export const LATEST_PROTOCOL_VERSION = "DRAFT-2026-v1";\nexport const JSONRPC_VERSION = "2.0";', "DRAFT-2026-v1"],
    ["export const JSONRPC_VERSION = '2.0';\nexport const LATEST_PROTOCOL_VERSION = 'DRAFT-2027-v2';", "DRAFT-2027-v2"],
    ["/* LATEST_PROTOCOL_VERSION is not declared here */\nexport type Level = 'a';", null],
    ["export const LATEST_PROTOCOL_VERSION = VERSIONS[0];", null],
  ])("%s → %s", (text, want) => {
    expect(readSourceProtocolVersion(write("version.ts", text).file)).toBe(want);
  });

  it("is null without a schema.ts", () => {
    expect(readSourceProtocolVersion(join(dir, "missing.ts"))).toBeNull();
  });
});
