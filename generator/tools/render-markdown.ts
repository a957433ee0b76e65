import type { Severity } from "../diff/change.ts";
import type { ToolChange, ToolChangeId, ToolsDiffReport } from "./compare.ts";

const ICON: Record<Severity, string> = { breaking: "🔴", compatible: "🟢", none: "⚪" };

/** What a maintainer acts on, in the order the summary lists it. */
const TOPICS: readonly { readonly title: string; readonly ids: readonly ToolChangeId[] }[] = [
  { title: "Tools removed", ids: ["tool-removed"] },
  { title: "Tools added", ids: ["tool-added"] },
  { title: "New required arguments", ids: ["argument-added", "argument-became-required"] },
  { title: "Arguments removed or optional", ids: ["argument-removed", "argument-became-optional"] },
  {
    title: "Structured results",
    ids: [
      "output-schema-added",
      "output-schema-removed",
      "property-added",
      "property-removed",
      "property-became-required",
      "property-became-optional",
    ],
  },
  { title: "Types", ids: ["type-narrowed", "type-widened", "type-changed"] },
  { title: "Annotations and descriptions", ids: ["annotation-changed", "description-changed"] },
];

/** The tools diff in the spec diff's form: the breaking count, a summary, then every change under its tool. */
export function renderToolsMarkdown(
  report: ToolsDiffReport,
  options: { readonly breakingOnly?: boolean } = {},
): string {
  const lines = [
    `# MCP tool changes: ${report.server} (${short(report.old.sha256)} → ${short(report.new.sha256)})`,
    "",
  ];
  const breaking = report.changes.filter((c) => c.severity === "breaking");
  lines.push(
    `**${breaking.length} breaking change${breaking.length === 1 ? "" : "s"}** for callers of ${report.summary.total} · release ${report.old.release} → ${report.new.release}`,
    "",
  );
  if (report.changes.length === 0) return [...lines, "No changes.", ""].join("\n");
  lines.push(`${ICON.breaking} breaks callers · ${ICON.compatible} compatible · ${ICON.none} no effect on calls`, "");
  if (options.breakingOnly === true) return [...lines, ...breaking.map(line), ""].join("\n");
  lines.push("## Summary", "");
  for (const topic of TOPICS) {
    const group = report.changes.filter((c) => topic.ids.includes(c.id));
    if (group.length === 0) continue;
    const items = group.map((c) => `${ICON[c.severity]} \`${c.path === "" ? c.tool : `${c.tool}: ${c.path}`}\``);
    lines.push(`- **${topic.title}** (${group.length}): ${items.join(", ")}`);
  }
  lines.push("", "## Changes", "");
  for (const tool of [...new Set(report.changes.map((c) => c.tool))]) {
    const group = report.changes.filter((c) => c.tool === tool);
    const broken = group.filter((c) => c.severity === "breaking").length;
    lines.push(
      `<details><summary><b>${tool}</b>: ${group.length} (${broken} breaking)</summary>`,
      "",
      ...group.map(line),
      "",
      "</details>",
      "",
    );
  }
  return lines.join("\n");
}

function line(c: ToolChange): string {
  const change = c.before !== null || c.after !== null ? ` (${c.before ?? "—"} → ${c.after ?? "—"})` : "";
  return `- ${ICON[c.severity]} \`${c.tool}\`${c.path === "" ? "" : ` \`${c.path}\``}: ${c.message}${change}`;
}

function short(sha: string): string {
  return sha.slice(0, 12);
}
