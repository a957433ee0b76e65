import { readFileSync } from "node:fs";
import { formatDiagnostics, STRICT_OPTIONS, typecheck } from "./typecheck.ts";

const MARKER = "// @ts-expect-error";

/**
 * A compile fixture (test/compile/) checked on its own under the strict flags: `diagnostics` should be empty (an unused
 * marker is itself TS2578), and `unmarked` lists the lines that fail once every `// @ts-expect-error` is taken out, so a
 * test can hold each marker to a mistake of its own line.
 */
export function checkFixture(file: string): { diagnostics: string; markers: number[]; unmarked: number[] } {
  const text = readFileSync(file, "utf8");
  const markers = text.split("\n").flatMap((line, i) => (line.trim().startsWith(MARKER) ? [i + 2] : []));
  const stripped = typecheck([file], STRICT_OPTIONS, (path, source) =>
    path === file ? source.replaceAll(MARKER, "//") : source,
  );
  return {
    diagnostics: formatDiagnostics(typecheck([file])),
    markers,
    unmarked: [...new Set(stripped.filter((d) => d.file === file).map((d) => d.line))].sort((a, b) => a - b),
  };
}
