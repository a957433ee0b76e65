import type { JSDocStructure, OptionalKind } from "ts-morph";

const LINK = /\{@link\s+([^}|]*)\}/g;

/**
 * Restores `{@link Target | label}` links that the schema export glued together
 * (`{@link CallToolRequesttools/call}`): the target is the longest prefix that names a
 * definition of this version, the rest is the label. Links that already name a definition,
 * point into one (`Tool.outputSchema`), already have a label, or name nothing known are left
 * as they are.
 */
export function repairLinks(text: string, definitions: ReadonlySet<string>): string {
  return text.replace(LINK, (whole, content: string) => {
    if (definitions.has(content)) return whole;
    for (let end = content.length - 1; end > 0; end--) {
      const target = content.slice(0, end);
      if (!definitions.has(target)) continue;
      const label = content.slice(end);
      return /^[.\s]/.test(label) ? whole : `{@link ${target} | ${label}}`;
    }
    return whole;
  });
}

/**
 * A description as JSDoc text: links repaired, `*\/` escaped so it cannot end the comment early, and a `@` that starts
 * a line escaped (`\@`, which markdown hovers show as `@`) so prose such as a tool's "@deprecated …" is no block tag.
 */
export function docText(description: string, definitions: ReadonlySet<string>): string {
  return repairLinks(description.replace(/\r\n?/g, "\n"), definitions)
    .replace(/\*\//g, "*\\/")
    .replace(/^([ \t]*)@/gm, "$1\\@");
}

/** The `docs` of a structure: the description (if any) and `@deprecated` (if so); none when both are absent. */
export function docs(
  description: string | undefined,
  deprecated: boolean,
  definitions: ReadonlySet<string>,
): OptionalKind<JSDocStructure>[] {
  if (description === undefined && !deprecated) return [];
  return [
    {
      ...(description !== undefined ? { description: docText(description, definitions) } : {}),
      ...(deprecated ? { tags: [{ tagName: "deprecated" }] } : {}),
    },
  ];
}
