import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffModels, type Side } from "../../generator/diff/index.ts";
import { definitionProducers } from "../../generator/diff/roles.ts";
import { render } from "../../generator/output/generate-output.ts";
import type { ProtocolModel } from "../../generator/model/protocol-model.ts";
import { checkoutModels } from "../support/checkout.ts";
import { GENERATED_DIR } from "../support/test-tree.ts";
import { typecheck } from "../support/typecheck.ts";

/**
 * Every breaking claim the diff makes about a definition, checked by the compiler on the generated types. A side that
 * writes the definition is broken only if an old value no longer fits the new type; a side that reads it, only if a
 * new value no longer fits the old type. A claim whose relevant assignments all compile is refuted.
 */
const dir = mkdtempSync(join(tmpdir(), "mcp-bindgen-claims-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let models: ProtocolModel[];
beforeAll(async () => {
  models = (await checkoutModels()).reverse();
  for (const file of await render(models, {}, (path) => path.endsWith("/types.ts"))) {
    mkdirSync(join(dir, file.path, ".."), { recursive: true });
    writeFileSync(join(dir, file.path), file.content);
  }
}, 300_000);

const alias = (version: string) => `V${version.replaceAll("-", "_")}`;
/** The type at `path` (`a.b[]`, `{}` for an index signature) of a definition, through optional parents. */
const at = (version: string, subject: string, path: string) =>
  (path === "" ? [] : path.split(/\.|(?=\[\])|(?=\{\})/)).reduce(
    (t, part) => `NonNullable<${t}>[${part === "[]" ? "number" : part === "{}" ? "string" : JSON.stringify(part)}]`,
    `${alias(version)}.${subject}`,
  );

describe("breaking claims, checked by the compiler", () => {
  it("over the four adjacent release pairs, none is refuted", () => {
    const imports = models.map((m) => `import type * as ${alias(m.version)} from "./${m.version}/types.ts";`);
    // A check counts only where its types resolve: `guard` names both types alone, and must compile.
    const claims: { text: string; checks: { code: string; guard?: string }[] }[] = [];
    for (const [i, older] of models.slice(0, -1).entries()) {
      const newer = models[i + 1]!;
      const report = diffModels(older, newer);
      const renamedFrom = new Map(
        report.changes
          .flatMap((c) => c.locations)
          .flatMap((l) => (l.id === "definition-renamed" ? [[l.after!, l.before!] as const] : [])),
      );
      const [oldWriters, newWriters] = [definitionProducers(older), definitionProducers(newer)];
      for (const l of report.changes.flatMap((c) => c.locations)) {
        const oldName = renamedFrom.get(l.subject) ?? l.subject;
        // A name renamed away and reused holds two unrelated definitions: nothing to compare.
        const reused = oldName === l.subject && [...renamedFrom.values()].includes(l.subject);
        if (
          l.subjectKind !== "definition" ||
          reused ||
          !older.definitions.has(oldName) ||
          !newer.definitions.has(l.subject)
        )
          continue;
        const writers = new Set<Side>([...(oldWriters.get(oldName) ?? []), ...(newWriters.get(l.subject) ?? [])]);
        const [before, after] = [`${alias(older.version)}.${oldName}`, `${alias(newer.version)}.${l.subject}`];
        // The value at the changed place as well as the whole: TypeScript lets an index signature stand in for a
        // missing optional property, so only reading the place itself shows a key that turned `unknown`.
        const places: [string, string, boolean][] = [
          [before, after, false],
          ...(l.path === ""
            ? []
            : [
                [at(older.version, oldName, l.path), at(newer.version, l.subject, l.path), true] as [
                  string,
                  string,
                  boolean,
                ],
              ]),
        ];
        for (const side of ["client", "server"] as const) {
          if (l.severity[side] !== "breaking") continue;
          const reads = writers.size === 0 || writers.has(side === "client" ? "server" : "client");
          const checks = places.flatMap(([old, now, guarded]) =>
            [
              ...(writers.size === 0 || writers.has(side) ? [`(x: ${old}): ${now} => x`] : []),
              ...(reads ? [`(x: ${now}): ${old} => x`] : []),
            ].map((code) => (guarded ? { code, guard: `[${old}, ${now}]` } : { code })),
          );
          claims.push({
            text: `${older.version} → ${newer.version} ${side} ${l.id} ${l.subject}${l.path === "" ? "" : "." + l.path}`,
            checks,
          });
        }
      }
    }
    const lines = [...imports];
    const lineOf = claims.map((c) =>
      c.checks.map((check) => ({
        line: lines.push(`export const c${lines.length} = ${check.code};`),
        guard: check.guard === undefined ? undefined : lines.push(`export type t${lines.length} = ${check.guard};`),
      })),
    );
    writeFileSync(join(dir, "claims.ts"), lines.join("\n") + "\n");
    const failing = new Set(
      typecheck([join(dir, "claims.ts")])
        .filter((d) => d.file.endsWith("claims.ts"))
        .map((d) => d.line),
    );
    const confirms = ({ line, guard }: { line: number; guard: number | undefined }) =>
      failing.has(line) && (guard === undefined || !failing.has(guard));
    const refuted = claims.filter((_, i) => !lineOf[i]!.some(confirms)).map((c) => c.text);
    expect(claims.length).toBeGreaterThan(80);
    expect([...new Set(refuted)]).toEqual([]);
  });

  it("reserved _meta keys: every breaking claim fails to compile, and a key no longer reserved still compiles for code that writes or reads it", () => {
    const lines = [
      ...models.map((m) => `import type * as ${alias(m.version)} from "./${m.version}/types.ts";`),
      // The key as a `_meta` of the scope declares it (required or not), or as an open key where none does.
      "type Declared<M> = { [P in keyof M as string extends P ? never : P]: M[P] };",
      "type Slice<M, K extends string> = K extends keyof Declared<M> ? Pick<Declared<M>, K> : { [P in K]?: unknown };",
      "type MetaOf<T> = T extends { _meta?: infer M } ? NonNullable<M> : { [key: string]: unknown };",
    ];
    const container = (version: string, scope: string) =>
      `MetaOf<${alias(version)}.${scope === "request" ? 'CallToolRequest["params"]' : scope === "notification" ? 'ProgressNotification["params"]' : "CallToolResult"}>`;
    const claims: { text: string; breaking: boolean; checks: number[] }[] = [];
    for (const [i, older] of models.slice(0, -1).entries()) {
      const newer = models[i + 1]!;
      for (const l of diffModels(older, newer).changes.flatMap((c) => c.locations)) {
        if (l.subjectKind !== "meta-key") continue;
        const [old, now] = [container(older.version, l.path), container(newer.version, l.path)];
        const key = JSON.stringify(l.subject);
        const checks = [
          lines.push(`export const c${lines.length} = (m: Slice<${old}, ${key}>): Slice<${now}, ${key}> => m;`),
          lines.push(`export const c${lines.length} = (m: Slice<${now}, ${key}>): Slice<${old}, ${key}> => m;`),
        ];
        const breaking = l.severity.client === "breaking" || l.severity.server === "breaking";
        claims.push({
          text: `${older.version} → ${newer.version} ${l.id} ${l.subject} (${l.path}s)`,
          breaking,
          checks,
        });
      }
    }
    writeFileSync(join(dir, "meta-keys.ts"), lines.join("\n") + "\n");
    const diagnostics = typecheck([join(dir, "meta-keys.ts")]).filter((d) => d.file.endsWith("meta-keys.ts"));
    const failing = new Set(diagnostics.map((d) => d.line));
    // Every line that fails is a check: the helpers and containers resolve in every release.
    expect(diagnostics.filter((d) => !claims.some((c) => c.checks.includes(d.line))).map((d) => d.message)).toEqual([]);
    // A compatible claim is checked where it says code keeps compiling: a key removed. One added is new to old code,
    // which writes nothing there, so the checks (any old value under that key) say nothing about it.
    const wrong = claims
      .filter((c) => c.breaking || c.text.includes(" meta-key-removed "))
      .filter((c) => c.checks.some((line) => failing.has(line)) !== c.breaking)
      .map((c) => c.text);
    expect(claims.some((c) => c.text.includes("meta-key-removed io.modelcontextprotocol/related-task"))).toBe(true);
    expect(claims.some((c) => c.breaking)).toBe(true);
    expect(wrong).toEqual([]);
  });

  it("a reserved _meta key no longer reserved: writing it through the new release's checked _meta compiles as the diff says, and a misspelt one fails in both", () => {
    // The whole releases, as the tests' tree holds them: the checked `_meta` lives in the requester, the builders, the
    // dispatchers and the high-level server, not in types.ts.
    const module = (version: string) => JSON.stringify(join(GENERATED_DIR, version, "index.ts"));
    const lines = [
      ...models.map((m) => `import * as ${alias(m.version)} from ${module(m.version)};`),
      `import { createMcpServer } from ${JSON.stringify(join(GENERATED_DIR, "index.ts"))};`,
      "type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };",
      "type Declared<M> = { [P in keyof M as string extends P ? never : P]: M[P] };",
      "type Slice<M, K extends string> = K extends keyof Declared<M> ? Pick<Declared<M>, K> : { [P in K]?: unknown };",
      "type MetaOf<T> = T extends { _meta?: infer M } ? NonNullable<M> : { [key: string]: unknown };",
      // What code written for the old release holds under the key: its value there, as JSON.
      "type Written<M> = { [P in keyof M]: M[P] & Json };",
    ];
    const container = (version: string, scope: string) =>
      `MetaOf<${alias(version)}.${scope === "request" ? 'CallToolRequest["params"]' : scope === "notification" ? 'ProgressNotification["params"]' : "CallToolResult"}>`;
    // Every checked place that takes a `_meta` of the scope: `m` is the `_meta` written, `V` the release.
    const writes: Record<string, readonly ((v: string) => string)[]> = {
      request: [
        (v) => `(r: ${v}.Requester) => r.request("tools/list", { _meta: m })`,
        (v) => `${v}.request("tools/list", { _meta: m }, { id: 1 } as never)`,
      ],
      notification: [(v) => `${v}.notification("notifications/progress", { progressToken: 1, progress: 1, _meta: m })`],
      result: [
        (v) => `${v}.createServerDispatcher({ "tools/call": () => ({ content: [], _meta: m }) })`,
        (v) =>
          `createMcpServer([${v}.MCP_RELEASE], { info: { name: "s", version: "1" } }).tool({ name: "t" }, () => ({ content: [], _meta: m }))`,
      ],
    };
    const checks: { text: string; line: number; compiles: boolean }[] = [];
    const check = (text: string, meta: string, code: string, compiles: boolean) =>
      checks.push({ text, compiles, line: lines.push(`export const c${lines.length} = (m: ${meta}) => ${code};`) });
    for (const [i, older] of models.slice(0, -1).entries()) {
      const newer = models[i + 1]!;
      for (const l of diffModels(older, newer).changes.flatMap((c) => c.locations)) {
        if (l.subjectKind !== "meta-key" || l.id !== "meta-key-removed") continue;
        const breaking = l.severity.client === "breaking" || l.severity.server === "breaking";
        const old = container(older.version, l.path);
        const [key, misspelt] = [JSON.stringify(l.subject), JSON.stringify(`${l.subject}x`)];
        for (const [n, write] of writes[l.path]!.entries()) {
          const text = `${older.version} → ${newer.version} ${l.subject} (${l.path}s, place ${n})`;
          check(`${text}: old code`, `Written<Slice<${old}, ${key}>>`, write(alias(older.version)), true);
          check(`${text}: new release`, `Written<Slice<${old}, ${key}>>`, write(alias(newer.version)), !breaking);
          for (const m of [older, newer])
            check(
              `${text}: misspelt in ${m.version}`,
              `Written<Slice<${old}, ${misspelt}>>`,
              write(alias(m.version)),
              false,
            );
        }
      }
    }
    writeFileSync(join(dir, "meta-writes.ts"), lines.join("\n") + "\n");
    const diagnostics = typecheck([join(dir, "meta-writes.ts")]).filter((d) => d.file.endsWith("meta-writes.ts"));
    const failing = new Set(diagnostics.map((d) => d.line));
    // Every line that fails is a check: the imports and helpers resolve.
    expect(diagnostics.filter((d) => !checks.some((c) => c.line === d.line)).map((d) => d.message)).toEqual([]);
    expect(checks.filter((c) => c.text.includes("related-task") && c.text.includes("new release"))).toHaveLength(5);
    expect(checks.filter((c) => failing.has(c.line) === c.compiles).map((c) => c.text)).toEqual([]);
  });

  it("names an index signature only where the generated type gains or loses one", () => {
    const lines = models.map((m) => `import type * as ${alias(m.version)} from "./${m.version}/types.ts";`);
    // `string extends keyof T` holds exactly when T has a string index signature.
    const indexed = (type: string) => `string extends keyof NonNullable<${type}> ? true : false`;
    const claims: string[] = [];
    for (const [i, older] of models.slice(0, -1).entries()) {
      const newer = models[i + 1]!;
      for (const c of diffModels(older, newer).changes) {
        if (c.id !== "index-signature-changed") continue;
        const gained = c.cause?.indexSignature === "gained";
        for (const l of c.locations) {
          lines.push(
            `export const c${lines.length}: [${indexed(at(older.version, l.subject, l.path))}, ${indexed(at(newer.version, l.subject, l.path))}] = [${!gained}, ${gained}];`,
          );
          claims.push(`${older.version} → ${newer.version} ${l.subject}.${l.path}`);
        }
      }
    }
    writeFileSync(join(dir, "index-signatures.ts"), lines.join("\n") + "\n");
    const failing = typecheck([join(dir, "index-signatures.ts")]).filter((d) => d.file.endsWith("index-signatures.ts"));
    expect(claims.length).toBeGreaterThan(0);
    expect(failing.map((d) => `${claims[d.line - 1 - models.length] ?? d.line}: ${d.message}`)).toEqual([]);
  });
});
