/**
 * Top-level statements an emitter prints itself, byte for byte as prettier prints them, so that
 * the formatter leaves them out of prettier's input: long runs of near-identical data statements
 * (one guard per definition, …) were a large share of a cold run's formatting time.
 * test/format.test.ts runs prettier over every module of all five releases and of synthetic
 * schemas, so a printer that drifts from prettier fails there.
 */

/** The output's print width (format.ts's PRETTIER_OPTIONS; kept here so emitters need not import the formatter). */
export const PRINT_WIDTH = 100;

const START = "// mcp-bindgen:printed-start";
const END = "// mcp-bindgen:printed-end";
const PLACEHOLDER = "// mcp-bindgen:printed ";

/** One top-level statement: `exact` is prettier's own output for it; `source` is left for prettier to format. */
export type PrintedStatement = { readonly exact: string } | { readonly source: string };

/**
 * Statements in order, for `StatementSink.addStatements`: runs of exact text are marked so the
 * formatter passes them through (`extractPrinted`), the rest is ordinary source.
 */
export function printedStatements(statements: readonly PrintedStatement[]): string {
  const out: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    if (run.length > 0) out.push(markPrinted(run.join("\n")));
    run = [];
  };
  for (const s of statements) {
    if ("exact" in s) run.push(s.exact);
    else {
      flush();
      out.push(s.source);
    }
  }
  flush();
  return out.join("\n");
}

/** Marks `text` (whole top-level statements, exactly as prettier prints them) for the formatter to pass through. */
export function markPrinted(text: string): string {
  return `${START}\n${text}\n${END}`;
}

/** A module's text with each marked run replaced by a placeholder comment, and the runs; prettier keeps the comments where they are. */
export function extractPrinted(content: string): { readonly source: string; readonly runs: readonly string[] } {
  const runs: string[] = [];
  const source = content.replace(new RegExp(`^${START}\\n([\\s\\S]*?)\\n${END}$`, "gm"), (_, run: string) => `${PLACEHOLDER}${runs.push(run) - 1}`);
  return { source, runs };
}

/** Prettier's output for a module with placeholders, with each run put back; throws if prettier moved or dropped a placeholder. */
export function restorePrinted(formatted: string, runs: readonly string[], path: string): string {
  let restored = 0;
  const text = formatted.replace(new RegExp(`^${PLACEHOLDER}(\\d+)$`, "gm"), (_, i: string) => {
    restored++;
    return runs[Number(i)]!;
  });
  if (restored !== runs.length) throw new Error(`${path}: prettier moved the statements printed by the emitter (${restored} of ${runs.length} runs found)`);
  return text;
}

/**
 * `export const <name> = <expression> as (<parameter>) => <returns>;` as prettier prints it: on
 * one line when it fits, else with the parameter on a line of its own. Beyond that (a first line
 * still too long) prettier's choice is not modelled, so the statement goes to prettier.
 */
export function exportedConstAsFunctionType(name: string, expression: string, parameter: string, returns: string): PrintedStatement {
  const head = `export const ${name} = ${expression} as (`;
  const oneLine = `${head}${parameter}) => ${returns};`;
  if (oneLine.length <= PRINT_WIDTH) return { exact: oneLine };
  const tail = `) => ${returns};`;
  if (head.length > PRINT_WIDTH || tail.length > PRINT_WIDTH || 2 + parameter.length + 1 > PRINT_WIDTH) return { source: oneLine };
  return { exact: `${head}\n  ${parameter},\n${tail}` };
}
