import type { Severity } from "../diff/change.ts";
import type { ChangeKind, ServerChange, ServerChangeId, ToolsDiffReport } from "./compare.ts";

const ICON: Record<Severity, string> = { breaking: "🔴", compatible: "🟢", none: "⚪" };

/** What a maintainer acts on, in the order the summary lists it. */
const TOPICS: readonly { readonly title: string; readonly ids: readonly ServerChangeId[] }[] = [
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
  { title: "Prompts removed", ids: ["prompt-removed"] },
  { title: "Prompts added", ids: ["prompt-added"] },
  {
    title: "Prompt arguments",
    ids: [
      "prompt-argument-added",
      "prompt-argument-removed",
      "prompt-argument-became-required",
      "prompt-argument-became-optional",
    ],
  },
  { title: "Resource templates removed", ids: ["template-removed"] },
  { title: "Resource templates added", ids: ["template-added"] },
  {
    title: "Resource template URIs and MIME types",
    ids: [
      "template-uri-changed",
      "template-variable-added",
      "template-variable-removed",
      "template-variable-renamed",
      "template-variable-became-required",
      "template-variable-became-optional",
      "template-mime-type-changed",
    ],
  },
  { title: "Annotations and descriptions", ids: ["annotation-changed", "description-changed"] },
  {
    title: "Prompt and template titles and descriptions",
    ids: [
      "prompt-title-changed",
      "prompt-description-changed",
      "template-title-changed",
      "template-description-changed",
    ],
  },
];

/** How a change's subject is named: tools bare, as they always were; prompts and templates by what they are. */
const PREFIX: Record<ChangeKind, string> = { tool: "", prompt: "prompt ", "resource-template": "resource template " };

/** The tools diff in the spec diff's form: the breaking count, a summary, then every change under its tool. */
export function renderToolsMarkdown(
  report: ToolsDiffReport,
  options: { readonly breakingOnly?: boolean } = {},
): string {
  const subject = report.changes.every((c) => c.kind === "tool") ? "tool" : "server";
  const lines = [
    `# MCP ${subject} changes: ${report.server} (${short(report.old.sha256)} → ${short(report.new.sha256)})`,
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
    const items = group.map(
      (c) => `${ICON[c.severity]} ${PREFIX[c.kind]}\`${c.path === "" ? c.name : `${c.name}: ${c.path}`}\``,
    );
    lines.push(`- **${topic.title}** (${group.length}): ${items.join(", ")}`);
  }
  lines.push("", "## Changes", "");
  for (const key of [...new Set(report.changes.map(subjectOf))]) {
    const group = report.changes.filter((c) => subjectOf(c) === key);
    const broken = group.filter((c) => c.severity === "breaking").length;
    lines.push(
      `<details><summary>${PREFIX[group[0]!.kind]}<b>${group[0]!.name}</b>: ${group.length} (${broken} breaking)</summary>`,
      "",
      ...group.map(line),
      "",
      "</details>",
      "",
    );
  }
  return lines.join("\n");
}

function subjectOf(c: ServerChange): string {
  return `${c.kind}\0${c.name}`;
}

function line(c: ServerChange): string {
  const change = c.before !== null || c.after !== null ? ` (${c.before ?? "—"} → ${c.after ?? "—"})` : "";
  return `- ${ICON[c.severity]} ${PREFIX[c.kind]}\`${c.name}\`${c.path === "" ? "" : ` \`${c.path}\``}: ${c.message}${change}`;
}

function short(sha: string): string {
  return sha.slice(0, 12);
}
