import { PRINT_WIDTH } from "./emit/printed.ts";

/**
 * Recognises the top-level declarations of an emitted module that are already exactly what
 * prettier prints, so the formatter can pass them through (marked as in emit/printed.ts): with
 * ts-morph printing two-space indentation and double quotes, most interfaces and type aliases of
 * a release's types come out that way. The grammar accepted is deliberately small (declarations
 * of types built from names, string and integer literals, `|`, `&`, `[]`, `<>` and parentheses;
 * JSDoc; nested members), every line within the print width; anything else is left to prettier.
 * One rewrite: a type alias of a union too long for one line is broken as prettier breaks it. test/format.test.ts holds every module of every release, and of synthetic schemas,
 * to prettier's own output.
 */

const NAME = String.raw`[A-Za-z_$][\w$]*`;
/** One operand of a type: a (qualified) name, a string literal needing no escapes, an integer, or an indexed access with one. */
const STRING = String.raw`"[\x20\x21\x23-\x5b\x5d-\x7e]*"`;
const QUALIFIED = String.raw`${NAME}(?:\.${NAME})*`;
const OPERAND = String.raw`(?:(?:${QUALIFIED}|${STRING}|-?(?:0|[1-9]\d{0,14}))(?:\[(?:${STRING}|${NAME})\]|\[\])*|keyof (?:typeof )?${QUALIFIED}|typeof ${QUALIFIED}|readonly ${QUALIFIED}(?:\[\])+)`;
/** A type as one line: operands joined by ` | ` / ` & `, `[]` suffixes, parentheses and type arguments. */
const TYPE_TEXT = new RegExp(String.raw`^(?:${OPERAND}|\(|\)(?:\[\])*|<|>(?:\[\])*| \| | & |, )+$`);
/**
 * Whether prettier prints `type` as it is: within the grammar, never ` | ` beside ` & ` (prettier
 * parenthesises an intersection inside a union), and parentheses only around a union or
 * intersection (prettier drops others).
 */
function isStableType(type: string): boolean {
  if (!TYPE_TEXT.test(type) || (type.includes(" | ") && type.includes(" & "))) return false;
  const open: number[] = [];
  for (let k = 0; k < type.length; k++) {
    if (type[k] === "(") open.push(k);
    else if (type[k] === ")") {
      const from = open.pop();
      if (from === undefined) return false;
      const inner = type.slice(from, k);
      if (!/ [|&] /.test(inner.replace(/\([^()]*\)/g, ""))) return false;
    }
  }
  return open.length === 0;
}

/** A property key prettier leaves as it is: an identifier, or a string literal that could not be one. */
const KEY = String.raw`(?:${NAME}|"(?=[^"\\]*[^\w$"\\])(?![\d.]+")[^"\\]+")`;
const MEMBER = new RegExp(String.raw`^(?:readonly )?(?:${KEY}\??|\[key: string\]): (.*);$`);
const QUOTED_IDENTIFIER_KEY = new RegExp(String.raw`^(readonly )?"(${NAME})"(\??): `);
const INLINE_MEMBER = new RegExp(String.raw`^(?:readonly )?${KEY}\??: (.*)$`);
/** A frozen table of literals on one line, as emit/errors.ts and emit/meta.ts write them. */
const FROZEN_TABLE = new RegExp(String.raw`^export const ${NAME}: (${NAME}) = /\* @__PURE__ \*/ Object\.freeze<\1>\(\{ (.*) \}\);$`);
const TABLE_ENTRY = new RegExp(String.raw`(${NAME}): (${STRING}|-?(?:0|[1-9]\d{0,14}))(?:, |$)`, "y");
const OPENER = new RegExp(String.raw`^(?:readonly )?(?:${KEY}\??|\[key: string\]): \{$`);
const INTERFACE = new RegExp(String.raw`^export interface ${NAME}(?: extends ${NAME}(?:, ${NAME})*)? \{$`);
const TYPE_ALIAS = new RegExp(String.raw`^(export )?type (${NAME})(<${NAME} extends ${NAME}(?:, ${NAME} extends ${NAME})*>)? = (.*);$`);

/**
 * `content` with every run of prettier-stable declarations (and the single blank lines between
 * them) passed to `mark`, which wraps it in the printed-statement markers.
 */
export function markPrettierStable(content: string, mark: (text: string) => string): string {
  const lines = content.split("\n");
  const out: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    let blanks = 0;
    while (run.at(-1) === "") {
      run.pop();
      blanks++;
    }
    if (run.length > 0) out.push(mark(run.join("\n")));
    for (; blanks > 0; blanks--) out.push("");
    run = [];
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line === "" && run.length > 0 && run.at(-1) !== "") {
      run.push(line);
      i++;
      continue;
    }
    const end = declarationEnd(lines, i);
    const printed = end === undefined ? undefined : stable(lines.slice(i, end));
    if (end === undefined || printed === undefined) {
      flush();
      out.push(line);
      i++;
      continue;
    }
    run.push(printed);
    i = end;
  }
  flush();
  return out.join("\n");
}

/** Where a top-level declaration (its JSDoc included) starting at `start` ends, or undefined if none starts there. */
function declarationEnd(lines: readonly string[], start: number): number | undefined {
  let i = start;
  if (lines[i]!.startsWith("/**")) {
    while (i < lines.length && !lines[i]!.endsWith("*/")) i++;
    i++;
  }
  const head = lines[i];
  if (head === undefined) return undefined;
  if (TYPE_ALIAS.test(head) || FROZEN_TABLE.test(head)) return i + 1;
  if (!INTERFACE.test(head)) return undefined;
  for (i++; i < lines.length; i++) if (lines[i] === "}") return i + 1;
  return undefined;
}

/** The declaration as prettier prints it, if it is within the grammar; undefined otherwise. */
function stable(lines: readonly string[]): string | undefined {
  const i = docComment(lines, 0, "");
  if (i === undefined) return undefined;
  const head = lines[i]!;
  const table = FROZEN_TABLE.exec(head);
  if (table) return frozenTable(lines.slice(0, i), head, table[2]!);
  const alias = TYPE_ALIAS.exec(head);
  if (alias) {
    const [, exported = "", name, parameters = "", type] = alias as unknown as [string, string | undefined, string, string | undefined, string];
    const left = `${exported}type ${name}${parameters} =`;
    const docs = lines.slice(0, i);
    // An object type: on one line if it fits (without the last `;`), else a member per line.
    const object = parameters === "" ? inlineObject(type.replace(/; \}$/, " }")) : undefined;
    if (object) {
      const flat = `${left} { ${object.join("; ")} };`;
      if (flat.length <= PRINT_WIDTH) return [...docs, flat].join("\n");
      if (object.some((m) => m.length + 3 > PRINT_WIDTH)) return undefined;
      return [...docs, `${left} {`, ...object.map((m) => `  ${m};`), "};"].join("\n");
    }
    if (!isStableType(type)) return undefined;
    if (head.length <= PRINT_WIDTH) return lines.join("\n");
    const members = parameters === "" ? topLevelUnion(type) : undefined;
    if (members === undefined || members.some((m) => m.length + 4 > PRINT_WIDTH)) return undefined;
    // Prettier moves a union that fits on the next line there whole; else one member per line.
    if (type.length + 3 <= PRINT_WIDTH) return [...docs, left, `  ${type};`].join("\n");
    return [...docs, left, ...members.map((m, k) => `  | ${m}${k === members.length - 1 ? ";" : ""}`)].join("\n");
  }
  if (lines.length === i + 2 && lines[i + 1] === "}") return head.length + 1 <= PRINT_WIDTH ? [...lines.slice(0, i), `${head}}`].join("\n") : undefined;
  if (head.length > PRINT_WIDTH) return undefined;
  const body = members(lines, i + 1, "  ", "  ");
  if (body === undefined || body.close !== lines.length - 1 || lines[body.close] !== "}") return undefined;
  return [...lines.slice(0, i + 1), ...body.out, "}"].join("\n");
}

/**
 * Past a JSDoc comment at `indent` starting at `i` (or `i` itself if there is none); undefined if it
 * is not as prettier prints it. Prettier keeps a one-line block comment as it is, and re-indents a
 * multi-line one whose lines all start with `*`: each trimmed, after one space.
 */
function docComment(lines: readonly string[], i: number, indent: string): number | undefined {
  const first = lines[i]!;
  if (!first.startsWith(`${indent}/**`)) return i;
  if (first.endsWith("*/")) return first.indexOf("*/") === first.length - 2 ? i + 1 : undefined;
  if (first !== `${indent}/**`) return undefined;
  for (let k = i + 1; k < lines.length; k++) {
    const line = lines[k]!;
    if (line === `${indent} */`) return k + 1;
    const ok = line === `${indent} *` || (line.startsWith(`${indent} * `) && !/\s$/.test(line) && !line.includes("*/"));
    if (!ok) return undefined;
  }
  return undefined;
}

/**
 * The members of an object type from line `i` up to its closing line, as prettier prints them:
 * `{ close, out }`, or undefined if any is outside the grammar. Members are indented `actual` in
 * the text and `want` in prettier's output: ts-morph writes a nested object type with a hanging
 * indent (two spaces deeper, closing brace included), which prettier drops.
 */
function members(lines: readonly string[], i: number, actual: string, want: string): { close: number; out: string[] } | undefined {
  const out: string[] = [];
  const closing = actual.slice(2);
  while (i < lines.length) {
    const afterDoc = docComment(lines, i, actual);
    if (afterDoc === undefined) return undefined;
    const line = lines[afterDoc];
    if (line === undefined) return undefined;
    if (afterDoc === i && (line === `${closing}}` || line === `${closing}};`)) return out.length > 0 ? { close: i, out } : undefined;
    if (!line.startsWith(actual)) return undefined;
    for (let k = i; k < afterDoc; k++) out.push(want + lines[k]!.slice(actual.length));
    const member = unquoteKey(line.slice(actual.length));
    const typed = MEMBER.exec(member);
    const inline = typed ? inlineObject(typed[1]!) : undefined;
    if (typed && isStableType(typed[1]!)) {
      if (want.length + member.length <= PRINT_WIDTH) out.push(want + member);
      else {
        // A union too long for the member's line: prettier puts every member on a line of its own.
        const union = topLevelUnion(typed[1]!);
        if (union === undefined || union.some((m) => want.length + 4 + m.length + 1 > PRINT_WIDTH)) return undefined;
        out.push(want + member.slice(0, member.length - typed[1]!.length - 2), ...union.map((m, k) => `${want}  | ${m}${k === union.length - 1 ? ";" : ""}`));
      }
      i = afterDoc + 1;
    } else if (typed && inline) {
      // `key: { a: A; b: B }` stays on one line if it fits; else prettier puts each member on its own.
      const head = member.slice(0, member.length - typed[1]!.length - 1);
      if (want.length + member.length <= PRINT_WIDTH) out.push(want + member);
      else if (inline.every((m) => want.length + 2 + m.length + 1 <= PRINT_WIDTH)) out.push(`${want}${head}{`, ...inline.map((m) => `${want}  ${m};`), `${want}};`);
      else return undefined;
      i = afterDoc + 1;
    } else if (OPENER.test(member) && want.length + member.length <= PRINT_WIDTH) {
      const nestedActual = /^ */.exec(lines[afterDoc + 1] ?? "")![0];
      // Hanging indents add up with depth: any deeper, even indentation, closed two spaces less.
      if (nestedActual.length <= actual.length || nestedActual.length % 2 !== 0) return undefined;
      const nested = members(lines, afterDoc + 1, nestedActual, `${want}  `);
      if (nested === undefined || lines[nested.close] !== `${nestedActual.slice(2)}};`) return undefined;
      out.push(want + member, ...nested.out, `${want}};`);
      i = nested.close + 1;
    } else return undefined;
  }
  return undefined;
}

/**
 * `export const X: T = /* @__PURE__ *\/ Object.freeze<T>({ a: 1, b: "x" });` as prettier prints it:
 * as it is if it fits, else the object hugged by the call, an entry per line.
 */
function frozenTable(docs: readonly string[], line: string, body: string): string | undefined {
  const entries: string[] = [];
  TABLE_ENTRY.lastIndex = 0;
  while (TABLE_ENTRY.lastIndex < body.length) {
    const m = TABLE_ENTRY.exec(body);
    if (m === null) return undefined;
    entries.push(`${m[1]}: ${m[2]}`);
  }
  if (line.length <= PRINT_WIDTH) return [...docs, line].join("\n");
  const head = line.slice(0, line.length - body.length - 5);
  if (head.length > PRINT_WIDTH || entries.some((e) => e.length + 3 > PRINT_WIDTH)) return undefined;
  return [...docs, head, ...entries.map((e) => `  ${e},`), "});"].join("\n");
}

/** A member with a quoted key that is an identifier, as prettier prints it: unquoted (quotes only where needed, key by key). */
function unquoteKey(member: string): string {
  return member.replace(QUOTED_IDENTIFIER_KEY, "$1$2$3: ");
}

/** The members of a one-line object type `{ a: A; b?: B }` within the grammar, or undefined. */
function inlineObject(type: string): string[] | undefined {
  if (!type.startsWith("{ ") || !type.endsWith(" }")) return undefined;
  const parts = type.slice(2, -2).split("; ").map(unquoteKey);
  return parts.every((part) => {
    const m = INLINE_MEMBER.exec(part);
    return m !== null && isStableType(m[1]!);
  })
    ? parts
    : undefined;
}

/** The members of a union at the top level of `type` (not inside parentheses or type arguments), or undefined if it is not one. */
function topLevelUnion(type: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let k = 0; k < type.length; k++) {
    const c = type[k];
    if (c === "(" || c === "<") depth++;
    else if (c === ")" || c === ">") depth--;
    else if (depth === 0 && type.startsWith(" | ", k)) {
      parts.push(type.slice(from, k));
      from = k + 3;
    } else if (depth === 0 && type.startsWith(" & ", k)) return undefined;
  }
  parts.push(type.slice(from));
  return parts.length > 1 ? parts : undefined;
}
