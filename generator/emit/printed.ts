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

/** A value of a data table, printed as a literal: objects keep their key order. */
export type DataValue = string | number | boolean | null | readonly DataValue[] | { readonly [key: string]: DataValue };

/**
 * The members of an object literal, one per line at `indent`, each value as prettier prints it:
 * on the rest of its line when it fits, else broken one member or element per line (trailing
 * commas), recursively. Undefined where prettier's choice is not modelled (a string needing
 * escapes, a non-integer number, a numeric key): the statement then goes to prettier.
 */
export function printedMembers(object: { readonly [key: string]: DataValue }, indent: string): string[] | undefined {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    const printedKey = propertyKey(key);
    const printed = printedValue(value, indent, `${printedKey}: `, ",");
    if (printedKey === undefined || printed === undefined) return undefined;
    lines.push(...printed);
  }
  return lines;
}

/** `value` after `prefix` at `indent`, followed by `suffix`: its lines. */
function printedValue(value: DataValue, indent: string, prefix: string, suffix: string): string[] | undefined {
  const flat = flatValue(value);
  if (flat === undefined) return undefined;
  const line = `${indent}${prefix}${flat}${suffix}`;
  if (line.length <= PRINT_WIDTH || typeof value !== "object" || value === null) return [line];
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const elements = value.map((element: DataValue) => printedValue(element, inner, "", ","));
    if (elements.some((e) => e === undefined)) return undefined;
    return [`${indent}${prefix}[`, ...elements.flatMap((e) => e!), `${indent}]${suffix}`];
  }
  const members = printedMembers(value as { readonly [key: string]: DataValue }, inner);
  return members && [`${indent}${prefix}{`, ...members, `${indent}}${suffix}`];
}

/** `value` on one line as prettier prints it, or undefined where that is not modelled. */
function flatValue(value: DataValue): string | undefined {
  if (value === null || typeof value === "boolean") return String(value);
  if (typeof value === "number") return Number.isSafeInteger(value) ? String(value) : undefined;
  if (typeof value === "string") return stringLiteral(value);
  const parts: (string | undefined)[] = Array.isArray(value)
    ? value.map((element: DataValue) => flatValue(element))
    : Object.entries(value).map(([key, member]) => {
        const k = propertyKey(key);
        const v = flatValue(member);
        return k === undefined || v === undefined ? undefined : `${k}: ${v}`;
      });
  if (parts.some((p) => p === undefined)) return undefined;
  if (parts.length === 0) return Array.isArray(value) ? "[]" : "{}";
  return Array.isArray(value) ? `[${parts.join(", ")}]` : `{ ${parts.join(", ")} }`;
}

/** Printable ASCII without backslashes, in the quotes prettier picks (double, unless that means more escapes); undefined otherwise. */
function stringLiteral(value: string): string | undefined {
  if (/[^\x20-\x7e]|\\/.test(value) || (value.includes('"') && value.includes("'"))) return undefined;
  return value.includes('"') ? `'${value}'` : `"${value}"`;
}

/** A key as prettier prints it (quotes only where needed); undefined for keys it may print as numbers. */
function propertyKey(key: string): string | undefined {
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return key;
  if (/^[\d.]|["']/.test(key) || stringLiteral(key) === undefined) return undefined;
  return `"${key}"`;
}
