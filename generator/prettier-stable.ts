import { PRINT_WIDTH } from "./emit/printed.ts";

/**
 * Recognises the top-level declarations of an emitted module that are already exactly what
 * prettier prints, so the formatter can pass them through (marked as in emit/printed.ts): with
 * ts-morph printing two-space indentation and double quotes, most interfaces and type aliases of
 * a release's types come out that way. The grammar accepted is deliberately small (declarations
 * of types built from names, string and integer literals, `|`, `&`, `[]`, `<>` and parentheses;
 * JSDoc; nested members), every line within the print width; anything else is left to prettier.
 * Where prettier would break a line (a union, a list, type arguments, a signature) it is broken as prettier breaks it,
 * and strings and keys are quoted as prettier quotes them. test/format.test.ts holds every module of every release, and of synthetic schemas,
 * to prettier's own output.
 */

const NAME = String.raw`[A-Za-z_$][\w$]*`;
/** One operand of a type: a (qualified) name, a string literal needing no escapes, an integer, or an indexed access with one. */
const STRING = String.raw`"[\x20\x21\x23-\x5b\x5d-\x7e]*"`;
const QUALIFIED = String.raw`${NAME}(?:\.${NAME})*`;
/** `(typeof X)[`: prettier keeps (adds) these parentheses. */
const TYPEOF_INDEXED = String.raw`\(typeof ${QUALIFIED}\)\[`;
const OPERAND = String.raw`(?:(?:${QUALIFIED}|${STRING}|-?(?:0|[1-9]\d{0,14}))(?:\[(?:${STRING}|${NAME})\]|\[\])*|keyof (?:typeof )?${QUALIFIED}|typeof ${QUALIFIED}|readonly ${QUALIFIED}(?:\[\])+|${TYPEOF_INDEXED}(?:${STRING}|keyof typeof ${QUALIFIED})\])`;
/** A type as one line: operands joined by ` | ` / ` & `, `[]` suffixes, parentheses and type arguments. */
const TYPE_TEXT = new RegExp(String.raw`^(?:${OPERAND}|\(|\)(?:\[\])*|<|>(?:\[\])*| \| | & |, )+$`);
/**
 * Whether prettier prints `type` as it is: within the grammar, never ` | ` beside ` & ` (prettier
 * parenthesises an intersection inside a union), and parentheses only around a union or
 * intersection (prettier drops others).
 */
function isStableType(text: string): boolean {
  if (!TYPE_TEXT.test(text) || (text.includes(" | ") && text.includes(" & "))) return false;
  const type = text.replace(new RegExp(TYPEOF_INDEXED, "g"), "typeof X[");
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
/** A method signature in an interface (`name<T>(a: A): R;`); printedSignature judges the rest. */
const METHOD = new RegExp(String.raw`^${NAME}[<(].*\): .*;$`);
const OPENER = new RegExp(String.raw`^(?:readonly )?(?:${KEY}\??|\[key: string\]): \{$`);
const INTERFACE = new RegExp(String.raw`^export interface ${NAME}(?: extends ${NAME}(?:, ${NAME})*)? \{$`);
const TYPE_ALIAS = new RegExp(String.raw`^(export )?type (${NAME})(<.*?>)? = (.*);$`);
const TYPE_PARAMETER = new RegExp(String.raw`^${NAME}(?: extends (.+?))?(?: = (.+))?$`);
/** An import or export of a list of names (`import { a, type B } from "./m.js";`), or of a namespace. */
const SPECIFIER = String.raw`(?:type )?${NAME}(?: as ${NAME})?`;
const MODULE_LIST = new RegExp(String.raw`^((?:import|export)(?: type)? \{)( ${SPECIFIER}(?:, ${SPECIFIER})* )(\}(?: from ${STRING})?;)$`);
const NAMESPACE_IMPORT = new RegExp(String.raw`^import (?:type )?\* as ${NAME} from ${STRING};$`);
/** A const initialised with a JSON string literal (emit/validate.ts's tables): any width. */
const STRING_CONST = new RegExp(String.raw`^((?:export )?const ${NAME}(?:: ${QUALIFIED})? =) ("(?:[^"\\]|\\["\\bfnrt]|\\u[0-9a-fA-F]{4})*");$`);
/** A one-line variable statement or re-export: passed through if it fits and its code is clean (isCleanCode). */
const ONE_LINE_STATEMENT = new RegExp(String.raw`^(?:(?:export )?const ${NAME}(?:: [^=]+)? = .*;|export \* from ${STRING};)$`);
const FUNCTION_HEAD = new RegExp(String.raw`^(?:export )?function ${NAME}[<(]`);

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
  if (TYPE_ALIAS.test(head) || FROZEN_TABLE.test(head) || MODULE_LIST.test(head) || NAMESPACE_IMPORT.test(head) || ONE_LINE_STATEMENT.test(head) || STRING_CONST.test(head))
    return i + 1;
  if (FUNCTION_HEAD.test(head)) {
    if (head.endsWith(";")) return i + 1;
    if (!head.endsWith(" {")) return undefined;
    for (i++; i < lines.length; i++) if (lines[i] === "}") return i + 1;
    return undefined;
  }
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
  if (NAMESPACE_IMPORT.test(head)) return i === 0 && head.length <= PRINT_WIDTH ? head : undefined;
  const list = MODULE_LIST.exec(head);
  if (list) return i === 0 ? moduleList(head, list[1]!, list[2]!, list[3]!) : undefined;
  if (FUNCTION_HEAD.test(head)) return functionDeclaration(lines, i);
  const string = STRING_CONST.exec(head);
  if (string) return [...lines.slice(0, i), ...stringConst(string[1]!, string[2]!)].join("\n");
  if (ONE_LINE_STATEMENT.test(head)) return head.length <= PRINT_WIDTH && isCleanCode(head) ? lines.join("\n") : undefined;
  const alias = TYPE_ALIAS.exec(head);
  if (alias) {
    const [, exported = "", name, parameters = "", type] = alias as unknown as [string, string | undefined, string, string | undefined, string];
    if (parameters !== "" && !typeParameters(parameters)) return undefined;
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
    const generic = typeArguments(left, type);
    if (generic) return [...docs, ...generic].join("\n");
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
    } else if (METHOD.test(member)) {
      const printed = printedSignature(member.slice(0, -1), want, ";");
      if (printed === undefined) return undefined;
      out.push(...printed);
      i = afterDoc + 1;
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
    // A string member may hold brackets: skipped, as splitTopLevel and closingBracket skip them.
    if (c === '"') {
      k = type.indexOf('"', k + 1);
      if (k < 0) return undefined;
    } else if (c === "(" || c === "<") depth++;
    else if (c === ")" || c === ">") depth--;
    else if (depth === 0 && type.startsWith(" | ", k)) {
      parts.push(type.slice(from, k));
      from = k + 3;
    } else if (depth === 0 && type.startsWith(" & ", k)) return undefined;
  }
  parts.push(type.slice(from));
  return parts.length > 1 ? parts : undefined;
}

/** `<A extends B = C, D>` within the grammar: each bound and default a stable type. */
function typeParameters(list: string): boolean {
  const parts = splitTopLevel(list.slice(1, -1));
  return parts.every((part) => {
    const m = TYPE_PARAMETER.exec(part);
    return m !== null && [m[1], m[2]].every((t) => t === undefined || isStableType(t));
  });
}

/**
 * `left Name<A, B, C>;` too wide for a line, as prettier prints it: the name kept after `=`, a type
 * argument per line (no trailing comma); undefined if the type is not one generic reference.
 */
function typeArguments(left: string, type: string): string[] | undefined {
  const open = type.indexOf("<");
  if (open < 0 || !new RegExp(`^${QUALIFIED}$`).test(type.slice(0, open)) || closingBracket(type, open) !== type.length) return undefined;
  const args = splitTopLevel(type.slice(open + 1, -1));
  const first = `${left} ${type.slice(0, open + 1)}`;
  if (args.length < 2 || first.length > PRINT_WIDTH || args.some((a) => a.length + 3 > PRINT_WIDTH)) return undefined;
  return [first, ...args.map((a, k) => `  ${a}${k < args.length - 1 ? "," : ""}`), ">;"];
}

/**
 * `left "text";` as prettier prints it: in the quotes that need fewer escapes (double on a tie),
 * escapes of the other quote dropped, any other escape kept (JSON's are all meaningful); after
 * `=` on the next line if the line is too wide, as prettier never breaks a string.
 */
function stringConst(left: string, literal: string): string[] {
  const raw = literal.slice(1, -1);
  const quote = (raw.match(/"/g) ?? []).length > (raw.match(/'/g) ?? []).length ? "'" : '"';
  const content = raw.replace(/\\(.)|(["'])/gs, (match, escaped: string | undefined, bare: string | undefined) =>
    escaped !== undefined ? (escaped === '"' && quote === "'" ? '"' : match) : bare === quote ? `\\${bare}` : bare!,
  );
  const line = `${left} ${quote}${content}${quote};`;
  return line.length <= PRINT_WIDTH ? [line] : [left, `  ${quote}${content}${quote};`];
}

/** An import or export list as prettier prints it: on one line if it fits, else (two names or more) a name per line. */
function moduleList(line: string, open: string, names: string, close: string): string | undefined {
  if (line.length <= PRINT_WIDTH) return line;
  const each = names.trim().split(", ");
  if (each.length < 2 || open.length > PRINT_WIDTH || close.length > PRINT_WIDTH || each.some((n) => n.length + 3 > PRINT_WIDTH)) return undefined;
  return [open, ...each.map((n) => `  ${n},`), close].join("\n");
}

/** `text` split at `, ` outside brackets and strings (`=>` is not a closing bracket). */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let k = 0; k < text.length; k++) {
    const c = text[k]!;
    if (c === '"') k = text.indexOf('"', k + 1);
    else if ("([{<".includes(c)) depth++;
    else if (")]}".includes(c) || (c === ">" && text[k - 1] !== "=")) depth--;
    else if (depth === 0 && text.startsWith(", ", k)) {
      parts.push(text.slice(from, k));
      from = k + 2;
    }
    if (k < 0) return [text];
  }
  parts.push(text.slice(from));
  return parts;
}

/** The index just past the bracket closing the one opening at `open` in `text` (strings skipped, `=>` not a bracket), or undefined. */
function closingBracket(text: string, open: number): number | undefined {
  let depth = 0;
  for (let k = open; k < text.length; k++) {
    const c = text[k]!;
    if (c === '"') {
      k = text.indexOf('"', k + 1);
      if (k < 0) return undefined;
    } else if ("([{<".includes(c)) depth++;
    else if (")]}".includes(c) || (c === ">" && text[k - 1] !== "=")) {
      if (--depth === 0) return k + 1;
    }
  }
  return undefined;
}

/**
 * Whether one line of code (indentation removed) is spaced as prettier spaces it, in a grammar small
 * enough to tell: double-quoted strings without escapes, no template literals or single quotes, one
 * space around binary operators and after commas, none inside brackets, no trailing commas on the
 * line, no operators whose mix prettier parenthesises, no numbers it rewrites, no quoted keys it
 * may unquote, arrow parameters in parentheses, no call chains prettier may break although they fit.
 */
function isCleanCode(line: string): boolean {
  if (/\s$/.test(line) || line.includes("  ") || line.includes("\t")) return false;
  const code = line.replace(/^\/\/ .*$/, "").replace(new RegExp(STRING, "g"), (s) => (s.length > 2 ? '"_"' : '""'));
  if (/["'`\\]/.test(code.replaceAll('"_"', "").replaceAll('""', ""))) return false;
  if (/^\/\//.test(code) || /\/\/|\/\*/.test(code)) return false;
  const bad = [
    / ,|,(?! |$)|,\s*[)\]}]/,
    /\{(?! |\}|$)|(?<=[^ {])\}|\{ \}/,
    /\( |(?<! ) \)|\[ | \]/,
    / ;|;(?! |$)|;;|; \}/,
    /[^\s=!<>+\-*/%&|^?]=(?![=>])|=(?![\s=>])|\S=>|=>(?! |$)/,
    /\S(?:&&|\|\||\?\?|===|!==)|(?:&&|\|\||\?\?|===|!==)\S/,
    /\d\.\d|\d[eE][+-]?\d|\b0[xXbBoO]|%|<<| >>/,
    /"[A-Za-z_$][\w$]*":|"\d[\d.]*":/,
    /(?<![)\]>])\b[\w$]+ =>/,
    /(?:=>|\)|\belse|\btry|\bfinally|\bdo) \{ /,
    /\b(?:if|for|while|switch|catch|function|return|typeof|void|await|throw|delete|in|of|instanceof|case|yield)\(|\bnew [\w$.]+(?![\w$.(<])|! /,
  ];
  if (bad.some((re) => re.test(code))) return false;
  if (code.includes("&&") && code.includes("||")) return false;
  // An else after a statement goes on a line of its own; destructuring patterns prettier may break although they fit.
  if (/; else\b/.test(code) || /^(?:export )?(?:const|let|var) [{[]/.test(code)) return false;
  // Declarators beside one with an initialiser go on lines of their own.
  if (/^(?:export )?(?:const|let|var) /.test(code) && code.includes(" = ") && splitTopLevel(code).length > 1) return false;
  return (code.match(/\)\??\./g) ?? []).length < 2 && groupingParenthesesKept(code);
}

/**
 * Whether every parenthesis that is not a call's, a statement's condition or an arrow function's
 * parameters is one prettier keeps: around an expression whose member is read or which is called.
 * Others (`return (a);`, `typeof (a)`, `(a + b) + c`) it may drop.
 */
function groupingParenthesesKept(code: string): boolean {
  for (let k = code.indexOf("("); k >= 0; k = code.indexOf("(", k + 1)) {
    if (/[\w$)\]>]$|\b(?:if|for|while|switch|catch) $/.test(code.slice(0, k))) continue;
    const end = closingBracket(code, k);
    if (end === undefined || !/^(?:[.[(]| =>|: )/.test(code.slice(end))) return false;
  }
  return true;
}

/**
 * A function declaration (or overload) as prettier prints it: the signature on one line if it fits,
 * else a parameter per line (prettier hugs a lone object-typed parameter: not modelled); a body of
 * lines each within the width and clean (isCleanCode), blocks and expanded object literals indented
 * by two spaces per level, single blank lines only between statements.
 */
function functionDeclaration(lines: readonly string[], i: number): string | undefined {
  const head = lines[i]!;
  const overload = head.endsWith(";");
  const printedHead = printedSignature(head.slice(0, overload ? -1 : -2), "", overload ? ";" : " {");
  if (printedHead === undefined) return undefined;
  if (overload) return lines.length === i + 1 ? [...lines.slice(0, i), ...printedHead].join("\n") : undefined;
  const body = lines.slice(i + 1, -1);
  return lines.at(-1) === "}" && isCleanBody(body) ? [...lines.slice(0, i), ...printedHead, ...body, "}"].join("\n") : undefined;
}

/**
 * A call signature (`name<T>(a: A, b: B): R`, of a function or an interface's method) at `indent`,
 * followed by `ending`, as prettier prints it: on one line if it fits, else a parameter per line
 * (prettier hugs a lone object-typed parameter: not modelled). Undefined outside the grammar.
 */
function printedSignature(signature: string, indent: string, ending: string): string[] | undefined {
  let open = signature.indexOf("(");
  const angle = signature.indexOf("<");
  if (angle >= 0 && angle < open) {
    const end = closingBracket(signature, angle);
    if (end === undefined) return undefined;
    open = end;
  }
  if (signature[open] !== "(") return undefined;
  const close = closingBracket(signature, open);
  if (close === undefined || !signature.startsWith(": ", close) || !isCleanCode(signature)) return undefined;
  if (indent.length + signature.length + ending.length <= PRINT_WIDTH) return [indent + signature + ending];
  const parameters = signature.slice(open + 1, close - 1);
  const returns = signature.slice(close);
  const each = parameters === "" ? [] : splitTopLevel(parameters);
  const prefix = `${indent}${signature.slice(0, open + 1)}`;
  const tail = `${indent})${returns}${ending}`;
  // Beside other parameters an object type stays inline; a lone one prettier hugs.
  if (each.length === 0 || (each.length === 1 && parameters.includes("{")) || returns.includes("{") || prefix.length > PRINT_WIDTH || tail.length > PRINT_WIDTH) return undefined;
  const printed = each.map((p) => `${indent}  ${p}${p.startsWith("...") ? "" : ","}`);
  return printed.some((p) => p.length > PRINT_WIDTH) ? undefined : [prefix, ...printed, tail];
}

/** Block openers after which the lines are statements; any other line ending in `{` opens an expanded object literal. */
const BLOCK_OPENER = /(?:\) \{|=> \{|^(?:try|do) \{|\} (?:else|finally) \{)$/;

/** A function body (see functionDeclaration): every line clean and indented by its nesting, every bracket closed. */
function isCleanBody(body: readonly string[]): boolean {
  // Each open line: whether it opened a block (else an object literal) and the brackets it left open.
  const frames: { block: boolean; brackets: string }[] = [];
  let previous = "{";
  for (const line of body) {
    if (line === "") {
      if (previous === "" || previous.endsWith("{") || frames.at(-1)?.block === false) return false;
      previous = line;
      continue;
    }
    if (line.length > PRINT_WIDTH || !isCleanCode(line.trimStart())) return false;
    let text = line.trimStart();
    if (text.startsWith("}")) {
      if (previous === "") return false;
      const frame = frames.pop();
      if (frame === undefined) return false;
      const closing = [...frame.brackets]
        .reverse()
        .map((b) => ({ "(": ")", "[": "]", "{": "}" })[b])
        .join("");
      if (!text.startsWith(closing)) return false;
      if (line.length - text.length !== 2 + 2 * frames.length) return false;
      text = text.slice(closing.length);
      if (text === " else {" || text === " finally {" || /^ (?:else if|catch) \(.*\) \{$/.test(text)) frames.push({ block: true, brackets: "{" });
      else if (text === "," ? frames.at(-1)?.block !== false : text !== ";" && text !== "") return false;
      previous = line;
      continue;
    }
    // Prettier puts else, catch and finally after the closing brace before them.
    if (line.length - text.length !== 2 + 2 * frames.length || /^(?:else|catch|finally)\b/.test(text)) return false;
    const unclosed = unclosedBrackets(text);
    if (unclosed === undefined) return false;
    const inObject = frames.at(-1)?.block === false;
    if (unclosed === "") {
      if (!(inObject ? text.endsWith(",") : text.endsWith(";"))) return false;
    } else {
      // A block or object opened last on the line, or hugged as a call's last argument; prettier breaks `[{` and deeper nestings.
      if (!/^\(?\{$/.test(unclosed) || !text.endsWith("{")) return false;
      frames.push({ block: BLOCK_OPENER.test(text), brackets: unclosed });
    }
    previous = line;
  }
  return frames.length === 0 && previous !== "";
}

/** The brackets a line leaves open, outermost first; undefined if it closes one it did not open. */
function unclosedBrackets(text: string): string | undefined {
  const stack: string[] = [];
  for (let k = 0; k < text.length; k++) {
    const c = text[k]!;
    if (c === '"') k = text.indexOf('"', k + 1);
    else if ("([{".includes(c)) stack.push(c);
    else if (")]}".includes(c)) {
      const top = stack.pop();
      if (top === undefined || ({ ")": "(", "]": "[", "}": "{" } as const)[c] !== top) return undefined;
    }
  }
  return stack.join("");
}
