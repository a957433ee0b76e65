import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/**
 * Compares every generated type with the spec's own TypeScript type of the same name, both
 * directions of assignability, one definition at a time: the spec's declaration of `N` is
 * re-declared with every other name bound to the generated type, so a difference is reported
 * where it is, not again in every type that mentions it.
 */
export type Direction = "generated-to-spec" | "spec-to-generated";

export interface Mismatch {
  readonly name: string;
  readonly direction: Direction;
  /** The deepest message of the diagnostic chain: the reason itself. */
  readonly reason: string;
}

export interface Comparison {
  readonly compared: readonly string[];
  readonly generatedOnly: readonly string[];
  readonly specOnly: readonly string[];
  readonly mismatches: readonly Mismatch[];
}

interface Declarations {
  readonly types: Map<string, string>;
  readonly values: Set<string>;
}

function declarations(file: string): Declarations {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const types = new Map<string, string>();
  const values = new Set<string>();
  for (const statement of source.statements) {
    const exported =
      ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) continue;
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement))
      types.set(statement.name.text, statement.getText(source));
    else if (ts.isVariableStatement(statement))
      for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) values.add(d.name.text);
  }
  return { types, values };
}

function deepest(chain: string | ts.DiagnosticMessageChain): string {
  if (typeof chain === "string") return chain;
  const next = chain.next?.[chain.next.length - 1];
  return next === undefined ? chain.messageText : deepest(next);
}

/** `specFile` is a copy of the release's schema.ts (or a `.d.ts` of it); `generatedFile` is generated/<version>/types.ts. */
export function compareWithSpec(specFile: string, generatedFile: string, workDir: string): Comparison {
  const spec = declarations(specFile);
  const generated = declarations(generatedFile);
  const compared = [...generated.types.keys()].filter((n) => spec.types.has(n)).sort();
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const specPath = JSON.stringify(specFile.replace(/(\.d)?\.ts$/, ".js"));
  const generatedPath = JSON.stringify(generatedFile.replace(/\.ts$/, ".js"));
  const specOnly = [...spec.types.keys(), ...spec.values].filter((n) => !generated.types.has(n));
  const files: string[] = [];
  for (const name of compared) {
    const others = compared.filter((n) => n !== name);
    const text = [
      `import type * as G from ${generatedPath};`,
      others.length > 0 ? `import type { ${others.join(", ")} } from ${generatedPath};` : "",
      specOnly.length > 0 ? `import type { ${specOnly.join(", ")} } from ${specPath};` : "",
      spec.types.get(name)!.replace(/^export\s+/, "export "),
      `declare const fromGenerated: G.${name};`,
      `export const toSpec: ${name} = fromGenerated;`,
      `declare const fromSpec: ${name};`,
      `export const toGenerated: G.${name} = fromSpec;`,
    ].join("\n");
    const file = join(workDir, `${name}.ts`);
    writeFileSync(file, text);
    files.push(file);
  }
  const program = ts.createProgram(files, {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  });
  const mismatches: Mismatch[] = [];
  for (const file of files) {
    const name = file.slice(workDir.length + 1, -3);
    const source = program.getSourceFile(file)!;
    for (const d of ts.getPreEmitDiagnostics(program, source)) {
      const line =
        d.start === undefined
          ? ""
          : source.text.slice(source.text.lastIndexOf("\n", d.start) + 1, source.text.indexOf("\n", d.start));
      const direction: Direction | undefined = line.includes("toSpec")
        ? "generated-to-spec"
        : line.includes("toGenerated")
          ? "spec-to-generated"
          : undefined;
      const reason = deepest(d.messageText);
      // A diagnostic elsewhere means the spec's declaration did not compile against the generated names.
      mismatches.push({
        name,
        direction: direction ?? "spec-to-generated",
        reason: direction === undefined ? `does not compile: ${reason}` : reason,
      });
    }
  }
  return {
    compared,
    generatedOnly: [...generated.types.keys()].filter((n) => !spec.types.has(n)).sort(),
    specOnly: [...spec.types.keys()].filter((n) => !generated.types.has(n)).sort(),
    mismatches,
  };
}
