import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isExtraName, type ExtraName } from "../common/extras.ts";
import type { EmittedFile } from "./emitted.ts";

const RUNTIME_DIR = fileURLToPath(new URL("../runtime/", import.meta.url));

/** Output folder of the shared runtime, relative to `generated/`; release folders import `../runtime/<part>/<module>.js`. */
export const RUNTIME_FOLDER = "runtime";

/**
 * The runtime's modules by part (`core/`, `validation/`, `tools/`, `server/`, `client/`), as paths
 * relative to generator/runtime/: the output keeps the same layout, so a module's relative imports
 * hold there unchanged.
 */
function runtimeModules(): string[] {
  return readdirSync(RUNTIME_DIR, { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".ts"))
    .map((path) => path.split("\\").join("/"))
    .sort();
}

/** The optional part (common/extras.ts) a runtime module belongs to, if any. */
function extraOf(path: string): ExtraName | undefined {
  const part = path.slice(0, path.indexOf("/"));
  return isExtraName(part) ? part : undefined;
}

/**
 * Every module of generator/runtime/, as text, for `generated/runtime/`: adding a file there is
 * all it takes to ship it; an optional part's modules only when `extras` names it. Copied verbatim
 * (comments and formatting included); only the header and, for `.ts` imports, the specifiers
 * change on the way out.
 */
export function runtimeFiles(extras: readonly ExtraName[]): EmittedFile[] {
  const asked = new Set<string>(extras);
  return runtimeModules()
    .filter((path) => {
      const extra = extraOf(path);
      return extra === undefined || asked.has(extra);
    })
    .map((path) => ({
      path: `${RUNTIME_FOLDER}/${path}`,
      content: readFileSync(RUNTIME_DIR + path, "utf8"),
      verbatim: true,
    }));
}

let partOf: Map<string, string> | undefined;

/**
 * The specifier a module of a release folder (`depth` 1) or of the root (`depth` 0) uses for a
 * runtime module, named without its part (`"connect"`); module names are unique across parts.
 */
export function runtimeImport(module: string, depth: 0 | 1): string {
  partOf ??= new Map(runtimeModules().map((path) => [path.slice(path.lastIndexOf("/") + 1, -3), path]));
  const path = partOf.get(module);
  if (path === undefined) throw new Error(`No runtime module named ${module}`);
  return `${depth === 0 ? "./" : "../"}${RUNTIME_FOLDER}/${path.slice(0, -3)}.js`;
}
