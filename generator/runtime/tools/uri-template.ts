// RFC 6570 URI templates (levels 1 to 4): what a server's resource template says a resource URI is,
// expanded from typed parameters by a generated `readResource`, and the variables it names, which the
// generator types.

/** A variable's value: a string, number or boolean, a list of them, or a map of names to them. */
export type UriValue =
  | string
  | number
  | boolean
  | readonly (string | number | boolean)[]
  | { readonly [key: string]: string | number | boolean };

/** One variable of an expression: its name, `*` (explode) and `:n` (prefix). */
export interface UriVariable {
  readonly name: string;
  readonly explode: boolean;
  readonly prefix: number | undefined;
  /** The expression's operator ("" for simple string expansion). */
  readonly operator: string;
}

interface Operator {
  readonly first: string;
  readonly separator: string;
  readonly named: boolean;
  readonly ifEmpty: string;
  readonly reserved: boolean;
}

const OPERATORS: Readonly<Record<string, Operator>> = {
  "": { first: "", separator: ",", named: false, ifEmpty: "", reserved: false },
  "+": { first: "", separator: ",", named: false, ifEmpty: "", reserved: true },
  "#": { first: "#", separator: ",", named: false, ifEmpty: "", reserved: true },
  ".": { first: ".", separator: ".", named: false, ifEmpty: "", reserved: false },
  "/": { first: "/", separator: "/", named: false, ifEmpty: "", reserved: false },
  ";": { first: ";", separator: ";", named: true, ifEmpty: "", reserved: false },
  "?": { first: "?", separator: "&", named: true, ifEmpty: "=", reserved: false },
  "&": { first: "&", separator: "&", named: true, ifEmpty: "=", reserved: false },
};

const EXPRESSION = /\{([^{}]*)\}/g;

/** Every variable of `template`, in order (a name used twice is listed twice). */
export function uriTemplateVariables(template: string): UriVariable[] {
  const out: UriVariable[] = [];
  for (const match of template.matchAll(EXPRESSION)) {
    const body = match[1]!;
    const operator = body !== "" && body[0]! in OPERATORS ? body[0]! : "";
    for (const spec of body.slice(operator.length).split(",")) {
      const explode = spec.endsWith("*");
      const [name, prefix] = (explode ? spec.slice(0, -1) : spec).split(":");
      if (name === undefined || name === "") continue;
      out.push({
        name,
        explode,
        prefix: prefix === undefined ? undefined : Number(prefix),
        operator,
      });
    }
  }
  return out;
}

/** The URI `template` names for `values`; a variable left out (or undefined) is left out, as RFC 6570 §3.2.1 says. */
export function expandUriTemplate(
  template: string,
  values: { readonly [name: string]: UriValue | undefined },
): string {
  return template.replace(EXPRESSION, (_, body: string) => {
    const operator = body !== "" && body[0]! in OPERATORS ? body[0]! : "";
    const op = OPERATORS[operator]!;
    const parts: string[] = [];
    for (const variable of uriTemplateVariables(`{${body}}`)) {
      const value = Object.prototype.hasOwnProperty.call(values, variable.name)
        ? values[variable.name]
        : undefined;
      const part = value === undefined ? undefined : expandValue(op, variable, value);
      if (part !== undefined) parts.push(part);
    }
    return parts.length === 0 ? "" : op.first + parts.join(op.separator);
  });
}

function expandValue(op: Operator, variable: UriVariable, value: UriValue): string | undefined {
  const enc = (text: string): string => encode(text, op.reserved);
  const named = (name: string, text: string): string =>
    op.named ? (text === "" ? name + op.ifEmpty : `${name}=${text}`) : text;
  if (typeof value !== "object") {
    const text = String(value);
    const cut = variable.prefix === undefined ? text : [...text].slice(0, variable.prefix).join("");
    return named(variable.name, enc(cut));
  }
  const pairs: [string, string][] = Array.isArray(value)
    ? value.map((v): [string, string] => ["", String(v)])
    : Object.entries(value).map(([k, v]): [string, string] => [k, String(v)]);
  if (pairs.length === 0) return undefined;
  const isList = Array.isArray(value);
  if (variable.explode) {
    return pairs
      .map(([k, v]) =>
        isList
          ? named(variable.name, enc(v))
          : op.named || k !== ""
            ? `${enc(k)}=${enc(v)}`
            : enc(v),
      )
      .join(op.separator);
  }
  const joined = pairs.map(([k, v]) => (isList ? enc(v) : `${enc(k)},${enc(v)}`)).join(",");
  return named(variable.name, joined);
}

/** Percent-encodes all but unreserved characters (and, for `+`/`#`, reserved ones and existing escapes). */
function encode(text: string, reserved: boolean): string {
  const allowed = reserved ? /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]/ : /[A-Za-z0-9\-._~]/;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (reserved && ch === "%" && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      out += text.slice(i, i + 3);
      i += 2;
    } else if (allowed.test(ch)) out += ch;
    else {
      const code = text.codePointAt(i)!;
      const char = String.fromCodePoint(code);
      out += encodeURIComponent(char).replace(
        /[!'()*]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      );
      i += char.length - 1;
    }
  }
  return out;
}
