import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { checkOut, CONFIG_FILE, type ImportExtension } from "./config.ts";
import { BindgenError, OutputRefusedError, UsageError } from "../common/failures.ts";
import { guardOutput } from "../output/ownership.ts";
import { chosenReleases, PACKAGE_LOCK, PACKAGE_ROOT, packageVersion, PROJECT_LOCK_FILE } from "./project.ts";
import { parseJson } from "../load/read.ts";
import { packageManager, type PackageManager } from "./package-manager.ts";
import { readTsconfig } from "./tsconfig.ts";
import { atomicWriteFile } from "../common/files.ts";
import { EXTRA_NAMES, isExtraName, type ExtraName } from "../common/extras.ts";
import { missingExtraPackages } from "./extra-packages.ts";

export interface InitOptions {
  /** Where to start looking for the project (the nearest folder with a package.json); default the working directory. */
  readonly cwd?: string;
  /** Output folder, relative to the project (default `src/mcp`). */
  readonly out?: string;
  /** Releases to generate (default: every release the package knows). */
  readonly releases?: readonly string[];
  /** Default: proposed from the project's tsconfig.json. */
  readonly importExtension?: ImportExtension;
  /** Optional runtime parts to generate too (common/extras.ts); each needs its package installed. */
  readonly extras?: readonly string[];
  /** Replace an existing config that says something else. */
  readonly force?: boolean;
}

export interface InitResult {
  readonly configFile: string;
  /** The output folder, relative to the project, with "/" separators. */
  readonly out: string;
  readonly config: "created" | "replaced" | "unchanged";
  /** The package.json script that runs `mcp-bindgen generate`, and whether init added it. */
  readonly script: { readonly name: string; readonly added: boolean } | undefined;
  /** Why importExtension has its value. */
  readonly importExtensionReason: string;
  /** Ignore files of the project's formatter and linter that exist, and whether init added `out` to each. */
  readonly ignores: readonly { readonly file: string; readonly added: boolean }[];
  /** An ESLint flat config, which is code: init names it, and the user adds `out` to its ignores. */
  readonly eslintFlatConfig: string | undefined;
  /** Whether package.json leaves the package CommonJS (no `"type": "module"`). */
  readonly commonjs: boolean;
  /** The project's package manager (its lockfile, else the one running init), for the commands init names. */
  readonly packageManager: PackageManager;
  /** For each optional part asked for whose package the project lacks, what to install. */
  readonly missingPackages: readonly string[];
}

const DEFAULT_OUT = "src/mcp";

/**
 * `mcp-bindgen init`: writes the project's config and a script that runs the generator.
 * Running it again with the same answers changes nothing; a config that says something else is
 * replaced only with `force`.
 */
export function init(options: InitOptions = {}): InitResult {
  const start = resolve(options.cwd ?? process.cwd());
  const root = packageDir(start);
  const packageFile = join(root, "package.json");
  const configFile = join(root, CONFIG_FILE);
  const out = options.out ?? DEFAULT_OUT;
  try {
    // A folder generate would refuse (someone's files, a package's folder) is refused here already, before any config names it.
    guardOutput(checkOut("--out", root, out));
  } catch (err) {
    throw err instanceof BindgenError && !(err instanceof OutputRefusedError) ? new UsageError(err.message) : err;
  }
  const store = {
    cacheDir: "",
    lockFile: root === PACKAGE_ROOT ? PACKAGE_LOCK : join(root, PROJECT_LOCK_FILE),
    packageLock: PACKAGE_LOCK,
  };
  const releases = chosenReleases(
    {
      paths: store,
      releases: options.releases && options.releases.length > 0 ? options.releases : undefined,
      configFile: undefined,
    },
    true,
  );
  const extras = [...new Set(options.extras ?? [])].sort();
  const unknown = extras.find((name) => !isExtraName(name));
  if (unknown !== undefined)
    throw new UsageError(
      `--extras: unknown part "${unknown}"; the optional runtime parts are ${EXTRA_NAMES.map((n) => `"${n}"`).join(", ")}`,
    );
  const proposed = options.importExtension
    ? { ext: options.importExtension, reason: "--import-extension" }
    : proposeImportExtension(root);
  const text =
    JSON.stringify(
      {
        $schema: schemaReference(root),
        out: out.split(sep).join("/"),
        releases,
        importExtension: proposed.ext,
        ...(extras.length > 0 ? { extras } : {}),
      },
      null,
      2,
    ) + "\n";

  // package.json is read and checked before anything is written, so a broken one leaves no half set-up behind.
  const script = planScript(packageFile);
  const ignores = planIgnores(root, out.split(sep).join("/"));
  let config: InitResult["config"] = "created";
  if (existsSync(configFile)) {
    if (readFileSync(configFile, "utf8") === text) config = "unchanged";
    else if (!options.force)
      throw new BindgenError(
        configFile,
        "",
        "no config yet (init never overwrites one)",
        "it says something else; edit it, or run init again with --force to replace it",
      );
    else config = "replaced";
  }
  if (config !== "unchanged") atomicWriteFile(configFile, text);
  script.write?.();
  for (const ignore of ignores) ignore.write?.();
  return {
    configFile,
    out: out.split(sep).join("/").replace(/^\.\//, "").replace(/\/$/, ""),
    config,
    script: script.result,
    importExtensionReason: proposed.reason,
    ignores: ignores.map(({ file, added }) => ({ file, added })),
    eslintFlatConfig: ESLINT_FLAT_CONFIGS.map((name) => join(root, name)).find((file) => existsSync(file)),
    commonjs: script.commonjs,
    packageManager: packageManager(root, process.env["npm_config_user_agent"]),
    missingPackages: missingExtraPackages(root, extras as ExtraName[]),
  };
}

/**
 * The output is formatted by mcp-bindgen the same whatever the project's prettier config says, and checked where it
 * is written, so the project's own formatter and linter are told to leave it alone: `out` is appended to the ignore
 * files that exist (none is created), once.
 */
const IGNORE_FILES = [".prettierignore", ".eslintignore"];
const ESLINT_FLAT_CONFIGS = [
  "eslint.config.js",
  "eslint.config.mjs",
  "eslint.config.cjs",
  "eslint.config.ts",
  "eslint.config.mts",
  "eslint.config.cts",
];

function planIgnores(root: string, out: string): { file: string; added: boolean; write?: () => void }[] {
  const entry = `/${out.replace(/^\.\//, "").replace(/\/$/, "")}/`;
  return IGNORE_FILES.map((name) => join(root, name))
    .filter((file) => existsSync(file))
    .map((file) => {
      const text = readFileSync(file, "utf8");
      const bare = entry.slice(1, -1);
      const listed = text.split(/\r?\n/).some((line) => [entry, bare, `/${bare}`, `${bare}/`].includes(line.trim()));
      if (listed) return { file, added: false };
      const separator = text === "" || text.endsWith("\n") ? "" : "\n";
      return {
        file,
        added: true,
        write: () =>
          atomicWriteFile(file, `${text}${separator}# generated by mcp-bindgen, formatted by it\n${entry}\n`),
      };
    });
}

function packageDir(start: string): string {
  for (let at = start; ; at = dirname(at)) {
    if (existsSync(join(at, "package.json"))) return at;
    if (dirname(at) === at)
      throw new BindgenError(
        join(start, "package.json"),
        "",
        "a package.json here or in a folder above (run init in your project; npm init creates one)",
        "none found",
      );
  }
}

/** `$schema` for editors: the package's own copy, relative when the package is installed in the project. */
function schemaReference(root: string): string {
  const rel = relative(root, join(PACKAGE_ROOT, "config.schema.json")).split(sep).join("/");
  if (!rel.startsWith("..")) return rel.startsWith(".") ? rel : `./${rel}`;
  return `https://unpkg.com/mcp-bindgen@${packageVersion()}/config.schema.json`;
}

/**
 * `.ts` when the project's tsconfig (with what it extends) lets source import `.ts` files (type
 * stripping, Deno, Bun setups), else `.js`, which nodenext and bundler resolution both accept.
 */
export function proposeImportExtension(root: string): { ext: ImportExtension; reason: string } {
  const file = join(root, "tsconfig.json");
  if (!existsSync(file))
    return { ext: ".js", reason: "no tsconfig.json: .js works under nodenext and bundler resolution" };
  const { options, problems } = readTsconfig(file, root);
  const unread = problems.length > 0 ? `, as far as could be read: ${problems.join("; ")}` : "";
  for (const flag of ["rewriteRelativeImportExtensions", "allowImportingTsExtensions"]) {
    const option = options.get(flag);
    if (option?.value !== true) continue;
    const where = option.file === file ? "" : ` (in ${relative(root, option.file).split(sep).join("/")})`;
    return { ext: ".ts", reason: `tsconfig.json sets ${flag}${where}${unread}` };
  }
  return { ext: ".js", reason: `tsconfig.json does not allow .ts imports${unread}` };
}

const GENERATE_SCRIPT = "mcp-bindgen generate";

/** The `generate` script to add to package.json (or, when that name is taken, `mcp:generate`), keeping its layout; written by `write`. */
function planScript(packageFile: string): {
  readonly result: InitResult["script"];
  readonly commonjs: boolean;
  readonly write?: () => void;
} {
  const text = readFileSync(packageFile, "utf8");
  const doc = parseJson(packageFile, Buffer.from(text)) as { scripts?: Record<string, string>; type?: unknown };
  if (typeof doc !== "object" || doc === null || Array.isArray(doc))
    throw new BindgenError(packageFile, "", "an object");
  const commonjs = doc.type !== "module";
  const scripts = doc.scripts ?? {};
  const existing = Object.keys(scripts).find((name) =>
    /(?:^|[\s/])mcp-bindgen\s+generate(?:\s|$)/.test(String(scripts[name])),
  );
  if (existing) return { result: { name: existing, added: false }, commonjs };
  const name =
    scripts["generate"] === undefined ? "generate" : scripts["mcp:generate"] === undefined ? "mcp:generate" : undefined;
  if (!name) return { result: undefined, commonjs };
  doc.scripts = { ...scripts, [name]: GENERATE_SCRIPT };
  const indent = /^[ \t]+/m.exec(text)?.[0] ?? "  ";
  return {
    result: { name, added: true },
    commonjs,
    write: () => atomicWriteFile(packageFile, JSON.stringify(doc, null, indent) + (text.endsWith("\n") ? "\n" : "")),
  };
}
