import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffModels, type Side } from "../../generator/diff/index.ts";
import { definitionProducers } from "../../generator/diff/roles.ts";
import { render } from "../../generator/output/generate-output.ts";
import type { ProtocolModel } from "../../generator/model/protocol-model.ts";
import { checkoutModels } from "../support/checkout.ts";
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

describe("breaking claims, checked by the compiler", () => {
  it("over the four adjacent release pairs, none is refuted", () => {
    const alias = (version: string) => `V${version.replaceAll("-", "_")}`;
    const imports = models.map((m) => `import type * as ${alias(m.version)} from "./${m.version}/types.ts";`);
    const claims: { text: string; checks: string[] }[] = [];
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
        for (const side of ["client", "server"] as const) {
          if (l.severity[side] !== "breaking") continue;
          const reads = writers.size === 0 || writers.has(side === "client" ? "server" : "client");
          const checks = [
            ...(writers.size === 0 || writers.has(side) ? [`(x: ${before}): ${after} => x`] : []),
            ...(reads ? [`(x: ${after}): ${before} => x`] : []),
          ];
          claims.push({
            text: `${older.version} → ${newer.version} ${side} ${l.id} ${l.subject}${l.path === "" ? "" : "." + l.path}`,
            checks,
          });
        }
      }
    }
    const lines = [...imports];
    const lineOf = claims.map((c) => c.checks.map((check) => lines.push(`export const c${lines.length} = ${check};`)));
    writeFileSync(join(dir, "claims.ts"), lines.join("\n") + "\n");
    const failing = new Set(
      typecheck([join(dir, "claims.ts")])
        .filter((d) => d.file.endsWith("claims.ts"))
        .map((d) => d.line),
    );
    const refuted = claims.filter((_, i) => !lineOf[i]!.some((line) => failing.has(line))).map((c) => c.text);
    expect(claims.length).toBeGreaterThan(80);
    expect([...new Set(refuted)]).toEqual([]);
  });

  it("names an index signature only where the generated type gains or loses one", () => {
    const alias = (version: string) => `V${version.replaceAll("-", "_")}`;
    const lines = models.map((m) => `import type * as ${alias(m.version)} from "./${m.version}/types.ts";`);
    // `string extends keyof T` holds exactly when T has a string index signature.
    const at = (version: string, subject: string, path: string) =>
      (path === "" ? [] : path.split(/\.|(?=\[\])|(?=\{\})/)).reduce(
        (t, part) => `NonNullable<${t}>[${part === "[]" ? "number" : part === "{}" ? "string" : JSON.stringify(part)}]`,
        `${alias(version)}.${subject}`,
      );
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
