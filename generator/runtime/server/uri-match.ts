// RFC 6570 URI templates, levels 1 to 3, read backwards: which URIs a resource template covers and
// the values of its variables. Level 4 modifiers (`:n`, `*`) are refused when the template is
// compiled, since a prefix or an exploded list cannot be read back from a URI unambiguously.

/** How an operator expands (RFC 6570 section 3.2.1, the table of `first`, `sep`, `named`, `allow`). */
interface Operator {
  readonly first: string;
  readonly sep: string;
  /** `;`, `?` and `&` write `name=value`. */
  readonly named: boolean;
  /** `+` and `#` let reserved characters through, so a value may hold `/`. */
  readonly reserved: boolean;
}

const OPERATORS: { readonly [op: string]: Operator } = {
  "": { first: "", sep: ",", named: false, reserved: false },
  "+": { first: "", sep: ",", named: false, reserved: true },
  "#": { first: "#", sep: ",", named: false, reserved: true },
  ".": { first: ".", sep: ".", named: false, reserved: false },
  "/": { first: "/", sep: "/", named: false, reserved: false },
  ";": { first: ";", sep: ";", named: true, reserved: false },
  "?": { first: "?", sep: "&", named: true, reserved: false },
  "&": { first: "&", sep: "&", named: true, reserved: false },
};

type Trim<S extends string> = S extends ` ${infer R}`
  ? Trim<R>
  : S extends `${infer R} `
    ? Trim<R>
    : S;
type Names<List extends string> = List extends `${infer Head},${infer Rest}`
  ? Trim<Head> | Names<Rest>
  : Trim<List>;
type ExpressionNames<E extends string> = E extends `${"+" | "#" | "." | "/" | ";"}${infer List}`
  ? { required: Names<List>; optional: never }
  : E extends `${"?" | "&"}${infer List}`
    ? { required: never; optional: Names<List> }
    : { required: Names<E>; optional: never };
type Expressions<T extends string> = T extends `${string}{${infer E}}${infer Rest}`
  ? E | Expressions<Rest>
  : never;

/** The variables of a template known only as a `string`. */
type AnyVariables = { readonly [name: string]: string | undefined };

/**
 * The variables a template's URIs carry, from its literal: `"file:///{path}{?rev}"` gives
 * `{ path: string; rev?: string }` (query variables may be left out of a URI, the others may not).
 */
export type UriTemplateVariables<T extends string> = string extends T
  ? AnyVariables
  : {
      readonly [K in ExpressionNames<Expressions<T>>["required"]]: string;
    } & {
      readonly [K in ExpressionNames<Expressions<T>>["optional"]]?: string;
    };

/** A compiled template: `match` reads a URI's variables, undefined when the template does not cover it. */
export interface UriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  match(uri: string): { [name: string]: string } | undefined;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * Compiles `template` (levels 1 to 3). Throws a `SyntaxError` for an unclosed brace, an empty or
 * malformed variable name, or a level 4 modifier: a template is the server author's, not a peer's.
 */
export function compileUriTemplate(template: string): UriTemplate {
  const variables: string[] = [];
  /** Per capture group, in order: the variable it holds, or a named expression's whole text. */
  const groups: { readonly names: readonly string[]; readonly op: Operator }[] = [];
  let pattern = "^";
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf("{", at);
    if (open === -1) {
      pattern += escape(template.slice(at));
      break;
    }
    const close = template.indexOf("}", open);
    if (close === -1) throw new SyntaxError(`URI template ${template}: unclosed "{"`);
    pattern += escape(template.slice(at, open));
    const body = template.slice(open + 1, close);
    const opChar = /^[+#./;?&]/.test(body) ? body[0]! : "";
    const op = OPERATORS[opChar]!;
    const names = body.slice(opChar.length).split(",");
    for (const name of names)
      if (!/^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/.test(name))
        throw new SyntaxError(
          `URI template ${template}: ${JSON.stringify(name)} is no level 1-3 variable`,
        );
    variables.push(...names);
    // A value holds no separator of its operator; lazy, so a literal after it (`{name}.json`) still matches.
    const value = op.reserved
      ? names.length === 1
        ? ".*?"
        : "[^,]*?"
      : opChar === "."
        ? "[^/?#.,]*?"
        : "[^/?#,]*?";
    if (op.named) {
      // Named pairs may be left out or reordered; the whole expression is read as one group, of its own names only
      // (a later `{&page}` reads the rest).
      const pair = `(?:${names.map(escape).join("|")})(?:=[^/?#&;]*)?`;
      pattern += `((?:${escape(op.first)}${pair}(?:${escape(op.sep)}${pair})*)?)`;
      groups.push({ names, op });
    } else {
      pattern += escape(op.first) + names.map(() => `(${value})`).join(escape(op.sep));
      for (const name of names) groups.push({ names: [name], op });
    }
    at = close + 1;
  }
  const regex = new RegExp(pattern + "$");
  return {
    template,
    variables,
    match(uri) {
      const found = regex.exec(uri);
      if (found === null) return undefined;
      const values: { [name: string]: string } = {};
      for (let i = 0; i < groups.length; i++) {
        const { names, op } = groups[i]!;
        const text = found[i + 1] ?? "";
        if (!op.named) {
          const value = decode(text);
          if (value === undefined) return undefined;
          values[names[0]!] = value;
          continue;
        }
        if (text === "") continue;
        for (const pair of text.slice(op.first.length).split(op.sep)) {
          const eq = pair.indexOf("=");
          const name = eq === -1 ? pair : pair.slice(0, eq);
          if (!names.includes(name)) return undefined;
          const value = decode(eq === -1 ? "" : pair.slice(eq + 1));
          if (value === undefined) return undefined;
          values[name] = value;
        }
      }
      return values;
    },
  };
}
