import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { docText, repairLinks } from "../../generator/emit/doc-comments.ts";
import { PACKAGE_ROOT } from "../../generator/project/project.ts";
import { readExamples, writeExampleFile, type ExampleFile } from "../support/example-file.ts";
import { REAL_SCHEMA_DIR } from "../support/tmp-project.ts";
import { formatDiagnostics, typecheck, type Diagnostic } from "../support/typecheck.ts";
import { GENERATED_DIR } from "../support/test-tree.ts";

const VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];
const CLOSED_FIXTURE = join(PACKAGE_ROOT, "test", "fixtures", "types", "closed-2026-07-28.ts");

/** Definition names straight from the schema file, independent of the generator's loader. */
function schemaDefinitionNames(version: string): string[] {
  const raw = JSON.parse(readFileSync(join(REAL_SCHEMA_DIR, version, "schema.json"), "utf8")) as {
    definitions?: Record<string, unknown>;
    $defs?: Record<string, unknown>;
  };
  return Object.keys(raw.$defs ?? raw.definitions ?? {});
}

/** Every exported declaration name of a generated module, duplicates kept. */
function exportedNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022);
  const names: string[] = [];
  for (const statement of source.statements) {
    const exported =
      ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) continue;
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) names.push(statement.name.text);
    else names.push(`<${ts.SyntaxKind[statement.kind]}>`);
  }
  return names;
}

describe("generated/<version>/types.ts exports", () => {
  it.each(VERSIONS)("%s: exactly one type per schema definition, named as in the schema", (version) => {
    const expected = schemaDefinitionNames(version).sort();
    const exported = exportedNames(join(GENERATED_DIR, version, "types.ts"));
    expect(expected.length).toBeGreaterThan(70);
    expect([...exported].sort()).toEqual(expected);
    for (const name of exported) if (/\d$/.test(name)) expect(expected).toContain(name);
  });
});

describe("JSDoc in generated/2026-07-28/types.ts", () => {
  it("every {@link} names a definition, a member of one, or a definition with a label", () => {
    const names = new Set(schemaDefinitionNames("2026-07-28"));
    const text = readFileSync(join(GENERATED_DIR, "2026-07-28", "types.ts"), "utf8");
    const links = [...text.matchAll(/\{@link ([^}]*)\}/g)].map((m) => m[1]!);
    expect(links).toContain("CallToolRequest | tools/call");
    expect(links).toContain("MetaObject | `_meta` key naming rules");
    const broken = links.filter((l) => !names.has(l.split(/ \| |\./)[0]!));
    expect(broken).toEqual([]);
  });
});

describe("official 2026-07-28 examples against the generated types", () => {
  let examples: ExampleFile;
  let byExample: Map<string, Diagnostic[]>;
  let closedDiagnostics: Diagnostic[];

  beforeAll(() => {
    const all = readExamples(join(REAL_SCHEMA_DIR, "2026-07-28", "examples"));
    expect(all).toHaveLength(129);
    examples = writeExampleFile(
      join(PACKAGE_ROOT, "test", ".tmp", "types", "examples.ts"),
      join(GENERATED_DIR, "2026-07-28", "types.ts"),
      all,
    );
    // One program for the example file and the closed-interface fixture.
    const diagnostics = typecheck([examples.path, CLOSED_FIXTURE]);
    closedDiagnostics = diagnostics.filter((d) => d.file === CLOSED_FIXTURE);
    byExample = new Map();
    for (const d of diagnostics.filter((d) => d.file !== CLOSED_FIXTURE)) {
      const id = examples.exampleAt(d.line)?.id ?? `<outside any example: ${d.file}:${d.line}>`;
      byExample.set(id, [...(byExample.get(id) ?? []), d]);
    }
  });

  it('all but the two documented misfits type-check (docs/ARCHITECTURE.md, "Known misfits")', () => {
    const failing = [...byExample.keys()].sort();
    expect(failing, formatDiagnostics([...byExample.values()].flat())).toEqual([
      "ListRootsRequest/list-roots-request.json",
      "ReadResourceResultResponse/read-resource-result-response.json",
    ]);
  });

  it("ListRootsRequest fails on the `id` the embedded definition does not declare", () => {
    const [only, ...rest] = byExample.get("ListRootsRequest/list-roots-request.json") ?? [];
    expect(rest).toEqual([]);
    expect(only?.code).toBe(2353); // Object literal may only specify known properties
    expect(only?.message).toMatch(/'"?id"?' does not exist in type 'ListRootsRequest'/);
  });

  it("ReadResourceResultResponse fails on the missing ttlMs and cacheScope", () => {
    const messages = (byExample.get("ReadResourceResultResponse/read-resource-result-response.json") ?? [])
      .map((d) => d.message)
      .join("\n");
    expect(messages).toMatch(/missing the following properties from type 'ReadResourceResult': cacheScope, ttlMs/);
  });

  it("interfaces are closed unless the schema has additionalProperties", () => {
    expect(formatDiagnostics(closedDiagnostics)).toBe("");
  });
});

describe("repairLinks", () => {
  const names = new Set(["CallToolRequest", "CallToolResult", "CallToolResultResponse", "MetaObject", "Tool"]);

  it("splits a glued target and label at the longest definition name", () => {
    expect(repairLinks("for a {@link CallToolRequesttools/call} request", names)).toBe(
      "for a {@link CallToolRequest | tools/call} request",
    );
    expect(repairLinks("{@link CallToolResultResponseok}", names)).toBe("{@link CallToolResultResponse | ok}");
    expect(repairLinks("the {@link MetaObject`_meta` key naming rules}", names)).toBe(
      "the {@link MetaObject | `_meta` key naming rules}",
    );
  });

  it("leaves correct, member and unknown links alone", () => {
    for (const text of [
      "{@link MetaObject}",
      "{@link Tool.outputSchema}",
      "{@link Tool | a tool}",
      "{@link Tool the tool}",
      "{@link Nowhere/else}",
    ]) {
      expect(repairLinks(text, names)).toBe(text);
    }
  });

  it("escapes a comment terminator inside a description", () => {
    expect(docText("a */ b", names)).toBe("a *\\/ b");
  });

  it("escapes a block tag at a line's start, and leaves an inline @ and {@link} alone", () => {
    expect(docText("mail a@b.c\n@deprecated no\n  @param x", names)).toBe("mail a@b.c\n\\@deprecated no\n  \\@param x");
    expect(docText("{@link Tool}", names)).toBe("{@link Tool}");
  });

  it("repairs every link of a description", () => {
    expect(repairLinks("{@link Toolx} and {@link CallToolRequesty}", names)).toBe(
      "{@link Tool | x} and {@link CallToolRequest | y}",
    );
  });
});
