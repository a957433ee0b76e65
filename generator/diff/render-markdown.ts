import {
  SIDES,
  SUBJECT_ORDER,
  type Change,
  type DiffReport,
  type Severity,
  type Side,
  type SubjectKind,
} from "./change.ts";
import { isBreaking } from "./index.ts";
import { deprecatedName, gainsDeprecated } from "./consolidate.ts";
import { merge } from "./severity.ts";

/** What a maintainer acts on, in the order the summary lists it. */
type Topic =
  | "era"
  | "batches"
  | "methods-removed"
  | "methods-added"
  | "methods-reshaped"
  | "required"
  | "error-codes"
  | "deprecations"
  | "undeprecations"
  | "meta-keys"
  | "other"
  | "no-wire";

const TOPIC_TITLE: Record<Topic, string> = {
  era: "Era",
  batches: "JSON-RPC batches",
  "methods-removed": "Methods removed",
  "methods-added": "Methods added",
  "methods-reshaped": "Methods reshaped",
  required: "New required fields",
  "error-codes": "Error codes",
  deprecations: "Deprecations",
  undeprecations: "No longer deprecated",
  "meta-keys": "Reserved `_meta` keys",
  other: "Other wire changes",
  "no-wire": "No wire change",
};

const GROUP_TITLE: Record<SubjectKind, string> = {
  protocol: "Protocol",
  method: "Methods",
  definition: "Definitions",
  "error-code": "Error codes",
  "meta-key": "Reserved `_meta` keys",
};

const ICON: Record<Severity, string> = { breaking: "🔴", compatible: "🟢", none: "⚪" };

export interface MarkdownOptions {
  readonly side?: Side | "both";
  /** Only the breaking changes, short enough for a pull-request comment. */
  readonly breakingOnly?: boolean;
}

/**
 * A report for a release review: the breaking count first, a summary grouped by what a
 * maintainer acts on, then every change in collapsed sections, and last the changes that do not
 * touch the wire (descriptions, dialect, types-only, moves). Every change is one line.
 */
export function renderMarkdown(diff: DiffReport, options: MarkdownOptions = {}): string {
  const side = options.side ?? "both";
  const sides = side === "both" ? SIDES : [side];
  const lines: string[] = [`# MCP schema changes: ${diff.old.version} → ${diff.new.version}`, ""];
  const breaking = diff.changes.filter((c) => isBreaking(c, side));
  const counts = sides
    .map((s) => `${diff.changes.filter((c) => c.severity[s] === "breaking").length} for ${s}s`)
    .join(", ");
  lines.push(
    `**${breaking.length} breaking change${breaking.length === 1 ? "" : "s"}** (${counts}) of ${diff.summary.total} · ${releaseLinks(diff)}`,
    "",
  );
  const withoutTypescript = [diff.old, diff.new].filter((r) => r.typescript === null).map((r) => r.version);
  if (withoutTypescript.length > 0) {
    lines.push(
      `No schema.ts was pulled for ${withoutTypescript.join(" and ")}: deprecations come from schema/facts.json alone.`,
      "",
    );
  }
  if (diff.changes.length === 0) {
    lines.push("No changes.", "");
    return lines.join("\n");
  }
  lines.push(legend(sides, diff, options.breakingOnly === true), "");
  if (options.breakingOnly) {
    for (const [topic, group] of byTopic(breaking)) {
      lines.push(`**${TOPIC_TITLE[topic]}**`, "", ...group.map((c) => line(c, sides, diff)), "");
    }
    return lines.join("\n");
  }
  lines.push("## Summary", "");
  for (const [topic, group] of byTopic(diff.changes)) {
    if (topic === "other" || topic === "no-wire") {
      lines.push(`- **${TOPIC_TITLE[topic]}**: ${group.length} (see below)`);
      continue;
    }
    lines.push(`- **${TOPIC_TITLE[topic]}** (${group.length}): ${summaryItems(topic, group, sides)}`);
  }
  lines.push("");
  const wire = diff.changes.filter((c) => topicOf(c) !== "no-wire");
  const rest = diff.changes.filter((c) => topicOf(c) === "no-wire");
  lines.push("## Changes", "");
  for (const kind of SUBJECT_ORDER) {
    const group = wire.filter((c) => c.subjectKind === kind);
    if (group.length === 0) continue;
    const broken = group.filter((c) => isBreaking(c, side)).length;
    lines.push(
      `<details><summary><b>${GROUP_TITLE[kind]}</b>: ${group.length} (${broken} breaking)</summary>`,
      "",
      ...group.map((c) => line(c, sides, diff)),
      "",
      "</details>",
      "",
    );
  }
  if (rest.length > 0) {
    lines.push("## No wire change (low priority)", "");
    lines.push(
      "Descriptions that now say `deprecated`, MUST/SHOULD/MAY or name an `x-*` keyword, the schema file's dialect, changes only the generated types see, and moves.",
      "",
    );
    lines.push(
      `<details><summary>${rest.length} change${rest.length === 1 ? "" : "s"}</summary>`,
      "",
      ...rest.map((c) => line(c, sides, diff)),
      "",
      "</details>",
      "",
    );
  }
  return lines.join("\n");
}

function legend(sides: readonly Side[], diff: DiffReport, short: boolean): string {
  const order = sides.length === 2 ? "one icon per side, client then server" : `for the ${sides[0]}`;
  const severity = `Severity, ${order}: ${ICON.breaking} breaking (code written for ${diff.old.version} fails against a peer on ${diff.new.version}), ${ICON.compatible} compatible, ${ICON.none} not concerned.`;
  if (short) return severity;
  // Terms are defined where the report uses them, once.
  const terms = [
    ...(diff.changes.some((c) => c.id === "era-changed")
      ? [
          "**Era**: legacy releases open a session with `initialize`; modern ones are discovered with `server/discover` and carry the protocol version in every request's `_meta`.",
        ]
      : []),
    ...(diff.changes.some((c) => c.id === "batches-added" || c.id === "batches-removed")
      ? [
          "**Batch**: a JSON array of JSON-RPC messages sent as one (JSON-RPC 2.0 section 6); a batch of requests is answered with an array of responses.",
        ]
      : []),
    ...(diff.changes.some((c) => c.locations.some((l) => l.id === "method-kind-changed" && l.after === "input"))
      ? [
          "**Input request**: a modern server→client request (sampling, elicitation, roots) sent inside an `input_required` result instead of as its own JSON-RPC request.",
        ]
      : []),
    "**Places**: a change that applies in many definitions is listed once; `--format json` lists every place in `locations`.",
  ];
  return [severity, ...terms].join("<br>\n");
}

function releaseLinks(diff: DiffReport): string {
  const link = (r: DiffReport["old"]) =>
    r.schemaPage ? `[${r.version} schema](${r.schemaPage})` : `${r.version} schema`;
  return `${link(diff.old)} → ${link(diff.new)}`;
}

function topicOf(c: Change): Topic {
  // A description that starts saying "deprecated" is the schema's own deprecation notice.
  if (gainsDeprecated(c)) return "deprecations";
  if (c.level !== "wire" || c.id === "property-moved" || c.id === "definition-extracted")
    return c.id === "deprecated" ? "deprecations" : c.id === "undeprecated" ? "undeprecations" : "no-wire";
  switch (c.id) {
    case "era-changed":
      return "era";
    case "batches-added":
    case "batches-removed":
      return "batches";
    case "method-removed":
      return "methods-removed";
    case "method-added":
      return "methods-added";
    case "method-kind-changed":
    case "method-direction-changed":
    case "method-result-changed":
      return "methods-reshaped";
    case "error-code-added":
    case "error-code-removed":
    case "error-code-renamed":
      return "error-codes";
    case "deprecated":
      return "deprecations";
    case "undeprecated":
      return "undeprecations";
    case "property-became-required":
    case "meta-key-became-required":
      return "required";
    case "property-added":
    case "meta-key-added":
      if (c.cause?.required === true) return "required";
      return c.subjectKind === "meta-key" ? "meta-keys" : "other";
    default:
      return c.subjectKind === "meta-key" ? "meta-keys" : "other";
  }
}

function byTopic(changes: readonly Change[]): [Topic, Change[]][] {
  const order = Object.keys(TOPIC_TITLE) as Topic[];
  return order
    .map((t) => [t, changes.filter((c) => topicOf(c) === t)] as [Topic, Change[]])
    .filter(([, g]) => g.length > 0);
}

function icons(c: Change, sides: readonly Side[]): string {
  return sides.map((s) => ICON[c.severity[s]]).join("");
}

/** Methods added or removed read best as a list of names per severity; the rest by their subject. */
function summaryItems(topic: Topic, group: readonly Change[], sides: readonly Side[]): string {
  if (topic === "era" || topic === "batches") return group.map((c) => `${icons(c, sides)} ${c.message}`).join(" · ");
  // One name per subject at its worst severity (a method reshaped twice is listed once).
  const worst = new Map<string, Change["severity"]>();
  for (const c of group) {
    for (const name of summaryNames(topic, c)) {
      const known = worst.get(name);
      worst.set(name, known ? merge(known, c.severity) : c.severity);
    }
  }
  const bySeverity = new Map<string, string[]>();
  for (const [name, severity] of worst) {
    const key = sides.map((s) => ICON[severity[s]]).join("");
    bySeverity.set(key, [...(bySeverity.get(key) ?? []), name]);
  }
  return [...bySeverity].map(([icon, names]) => `${icon} ${names.join(", ")}`).join(" · ");
}

function summaryNames(topic: Topic, c: Change): string[] {
  const code = (s: string) => `\`${s}\``;
  if (topic === "deprecations" || topic === "undeprecations")
    return c.locations.filter((l) => l.id === c.id).map((l) => code(deprecatedName(l)));
  if (c.subjectKind === "meta-key") return [`${code(c.subject)} (${c.path}s)`];
  const replacement = c.id === "error-code-removed" ? c.cause?.replacedBy : undefined;
  if (c.subjectKind === "error-code")
    return [`${code(c.subject)}${replacement === undefined ? "" : ` → ${code(String(replacement))}`}`];
  return [code(c.path === "" || c.subjectKind === "method" ? c.subject : `${c.subject}.${c.path}`)];
}

function line(c: Change, sides: readonly Side[], diff: DiffReport): string {
  const places = c.locations.length > 1 ? ` <sub>${c.locations.length} places</sub>` : "";
  const source = c.source && /^https?:/.test(c.source) ? ` ([source](${c.source}))` : "";
  // Shared types (content blocks, capabilities) serve many methods; name them only where that helps.
  const methods =
    c.subjectKind === "definition" && c.level !== "types"
      ? [
          ...new Set(
            c.locations.filter((l) => l.subjectKind === "definition").flatMap((l) => diff.methodsOf[l.subject] ?? []),
          ),
        ].sort()
      : [];
  const used = methods.length > 0 && methods.length <= 3 ? ` (${methods.map((m) => `\`${m}\``).join(", ")})` : "";
  return `- ${icons(c, sides)} ${c.message}${used}${source}${links(c, diff)}${places}`;
}

/** The schema page anchors of the subject in each release it exists in (the spec site lowercases names). */
function links(c: Change, diff: DiffReport): string {
  const out: string[] = [];
  // A draft or an old release has no page on the spec site: its JSON pointer still finds the node.
  const at = (release: DiffReport["old"], pointer: string | null) => {
    const anchor = anchorOf(pointer);
    if (release.schemaPage && anchor) out.push(`[${release.version}](${release.schemaPage}#${anchor})`);
    else if (pointer) out.push(`${release.version} \`#${pointer}\``);
  };
  at(diff.old, c.oldPointer);
  at(diff.new, c.newPointer);
  return out.length > 0 ? ` · ${out.join(" → ")}` : "";
}

/** `/$defs/Tool/properties/inputSchema/...` → `tool-inputschema`; `/$defs/Tool` → `tool`. */
function anchorOf(pointer: string | null): string | null {
  const m = pointer === null ? null : /^\/(?:\$defs|definitions)\/([^/]+)(?:\/properties\/([^/]+))?/.exec(pointer);
  if (!m) return null;
  const name = m[1]!.replace(/~1/g, "/").replace(/~0/g, "~").toLowerCase();
  return m[2] ? `${name}-${m[2].replace(/~1/g, "/").replace(/~0/g, "~").toLowerCase()}` : name;
}
