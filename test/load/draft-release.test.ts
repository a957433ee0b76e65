import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BindgenError, UsageError } from "../../generator/common/failures.ts";
import { render } from "../../generator/output/generate-output.ts";
import { pull } from "../../generator/load/pull.ts";
import { buildModel } from "../../generator/model/build.ts";
import { appliesTo, loadFacts, type VersionSelector } from "../../generator/model/facts.ts";
import type { SchemaNode } from "../../generator/load/schema-node.ts";
import { PACKAGE_FACTS } from "../../generator/project/project.ts";
import { realModel } from "../support/real-models.ts";
import { REAL_SCHEMA_DIR, runMain, sha256, tmpProject, type TmpProject } from "../support/tmp-project.ts";

/**
 * A release the package does not know yet (the spec's draft, a newer date) inherits every fact that still holds:
 * facts name the release they start from, not a list. The spec's draft at HEAD is byte-identical to 2026-07-28.
 */
const LATEST = "2026-07-28";
const facts = loadFacts(PACKAGE_FACTS);
const latest = () => realModel(LATEST);

describe("which releases a fact holds for", () => {
  const rows: [VersionSelector, string, "legacy" | "modern", boolean][] = [
    ["*", "2024-11-05", "legacy", true],
    ["modern", "2025-11-25", "legacy", false],
    [{ from: "2026-07-28" }, "2026-07-28", "modern", true],
    [{ from: "2026-07-28" }, "2025-11-25", "legacy", false],
    [{ from: "2026-07-28" }, "2027-01-01", "modern", true],
    [{ from: "2026-07-28" }, "draft", "modern", true],
    [{ from: "2025-11-25", to: "2025-11-25" }, "2025-11-25", "legacy", true],
    [{ from: "2025-11-25", to: "2025-11-25" }, "2026-07-28", "modern", false],
    [{ from: "2025-11-25", to: "2025-11-25" }, "draft", "modern", false],
    // A schema read from a file under a name that is no release has no place in the order.
    [{ from: "2025-06-18" }, "next", "modern", false],
  ];
  it.each(rows)("%j holds for %s (%s): %s", (selector, version, era, want) => {
    expect(appliesTo(selector, version, era)).toBe(want);
  });

  it.each([
    [["2026-07-28"], "/deprecations/0/versions", "a list of releases would leave out every later one"],
    [{ from: "2026-07-28", to: "2025-11-25" }, "/deprecations/0/versions/to", 'no earlier than "from"'],
    [{ from: "next" }, "/deprecations/0/versions/from", 'YYYY-MM-DD or "draft"'],
    [{ since: "2026-07-28" }, "/deprecations/0/versions/since", '{ "from": "<release>"'],
  ])("refuses versions %j, naming %s", (versions, pointer, expected) => {
    const project = tmpProject("mcp-bindgen-facts-");
    try {
      const doc = JSON.parse(readFileSync(PACKAGE_FACTS, "utf8")) as { deprecations: { versions: unknown }[] };
      doc.deprecations[0]!.versions = versions;
      writeFileSync(project.paths.factsFile, JSON.stringify(doc));
      const error = (() => {
        try {
          loadFacts(project.paths.factsFile);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(BindgenError);
      expect((error as BindgenError).pointer).toBe(pointer);
      expect((error as Error).message).toContain(expected);
    } finally {
      project.cleanup();
    }
  });
});

describe("a release after 2026-07-28 with the same schema", () => {
  it.each(["draft", "2027-01-01"])(
    "%s keeps every deprecation, the JSONValue correction and the schema page",
    (name) => {
      const next = buildModel(name, latest().schema, facts);
      const strip = (m: typeof next) => m.deprecations.map((d) => ({ ...d }));
      expect(next.deprecations.length).toBeGreaterThan(20);
      expect(strip(next)).toEqual(strip(latest()));
      expect(next.definitions.get("JSONValue")!.schema).toEqual(latest().definitions.get("JSONValue")!.schema);
      expect(JSON.stringify(next.definitions.get("JSONValue")!.schema)).toContain('"null"');
      expect(next.schemaPage).toBe(`https://modelcontextprotocol.io/specification/${name}/schema`);
      expect(next.errorCodes.map((e) => e.code)).toEqual(latest().errorCodes.map((e) => e.code));
    },
  );

  it("keeps its own JSONValue once upstream fixed the slip: a correction applies while the slipped types are there", () => {
    const fixed = structuredClone(latest().schema.definitions.get("JSONValue")!) as SchemaNode & {
      anyOf: SchemaNode[];
    };
    fixed.anyOf[2] = { ...fixed.anyOf[2]!, type: ["string"] };
    const schema = { ...latest().schema, definitions: new Map([...latest().schema.definitions, ["JSONValue", fixed]]) };
    expect(buildModel("draft", schema, facts).definitions.get("JSONValue")!.schema).toEqual(fixed);
  });

  it("drops a carried deprecation whose subject the release no longer has", () => {
    const definitions = new Map(latest().schema.definitions);
    definitions.delete("ToolUseContent");
    const next = buildModel("draft", { ...latest().schema, definitions }, facts);
    expect(next.deprecations.map((d) => d.name)).not.toContain("ToolUseContent");
    expect(next.deprecations.map((d) => d.name)).toContain("ToolResultContent");
  });

  it("generates bindings equal to 2026-07-28's apart from the version strings", async () => {
    const files = async (name: string) =>
      render([name === LATEST ? latest() : buildModel(name, latest().schema, facts)]);
    // Citations of 2026-07-28's spec pages stay what they are in either.
    const cited = (t: string) =>
      t.replaceAll(`specification/${LATEST}/`, "specification/§/").replaceAll(`from ${LATEST} on`, "from § on");
    // Either name becomes one placeholder (the schema's prose says "draft" too); prettier wraps the root's VERSIONS list
    // by its length, so whitespace and trailing commas are not compared.
    const bare = (t: string) =>
      [LATEST, LATEST.replaceAll("-", "_"), "draft"]
        .reduce((text, name) => text.replaceAll(name, "@"), cited(t))
        .replace(/\s+/g, "")
        .replace(/,([\])}])/g, "$1");
    const [draft, released] = [await files("draft"), await files(LATEST)];
    expect(draft.map((f) => f.path.replace("draft", "@"))).toEqual(released.map((f) => f.path.replace(LATEST, "@")));
    for (const [i, file] of draft.entries()) {
      expect(cited(file.content), `${file.path} names 2026-07-28 as its own`).not.toContain(LATEST);
      expect(bare(file.content), file.path).toBe(bare(released[i]!.content));
    }
  }, 120_000);
});

describe("pull --draft", () => {
  let project: TmpProject;
  let spec: string;
  const cli = (...args: string[]) => runMain(args, project.root);
  const schema = () => readFileSync(join(REAL_SCHEMA_DIR, LATEST, "schema.json"));
  const TS =
    'export const LATEST_PROTOCOL_VERSION = "DRAFT-2026-v1";\nexport type JSONValue = string | number | boolean | null;\n';
  beforeAll(() => {
    project = tmpProject("mcp-bindgen-draft-");
    project.putSchema(LATEST, schema(), false);
    // A checkout of the spec repository's schema/ folder: the draft lives in draft/, beside the releases.
    spec = join(project.root, "spec");
    mkdirSync(join(spec, "draft"), { recursive: true });
    writeFileSync(join(spec, "draft", "schema.json"), schema());
    writeFileSync(join(spec, "draft", "schema.ts"), TS);
  });
  afterAll(() => project.cleanup());

  it("records the draft pinned at a commit, with the schema.ts beside it", async () => {
    const r = await cli("pull", "--draft", "--commit", "2eaf7ca7", "--from", spec);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const raw = "https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/2eaf7ca7/schema/draft";
    expect(project.readLock()["draft"]).toEqual({
      url: `${raw}/schema.json`,
      sha256: sha256(schema()),
      typescript: { url: `${raw}/schema.ts`, sha256: sha256(TS) },
    });
    expect(readFileSync(join(project.paths.cacheDir, "draft", "schema.ts"), "utf8")).toBe(TS);
  });

  it("speaks the protocol version its schema.ts declares, and the draft's name without one", async () => {
    const protocolVersion = (root: string) =>
      /export const PROTOCOL_VERSION = "([^"]+)"/.exec(readFileSync(join(root, "draft", "index.ts"), "utf8"))?.[1];
    const out = join(project.root, "generated-draft");
    expect((await cli("generate", "--release", "draft", "--out", out)).code).toBe(0);
    expect(protocolVersion(out)).toBe("DRAFT-2026-v1");
    expect(readFileSync(join(out, "draft", "envelope.ts"), "utf8")).toContain('const VERSION = "DRAFT-2026-v1";');
    expect(buildModel("draft", latest().schema, facts).protocolVersion).toBe("draft");
  }, 120_000);

  it("diff of 2026-07-28 and the identical draft reports nothing and passes --fail-on any", async () => {
    const r = await cli("diff", LATEST, "draft", "--fail-on", "any", "--format", "json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      changes: [],
      new: { version: "draft", typescript: expect.stringMatching(/schema\.ts$/) },
    });
  });

  it("--release draft does the same before the lock knows a draft, from a folder recorded relative to the lock", async () => {
    const other = tmpProject("mcp-bindgen-draft-release-");
    try {
      mkdirSync(join(other.root, "spec", "draft"), { recursive: true });
      writeFileSync(join(other.root, "spec", "draft", "schema.json"), schema());
      const r = await runMain(["pull", "--release", "draft", "--from", join(other.root, "spec")], other.root);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("no schema.ts beside");
      expect(other.readLock()["draft"]).toEqual({ url: "spec/draft/schema.json", sha256: sha256(schema()) });
    } finally {
      other.cleanup();
    }
  });

  it.each([
    [{ commit: "not-a-sha" }, "--commit: expected a commit"],
    [{}, "pull --draft needs --commit <sha>"],
  ])("refuses %j with a usage error", async (draft, message) => {
    const error = await pull({ ...project.paths, versions: [], draft, env: "" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain(message);
  });
});
