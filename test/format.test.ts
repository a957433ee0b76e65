import { readFileSync } from "node:fs";
import { join } from "node:path";
import { check, format } from "prettier";
import { Worker } from "node:worker_threads";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { loadModels, render } from "../generator/generate.ts";
import { formatFiles, PRETTIER_OPTIONS, startFormatter } from "../generator/format.ts";
import { normalise } from "../generator/load/normalise.ts";
import { buildModel } from "../generator/model/build.ts";
import { loadFacts } from "../generator/model/facts.ts";
import { PACKAGE_FACTS } from "../generator/project.ts";
import { checkout } from "./support/checkout.ts";
import { FIXTURES, REAL_SCHEMA_DIR } from "./support/tmp-project.ts";
import type { EmittedFile } from "../generator/emit/emitted.ts";
import { exportedConstAsFunctionType, printedMembers, printedStatements } from "../generator/emit/printed.ts";
import { sourceFilePrinter } from "../generator/emit/source-file.ts";
import { markPrettierStable } from "../generator/prettier-stable.ts";

/**
 * The generator formats with prettier's babel-ts parser for speed, and some statements are printed
 * by the emitters themselves without prettier (emit/printed.ts); the output must be exactly what
 * prettier's typescript parser prints, so "prettier-formatted" holds whichever one a user's
 * tooling runs. Every release, and synthetic schemas for what the releases do not reach.
 */
let files: EmittedFile[];

/** A schema with definitions added (names long enough to leave prettier's easy cases). */
function synthetic(version: string, file: string, extra: Record<string, unknown>) {
  const doc = JSON.parse(readFileSync(file, "utf8")) as { $defs?: object; definitions?: object };
  const key = doc.$defs ? "$defs" : "definitions";
  Object.assign(doc[key] ?? {}, JSON.parse(JSON.stringify(extra).replaceAll("#/$defs/", `#/${key}/`)));
  return buildModel(version, normalise(`${version}.json`, doc, "0".repeat(64)), loadFacts(PACKAGE_FACTS));
}

const LONG = "ADefinitionNameWhoseGuardBreaksInTwo";
const LONGER = "ADefinitionNameSoLongThatEvenTheFirstLineOfItsBrokenGuardIsWiderThanThePrintWidthOfTheOutput";

beforeAll(async () => {
  const env = process.env["MCP_SCHEMA_DIR"];
  const real = await loadModels(checkout.project.paths, { releases: checkout.releases, ...(env ? { env } : {}) });
  // What the releases do not reach, each near a rule of prettier-stable.ts or emit/printed.ts.
  const many = Array.from({ length: 14 }, (_, k) => `member-number-${k}`);
  const extra = {
    [LONG]: { type: "string" },
    [LONGER]: { type: "object", properties: { a: { type: "string" } } },
    X: { type: "number" },
    ManyMembers: { enum: many },
    FitsOnTheNextLine: { enum: many.slice(0, 7) },
    Mixed: { allOf: [{ $ref: "#/$defs/X" }, { anyOf: [{ type: "string" }, { type: "null" }] }] },
    Literals: { enum: ['say "hi"', "back\\slash", "it's", "日本語の値", 1.5, -3, 1e21, 0, true, null] },
    Keys: {
      type: "object",
      properties: { "a-b": { type: "string" }, "123": { type: "string" }, "1.5": { type: "string" }, valid_name: { type: "string" }, "x.y": { type: "number" } },
      required: ["a-b"],
    },
    Nested: {
      type: "object",
      description: "Trailing spaces here:   \nand a comment end */ inside.",
      properties: {
        one: {
          type: "object",
          description: "Level one.\n\nTwo paragraphs.",
          properties: { two: { type: "object", properties: { three: { type: "object", properties: { leaf: { type: "string", description: "leaf" } } } } } },
        },
        empty: { type: "object", properties: {} },
        open: { type: "object", additionalProperties: { type: "string" } },
        long: { anyOf: many.map((m) => ({ const: m })) },
        array: { type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } },
      },
    },
  };
  const legacy = join(FIXTURES, "legacy-minimal.json");
  // The smallest modern schema that renders is a release's: the minimal fixture lacks what the builders need.
  const modern = join(REAL_SCHEMA_DIR, "2026-07-28", "schema.json");
  const made = [synthetic("2031-02-01", modern, extra), synthetic("2031-01-01", legacy, extra), synthetic("2030-12-01", legacy, {})];
  files = [...(await render(real)), ...(await render(made)).map((f) => ({ ...f, path: `synthetic/${f.path}` }))];
}, 120_000);

describe("generated modules are prettier-formatted under the typescript parser", () => {
  it("renders every release and the synthetic schemas", () => {
    const folders = new Set(files.map((f) => f.path.split("/").slice(0, -1).join("/")));
    for (const v of checkout.releases) expect(folders).toContain(v);
    expect(folders).toContain("synthetic/2031-02-01");
    expect(folders).toContain("synthetic/2031-01-01");
    expect(files.find((f) => f.path === "synthetic/2031-02-01/validate.ts")?.content).toContain(`is${LONGER}`);
  });
  it("every module is unchanged by prettier --parser typescript", async () => {
    const unformatted: string[] = [];
    for (const f of files) if (!(await check(f.content, { ...PRETTIER_OPTIONS, parser: "typescript" }))) unformatted.push(f.path);
    expect(unformatted).toEqual([]);
  });
});

describe("statements the emitters print themselves", () => {
  it.each([
    { rule: "fits on one line", name: "isX", returns: "value is T.X", want: { exact: "export const isX = /* @__PURE__ */ guard(tables, 1) as (value: unknown) => value is T.X;" } },
    {
      rule: "too wide: the parameter on its own line",
      name: `is${LONG}`,
      returns: `value is T.${LONG}`,
      want: { exact: `export const is${LONG} = /* @__PURE__ */ guard(tables, 1) as (\n  value: unknown,\n) => value is T.${LONG};` },
    },
    {
      rule: "wider still: left to prettier",
      name: `is${LONGER}`,
      returns: `value is T.${LONGER}`,
      want: { source: `export const is${LONGER} = /* @__PURE__ */ guard(tables, 1) as (value: unknown) => value is T.${LONGER};` },
    },
  ])("exportedConstAsFunctionType: $rule", ({ name, returns, want }) => {
    expect(exportedConstAsFunctionType(name, "/* @__PURE__ */ guard(tables, 1)", "value: unknown", returns)).toEqual(want);
  });

  const wide = Array.from({ length: 9 }, (_, k) => `element-${k}`);
  it.each([
    { rule: "a member that fits stays on one line", given: { a: { b: [1, 2], c: null } }, want: ["  a: { b: [1, 2], c: null },"] },
    { rule: "keys are quoted only where needed", given: { ping: true, "tools/call": false }, want: ["  ping: true,", '  "tools/call": false,'] },
    {
      rule: "a member too wide is broken, its fitting members kept whole",
      given: { entry: { list: wide.slice(0, 6), flag: true } },
      want: [
        "  entry: {",
        `    list: [${wide
          .slice(0, 6)
          .map((w) => `"${w}"`)
          .join(", ")}],`,
        "    flag: true,",
        "  },",
      ],
    },
    { rule: "an array too wide has an element per line", given: { list: [...wide, ...wide] }, want: ["  list: [", ...[...wide, ...wide].map((w) => `    "${w}",`), "  ],"] },
    { rule: "a string with double quotes is single-quoted", given: { a: 'say "hi"' }, want: [`  a: 'say "hi"',`] },
    { rule: "a string needing escapes is left to prettier", given: { a: `"it's"` }, want: undefined },
    { rule: "a fraction is left to prettier", given: { a: 1.5 }, want: undefined },
    { rule: "a numeric key is left to prettier", given: { "1": "x" }, want: undefined },
  ])("printedMembers: $rule", ({ given, want }) => {
    expect(printedMembers(given, "  ")).toEqual(want);
  });

  it("pass through the formatter untouched, however prettier would have printed them; the rest is formatted", async () => {
    const content = [
      "import {a} from './a.js'",
      printedStatements([{ exact: "const   kept =1" }, { source: "const  formatted=2" }, { exact: "const  alsoKept= 3" }]),
      "let  z",
    ].join("\n");
    const [out] = await formatFiles([{ path: "m.ts", content }]);
    expect(out!.content).toBe('import { a } from "./a.js";\nconst   kept =1\nconst formatted = 2;\nconst  alsoKept= 3\nlet z;\n');
  });
});

describe("statements recognised as already in prettier's form (prettier-stable.ts)", () => {
  const name = (k: number) => `aSpecifierOrParameterNameOfThirtyChars${k}`;
  const fn = (body: string) => `function f(): void {\n${body}\n}`;
  it.each([
    { rule: "an import list that fits", given: 'import { a, type B } from "./m.js";', passes: true },
    { rule: "an import list too wide: a name per line", given: `import { ${name(1)}, ${name(2)}, type ${name(3)} } from "./m.js";`, passes: true },
    { rule: "a lone name too wide: not modelled", given: `import { ${name(1)}${name(2)}${name(3)} } from "./m.js";`, passes: false },
    { rule: "re-exports, renamed", given: 'export { a as b, c } from "./m.js";\nexport type { D };\nexport * from "./n.js";', passes: true },
    { rule: "a namespace import", given: 'import type * as T from "./types.js";', passes: true },
    { rule: "a generic alias with bounds and defaults", given: 'export type P<T extends string = "x", U = T> = Q<T, U, "a">;', passes: true },
    { rule: "parentheses prettier drops", given: "export type P<T> = (T)[];", passes: false },
    {
      rule: "a generic reference too wide: a type argument per line",
      given: `export type H<C = undefined> = HandlerTable<${name(1)}, ${name(2)}, Progress<${name(3)}>, "x" | "y", C>;`,
      passes: true,
    },
    { rule: "the same with the name too wide: not modelled", given: `export type ${name(1)}${name(2)}${name(3)}<C> = H<A, C>;`, passes: false },
    {
      rule: "an interface's method signature too wide: a parameter per line",
      given: `export interface R extends L {\n  request<M extends X>(${name(1)}: M, ${name(2)}: P<M>, options?: CallOptions): Promise<X>;\n  short(a: A): B;\n}`,
      passes: true,
    },
    { rule: "an indexed typeof, parenthesised as prettier does", given: "export type E = (typeof E)[keyof typeof E];", passes: true },
    {
      rule: "a union too wide whose string members hold brackets: a member per line",
      given: `export type U = ${[...Array.from({ length: 7 }, (_, k) => `"member-number-${k}"`), '"("', '"<"', '"x"', '">"', '")"'].join(" | ")};`,
      passes: true,
    },
    { rule: "a one-line const", given: 'export const V: A<B> = f(a, { b: 1, c: [1, "x"] });', passes: true },
    {
      rule: "a JSON string with more double quotes than single: single-quoted",
      given: `const TABLE = ${JSON.stringify(JSON.stringify({ a: "it's", b: "\\ \n \u0001" }))};`,
      passes: true,
    },
    {
      rule: "a JSON string too wide: on the line after =",
      given: `export const T: X = ${JSON.stringify(JSON.stringify({ [name(1)]: [name(2), name(3), "it's", "''"] }))};`,
      passes: true,
    },
    { rule: "a const with an object prettier respaces", given: "const V = {a: 1};", passes: false },
    { rule: "a function that fits", given: "export function f(a: string, b: number): void {\n  return g(a, b);\n}", passes: true },
    { rule: "a signature too wide: a parameter per line", given: `export function f(${name(1)}: string, ${name(2)}: number): void {\n  return g();\n}`, passes: true },
    { rule: "a rest parameter gets no trailing comma", given: `export function f(${name(1)}: string, ...${name(2)}: number[]): void;`, passes: true },
    {
      rule: "a lone object-typed parameter prettier hugs",
      given: `function f(x: { ${"abcdefgh"
        .split("")
        .map((c) => `${c}: string`)
        .join("; ")}; i: string }): void;`,
      passes: false,
    },
    {
      rule: "blocks, expanded objects, arrow callbacks, blank lines between statements",
      given: fn(
        "  const o = {\n    a: 1,\n    b: { c: 2 },\n    d: () => {\n      return 1;\n    },\n  };\n\n  foo(() => {\n    bar();\n  });\n  if (o.a) {\n    return 1;\n  } else if (o.b) {\n    return (o as B).c;\n  } else {\n    return a ? b : !!c;\n  }",
      ),
      passes: true,
    },
    { rule: "an array of objects opened on one line", given: fn("  const x = [{\n    a: 1,\n  }];"), passes: false },
    { rule: "try, catch, finally", given: fn("  try {\n    a();\n  } catch (e) {\n    b();\n  } finally {\n    c();\n  }"), passes: true },
    { rule: "a block on one line", given: fn("  const g = () => { return 1; };"), passes: false },
    { rule: "a call chain prettier may break", given: fn("  return a.b().c().d((x) => x);"), passes: false },
    { rule: "&& beside ||", given: fn("  return a && b || c;"), passes: false },
    { rule: "parentheses prettier drops", given: fn("  return (a);"), passes: false },
    { rule: "typeof with parentheses", given: fn("  return typeof (a);"), passes: false },
    { rule: "an arrow parameter without parentheses", given: fn("  return x => x;"), passes: false },
    { rule: "a quoted key prettier may unquote", given: fn('  return { "a": 1 };'), passes: false },
    { rule: "a trailing comma on one line", given: fn("  return [1, 2,];"), passes: false },
    { rule: "an expanded object without its trailing comma", given: fn("  const o = {\n    a: 1\n  };"), passes: false },
    { rule: "call arguments broken although they fit", given: fn("  call(\n    a,\n  );"), passes: false },
    { rule: "a statement over two lines", given: fn("  const x = a\n    .b();"), passes: false },
    { rule: "a blank line opening the body", given: fn("\n  a();"), passes: false },
    { rule: "two blank lines", given: fn("  a();\n\n\n  b();"), passes: false },
    { rule: "numbers prettier rewrites", given: fn("  return -1.50;"), passes: false },
    { rule: "declarators beside an initialised one", given: "const a = 1, b = 2;", passes: false },
    { rule: "declarators beside an initialised one, in a body", given: fn("  let a = 1, b: number = 2;"), passes: false },
    { rule: "declarators without initialisers", given: fn("  let a, b;"), passes: true },
    { rule: "an inline object type's last semicolon", given: "export function f(a: { b: string; }): void;", passes: false },
    { rule: "an else on the line after a block", given: fn("  if (a) {\n    b();\n  }\n  else {\n    c();\n  }"), passes: false },
    { rule: "an else after a statement on its line", given: fn("  if (a) b(); else c();"), passes: false },
    { rule: "a destructuring pattern", given: fn("  const { a = 1, b: [c] } = o;"), passes: false },
    { rule: "a keyword's operand in parentheses", given: fn("  return(a);"), passes: false },
    { rule: "new without arguments", given: fn("  return new Map;"), passes: false },
  ])("$rule", async ({ given, passes }) => {
    let marked: string | undefined;
    markPrettierStable(given, (text) => (marked = text));
    expect(marked !== undefined).toBe(passes);
    if (passes) expect(marked).toBe((await format(given, { ...PRETTIER_OPTIONS, parser: "typescript" })).trimEnd());
  });
});

describe("the formatting worker", () => {
  it("returns every file in the order given, runtime copies untouched", async () => {
    const out = await formatFiles([
      { path: "b.ts", content: "const  b = {a:1}" },
      { path: "runtime/x.ts", content: "const  kept = 1", verbatim: true },
      { path: "a.ts", content: "export type A='x'|'y'" },
    ]);
    expect(out).toEqual([
      { path: "b.ts", content: "const b = { a: 1 };\n" },
      { path: "runtime/x.ts", content: "const  kept = 1" },
      { path: "a.ts", content: 'export type A = "x" | "y";\n' },
    ]);
  });
  it("formats an input shared by several modules once, each module keeping its own printed statements", async () => {
    const module = (kept: string) => printedStatements([{ exact: kept }, { source: "const  shared=2" }]);
    // What reaches the worker: one message per input prettier formats.
    const sent = vi.spyOn(Worker.prototype, "postMessage");
    const formatter = startFormatter();
    try {
      formatter.add({ path: "a.ts", content: module("const   a =1") });
      formatter.add({ path: "b.ts", content: module("const   b =1") });
      await formatter.finish();
      // Added after the shared input came back: printed from that output at once.
      formatter.add({ path: "c.ts", content: module("const   c =1") });
      expect(await formatter.finish()).toEqual(["a", "b", "c"].map((name) => ({ path: `${name}.ts`, content: `const   ${name} =1\nconst shared = 2;\n` })));
      expect(sent).toHaveBeenCalledTimes(1);
    } finally {
      sent.mockRestore();
      formatter.close();
    }
  });
  it("a module prettier cannot parse is an error naming it", async () => {
    await expect(
      formatFiles([
        { path: "ok.ts", content: "const a = 1;" },
        { path: "2026-07-28/broken.ts", content: "export const = ;" },
      ]),
    ).rejects.toThrow(/^prettier could not format 2026-07-28\/broken\.ts: /);
  });
});

describe("emission", () => {
  it("reaches ts-morph's structure printer, so modules are printed without being parsed (an upgrade of ts-morph that moves it fails here)", () => {
    expect(typeof sourceFilePrinter()?.printText).toBe("function");
  });
});
