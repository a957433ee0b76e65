import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

/** One official example: the definition it is an instance of and the file it came from. */
export interface Example {
  readonly definition: string;
  /** `<Definition>/<file>.json`, as the examples folder names it. */
  readonly id: string;
  readonly value: unknown;
}

export function readExamples(examplesDir: string): Example[] {
  const examples: Example[] = [];
  for (const definition of readdirSync(examplesDir).sort()) {
    for (const file of readdirSync(join(examplesDir, definition)).sort()) {
      if (!file.endsWith(".json")) continue;
      const value: unknown = JSON.parse(readFileSync(join(examplesDir, definition, file), "utf8"));
      examples.push({ definition, id: `${definition}/${file}`, value });
    }
  }
  return examples;
}

export interface ExampleFile {
  readonly path: string;
  /** The example whose assignment spans a given (1-based) line of the file. */
  exampleAt(line: number): Example | undefined;
}

/**
 * Writes a TypeScript file that assigns every example to an annotated const of its
 * definition's type, one const per example, so excess-property checks apply to each literal.
 */
export function writeExampleFile(path: string, typesModule: string, examples: readonly Example[]): ExampleFile {
  const fromDir = relative(join(path, ".."), typesModule).replace(/\.ts$/, ".js");
  const lines = [`import type * as T from "${fromDir.startsWith(".") ? fromDir : `./${fromDir}`}";`, ""];
  const spans: { from: number; to: number; example: Example }[] = [];
  examples.forEach((example, n) => {
    const body = `export const x_${n}: T.${example.definition} = ${JSON.stringify(example.value, null, 2)};`.split(
      "\n",
    );
    spans.push({ from: lines.length + 1, to: lines.length + body.length, example });
    lines.push(...body);
  });
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, lines.join("\n") + "\n");
  return { path, exampleAt: (line) => spans.find((s) => line >= s.from && line <= s.to)?.example };
}
