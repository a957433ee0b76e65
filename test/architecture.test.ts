import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { EXTRA_NAMES, EXTRAS, isExtraName } from "../generator/common/extras.ts";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../generator/common/package-root.ts";

/**
 * The generator's stages, lowest first: a module imports only from its own stage or one listed before it. A folder
 * of `generator/` is a stage, and so is each file at its root. docs/ARCHITECTURE.md (Pipeline) states this order.
 */
const STAGES = [
  "runtime",
  "common",
  "load",
  "model",
  "diff",
  "tools",
  "emit",
  "output",
  "project",
  "api.ts",
  "commands",
  "cli.ts",
  "index.ts",
] as const;

/**
 * The runtime's parts (its folders, copied into the output with the same layout), lowest first: the JSON-RPC core,
 * validation, then the three that build on them and never on each other. docs/ARCHITECTURE.md (The runtime) states it.
 */
const RUNTIME_PARTS: readonly (readonly string[])[] = [
  ["core"],
  ["validation"],
  ["tools", "server", "client"],
  EXTRA_NAMES,
];

const GENERATOR = join(PACKAGE_ROOT, "generator");
const RUNTIME = join(GENERATOR, "runtime");
const RUNTIME_TESTS = join(PACKAGE_ROOT, "test", "runtime");

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.isFile() && entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** A module's name relative to `generator/`, with "/" separators. */
const nameOf = (file: string): string => relative(GENERATOR, file).split(sep).join("/");

/** Every module's relative imports (static, `export … from`, type-only and dynamic), by name. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of tsFiles(GENERATOR)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => nameOf(resolve(dirname(file), specifier.replace(/\.js$/, ".ts"))));
    graph.set(nameOf(file), [...new Set(targets)]);
  }
  return graph;
}

/** The stage a module belongs to: its folder under `generator/`, or its own name at the root. */
const stageOf = (name: string): string => name.split("/")[0]!;

/** The strongly connected components with more than one module, or a module importing itself (Tarjan). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("the generator's import graph", () => {
  const graph = importGraph();

  it("every module belongs to a stage", () => {
    const known = new Set<string>(STAGES);
    expect([...graph.keys()].filter((name) => !known.has(stageOf(name)))).toEqual([]);
  });

  it("every relative import names a module of the generator", () => {
    const missing = [...graph].flatMap(([from, targets]) =>
      targets.filter((to) => !graph.has(to)).map((to) => `${from} → ${to}`),
    );
    expect(missing).toEqual([]);
  });

  it("imports go to the same stage or a lower one", () => {
    const rank = (name: string): number => STAGES.indexOf(stageOf(name) as (typeof STAGES)[number]);
    const upward = [...graph].flatMap(([from, targets]) =>
      targets.filter((to) => rank(to) > rank(from)).map((to) => `${from} (${stageOf(from)}) → ${to} (${stageOf(to)})`),
    );
    expect(upward).toEqual([]);
  });

  it("the runtime imports nothing outside its folder (no Node built-in), and no package but an optional part its own", () => {
    const outside = tsFiles(RUNTIME).flatMap((file) => {
      const part = relative(RUNTIME, file).split(sep)[0]!;
      const own = isExtraName(part) ? EXTRAS[part].package : undefined;
      return ts
        .preProcessFile(readFileSync(file, "utf8"), true, true)
        .importedFiles.map((imported) => imported.fileName)
        .filter((specifier) =>
          specifier.startsWith(".") ? !resolve(dirname(file), specifier).startsWith(RUNTIME + sep) : specifier !== own,
        )
        .map((specifier) => `${nameOf(file)} → ${specifier}`);
    });
    expect(outside).toEqual([]);
  });

  it("the runtime's parts import their own part or a lower one, tools, server and client never each other, and an optional part only the part it builds on", () => {
    const rank = (part: string): number => RUNTIME_PARTS.findIndex((level) => level.includes(part));
    const partOf = (name: string): string => name.split("/")[1]!;
    const crossing = [...graph]
      .filter(([from]) => stageOf(from) === "runtime")
      .flatMap(([from, targets]) =>
        targets
          .filter((to) => {
            const [a, b] = [partOf(from), partOf(to)];
            if (isExtraName(a) && rank(b) === 2) return b !== EXTRAS[a].over;
            return rank(a) < 0 || rank(b) > rank(a) || (rank(b) === rank(a) && a !== b);
          })
          .map((to) => `${from} → ${to}`),
      );
    expect(crossing).toEqual([]);
  });

  it("has no import circles", () => {
    expect(circles(graph).map((members) => members.join(" ⇄ "))).toEqual([]);
  });

  it("finds a circle in a made-up graph", () => {
    const broken = new Map([
      ["load/a.ts", ["model/b.ts"]],
      ["model/b.ts", ["model/c.ts"]],
      ["model/c.ts", ["load/a.ts"]],
      ["common/d.ts", []],
    ]);
    expect(circles(broken)).toEqual([["load/a.ts", "model/b.ts", "model/c.ts"]]);
  });

  it("docs/ARCHITECTURE.md states the same order", () => {
    const doc = readFileSync(join(PACKAGE_ROOT, "docs", "ARCHITECTURE.md"), "utf8").replace(/\s+/g, " ");
    expect(doc).toContain(STAGES.map((stage) => `\`${stage}\``).join(" < "));
  });
});

describe("runtime tests", () => {
  /** Each module as `<part>/<name>`, the path its test file mirrors under test/runtime/. */
  const modules = tsFiles(RUNTIME)
    .map((file) => relative(RUNTIME, file).split(sep).join("/").slice(0, -".ts".length))
    .sort();
  const tests = new Set(
    tsFiles(RUNTIME_TESTS)
      .map((file) => relative(RUNTIME_TESTS, file).split(sep).join("/"))
      .filter((name) => name.endsWith(".test.ts"))
      .map((name) => name.slice(0, -".test.ts".length)),
  );

  it("every runtime module is in a part, and has its test file at test/runtime/<part>/<name>.test.ts", () => {
    expect(modules.filter((module) => !module.includes("/"))).toEqual([]);
    expect(modules.filter((module) => !tests.has(module))).toEqual([]);
  });
});
