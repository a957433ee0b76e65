// A project's tsconfig.json as `init` needs it: the compilerOptions that apply once `extends` is followed as tsc follows
// it. A base is a path relative to the file that names it (".json" added when missing) or a package path looked up in
// node_modules; an array applies in order, later bases winning, and a file's own compilerOptions win over its bases.
// What cannot be read is reported, never fatal: init proposes from the rest and says what it could not read.
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { isObject } from "../runtime/core/json.ts";

export interface TsconfigOption {
  readonly value: unknown;
  /** The file that set it. */
  readonly file: string;
}

export interface Tsconfig {
  readonly options: ReadonlyMap<string, TsconfigOption>;
  /** What was not read (a file that is not JSON, a base not found, a cycle), one clause each, paths relative to the project. */
  readonly problems: readonly string[];
}

/** The compilerOptions of `file` after its `extends`; paths in `problems` are relative to `root`. */
export function readTsconfig(file: string, root: string): Tsconfig {
  const problems: string[] = [];
  const options = readChain(file, [file], (path) => relative(root, path).split(sep).join("/"), problems);
  return { options, problems };
}

function readChain(
  file: string,
  chain: readonly string[],
  show: (path: string) => string,
  problems: string[],
): Map<string, TsconfigOption> {
  const options = new Map<string, TsconfigOption>();
  let doc: unknown;
  try {
    doc = JSON.parse(stripJsonComments(readFileSync(file, "utf8")));
  } catch {
    problems.push(`${show(file)} could not be read as JSON`);
    return options;
  }
  if (!isObject(doc)) return options;
  const bases =
    typeof doc["extends"] === "string"
      ? [doc["extends"]]
      : Array.isArray(doc["extends"])
        ? (doc["extends"] as unknown[])
        : [];
  for (const spec of bases) {
    const base = typeof spec === "string" ? findBase(spec, file) : undefined;
    if (base === undefined) problems.push(`the base ${JSON.stringify(spec)} that ${show(file)} extends was not found`);
    else if (chain.includes(base))
      problems.push(`${show(file)} extends ${show(base)}, which extends it in turn: not followed again`);
    else for (const [name, option] of readChain(base, [...chain, base], show, problems)) options.set(name, option);
  }
  const own = doc["compilerOptions"];
  if (isObject(own)) for (const name of Object.keys(own)) options.set(name, { value: own[name], file });
  return options;
}

/** Where tsc finds the base `spec` named in `from`, or undefined. */
function findBase(spec: string, from: string): string | undefined {
  if (isAbsolute(spec) || spec.startsWith("./") || spec.startsWith("../")) {
    const path = resolve(dirname(from), spec);
    return isFile(path) ? path : !path.endsWith(".json") && isFile(`${path}.json`) ? `${path}.json` : undefined;
  }
  // A package path: Node's resolution (node_modules upwards, `exports` honoured), as a JSON file.
  const require = createRequire(from);
  try {
    return require.resolve(spec.endsWith(".json") ? spec : `${spec}.json`);
  } catch {
    // Not a file of that name: perhaps a package or a folder, below.
  }
  // A package named alone, or a folder in one: its package.json's "tsconfig" field, else its tsconfig.json.
  for (const modules of require.resolve.paths(spec) ?? []) {
    const dir = join(modules, spec);
    if (!isDirectory(dir)) continue;
    const field = packageTsconfigField(join(dir, "package.json"));
    for (const candidate of field === undefined
      ? [join(dir, "tsconfig.json")]
      : [join(dir, field), join(dir, "tsconfig.json")])
      if (isFile(candidate)) return candidate;
  }
  return undefined;
}

function packageTsconfigField(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const doc = JSON.parse(readFileSync(file, "utf8")) as unknown;
    return isObject(doc) && typeof doc["tsconfig"] === "string" ? doc["tsconfig"] : undefined;
  } catch {
    return undefined;
  }
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/** tsconfig.json is JSON with comments and trailing commas. */
function stripJsonComments(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      i = text.indexOf("*/", i + 2);
      if (i < 0) break;
      i++;
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}
