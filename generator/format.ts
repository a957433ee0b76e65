import { format } from "prettier";
import type { EmittedFile } from "./emit/emitted.ts";

const OPTIONS = { parser: "typescript", printWidth: 100, trailingComma: "all", endOfLine: "lf" } as const;

/** Formats every emitted file with prettier; output is stable for stable input. */
export async function formatFiles(files: readonly EmittedFile[]): Promise<EmittedFile[]> {
  return Promise.all(files.map(async (f) => ({ path: f.path, content: await format(f.content, OPTIONS) })));
}
