import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { EmittedFile } from "./emitted.ts";

const RUNTIME_DIR = fileURLToPath(new URL("../runtime/", import.meta.url));

/** Output folder of the shared runtime, relative to `generated/`; release folders import `../runtime/<module>.js`. */
export const RUNTIME_FOLDER = "runtime";

/**
 * Every module of generator/runtime/, as text, for `generated/runtime/`: adding a file there is
 * all it takes to ship it. Copied verbatim (comments and formatting included); only the header
 * and, for `.ts` imports, the specifiers change on the way out.
 */
export function runtimeFiles(): EmittedFile[] {
  return readdirSync(RUNTIME_DIR)
    .filter((name) => name.endsWith(".ts"))
    .sort()
    .map((name) => ({
      path: `${RUNTIME_FOLDER}/${name}`,
      content: readFileSync(RUNTIME_DIR + name, "utf8"),
      verbatim: true,
    }));
}

/** The specifier a module of a release folder (`depth` 1) or of the root (`depth` 0) uses for a runtime module. */
export function runtimeImport(module: string, depth: 0 | 1): string {
  return `${depth === 0 ? "./" : "../"}${RUNTIME_FOLDER}/${module}.js`;
}
