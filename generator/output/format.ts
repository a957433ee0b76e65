import type { EmittedFile } from "../emit/emitted.ts";

/**
 * How generated modules are printed. `babel-ts` rather than `typescript`: both print these modules
 * alike (test/output/format.test.ts checks the output under `typescript`), and babel's parser loads and runs
 * about a fifth faster on a cold run.
 */
export const PRETTIER_OPTIONS = { parser: "babel-ts", printWidth: 100, trailingComma: "all", endOfLine: "lf" } as const;

/**
 * Formats every emitted file with prettier, one call per module, in the order given. Copied runtime
 * sources (`verbatim`) are already formatted (the repository's prettier check holds them to these
 * options) and pass through. Prettier is imported here, on demand, so a run with nothing to render
 * never loads it; its standalone build with the two plugins `babel-ts` needs, since options are fixed
 * here and nothing is read from a prettier config (a third less code to load). Rejects naming the
 * first file prettier refused.
 */
export async function formatFiles(files: readonly EmittedFile[]): Promise<EmittedFile[]> {
  const [{ format }, babel, estree] = await Promise.all([
    import("prettier/standalone"),
    import("prettier/plugins/babel"),
    import("prettier/plugins/estree"),
  ]);
  const options = { ...PRETTIER_OPTIONS, plugins: [babel, estree] };
  const formatted: EmittedFile[] = [];
  for (const file of files) {
    if (file.verbatim) {
      formatted.push({ path: file.path, content: file.content });
      continue;
    }
    try {
      formatted.push({ path: file.path, content: await format(file.content, options) });
    } catch (error) {
      throw new Error(`prettier could not format ${file.path}: ${(error as Error).message}`, { cause: error });
    }
  }
  return formatted;
}
