import { SIDES, SUBJECT_ORDER, type Change, type DiffReport, type Side, type SubjectKind } from "./change.ts";
import { isBreaking } from "./index.ts";

const GROUP_TITLE: Record<SubjectKind, string> = {
  protocol: "Protocol",
  method: "Methods",
  definition: "Definitions",
  "error-code": "Error codes",
  "meta-key": "Reserved `_meta` keys",
};

/**
 * A report for a pull request: counts first, then what breaks the chosen side(s), then the
 * rest, each grouped under the method, type, code or key it concerns.
 */
export function renderMarkdown(diff: DiffReport, side: Side | "both" = "both"): string {
  const lines: string[] = [`# MCP schema changes: ${diff.old.version} → ${diff.new.version}`, ""];
  if (diff.old.era !== diff.new.era) lines.push(`Era: **${diff.old.era} → ${diff.new.era}**.`, "");
  if (side !== "both") lines.push(`Showing changes that concern the **${side}** side.`, "");
  if (diff.changes.length === 0) {
    lines.push("No changes.", "");
    return lines.join("\n");
  }
  const sides = side === "both" ? SIDES : [side];
  lines.push("## Summary", "", `| | changes | ${sides.map((s) => `breaking for ${s}s`).join(" | ")} |`, `|---|--:|${sides.map(() => "--:|").join("")}`);
  lines.push(`| total | ${diff.summary.total} | ${sides.map((s) => diff.summary.breaking[s]).join(" | ")} |`);
  const ids = Object.keys(diff.summary.byId).sort() as (keyof typeof diff.summary.byId)[];
  for (const id of ids) {
    const of = diff.changes.filter((c) => c.id === id);
    lines.push(`| \`${id}\` | ${of.length} | ${sides.map((s) => of.filter((c) => c.severity[s] === "breaking").length).join(" | ")} |`);
  }
  lines.push("");
  const breaking = diff.changes.filter((c) => isBreaking(c, side));
  const rest = diff.changes.filter((c) => !isBreaking(c, side));
  section(lines, "Breaking changes", breaking, sides, diff.methodsOf);
  section(lines, breaking.length > 0 ? "Other changes" : "Changes", rest, sides, diff.methodsOf);
  return lines.join("\n");
}

function section(lines: string[], title: string, changes: readonly Change[], sides: readonly Side[], methodsOf: DiffReport["methodsOf"]): void {
  if (changes.length === 0) return;
  lines.push(`## ${title} (${changes.length})`, "");
  for (const kind of SUBJECT_ORDER) {
    const group = changes.filter((c) => c.subjectKind === kind);
    if (group.length === 0) continue;
    lines.push(`### ${GROUP_TITLE[kind]}`, "");
    let subject: string | undefined;
    for (const c of group) {
      if (c.subject !== subject) {
        if (subject !== undefined) lines.push("");
        subject = c.subject;
        // Shared types (content blocks, capabilities) serve many methods; name them only where that helps.
        const methods = c.subjectKind === "definition" ? (methodsOf[c.subject] ?? []) : [];
        const used = methods.length > 0 && methods.length <= 3 ? ` (${methods.map((m) => `\`${m}\``).join(", ")})` : "";
        lines.push(`#### \`${c.subject}\`${used}`, "");
      }
      lines.push(`- ${c.message} — ${sides.map((s) => `${s}: ${c.severity[s] === "breaking" ? "**breaking**" : c.severity[s]}`).join(", ")} ${where(c)}`);
    }
    lines.push("");
  }
}

function where(c: Change): string {
  const parts = [`\`${c.id}\``];
  if (c.oldPointer !== null) parts.push(`old \`#${c.oldPointer}\``);
  if (c.newPointer !== null) parts.push(`new \`#${c.newPointer}\``);
  return `<sub>${parts.join(" · ")}</sub>`;
}
