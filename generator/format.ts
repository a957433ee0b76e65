import { format } from "prettier";
import type { EmittedFile } from "./emit/emitted.ts";

/** How generated modules are printed; any prettier parser for TypeScript must print them identically. */
export const PRETTIER_OPTIONS = { printWidth: 100, trailingComma: "all", endOfLine: "lf" } as const;

/**
 * `babel-ts` rather than `typescript`: on the generated modules both print the same bytes (a test
 * holds them to that), and babel's parser loads and runs about twice as fast as typescript-estree.
 */
const OPTIONS = { ...PRETTIER_OPTIONS, parser: "babel-ts" } as const;

/** Formats every emitted file with prettier, except copied runtime sources (already formatted); output is stable for stable input. */
export async function formatFiles(files: readonly EmittedFile[]): Promise<EmittedFile[]> {
  return Promise.all(files.map(async (f) => (f.verbatim ? f : { path: f.path, content: await format(f.content, OPTIONS) })));
}
