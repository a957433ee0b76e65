import type { Severity } from "../diff/change.ts";
import { joinPointer } from "../common/failures.ts";
import type { JsonType, NormalisedSchema, SchemaNode } from "../load/schema-node.ts";
import { deref, shapeKey } from "../load/shape.ts";
import {
  comparePrompts,
  compareTemplates,
  type ChangeFields,
  type ChangeKind,
  type PromptChange,
  type PromptChangeId,
  type TemplateChange,
  type TemplateChangeId,
} from "./compare-prompts-and-templates.ts";
import type { ToolModel, ToolSet } from "./tool-set.ts";

export type { ChangeFields, ChangeKind };

/** Ids are a contract for tools reading `--format json`: add ids, never rename them. */
export type ToolChangeId =
  | "tool-added"
  | "tool-removed"
  | "argument-added"
  | "argument-removed"
  | "argument-became-required"
  | "argument-became-optional"
  | "output-schema-added"
  | "output-schema-removed"
  | "property-added"
  | "property-removed"
  | "property-became-required"
  | "property-became-optional"
  | "type-narrowed"
  | "type-widened"
  | "type-changed"
  | "annotation-changed"
  | "description-changed";

/** One change to a tool, rated for the clients that call it (they write the arguments and read the result). */
export interface ToolChange extends ChangeFields {
  readonly kind: "tool";
  readonly id: ToolChangeId;
  /** The tool's name, as `name`: readers of reports from before prompts were compared read it here. */
  readonly tool: string;
}

/** A change to a server's tools, prompts or resource templates, rated for the callers of its typed module. */
export type ServerChange = ToolChange | PromptChange | TemplateChange;

export type ServerChangeId = ToolChangeId | PromptChangeId | TemplateChangeId;

export interface ToolsDiffReport {
  readonly server: string;
  readonly old: { readonly file: string; readonly release: string; readonly sha256: string };
  readonly new: { readonly file: string; readonly release: string; readonly sha256: string };
  readonly summary: {
    readonly total: number;
    readonly breaking: number;
    readonly byId: Readonly<Partial<Record<ServerChangeId, number>>>;
  };
  /** Tools' changes, then prompts', then resource templates'; each sorted by name, path, id. */
  readonly changes: readonly ServerChange[];
}

/** Callers write arguments (a narrower schema breaks them) and read results (a wider one breaks them). */
type Role = "arguments" | "structuredContent";

/** Far deeper than any real tool schema; recursion through `$ref` is cut by the visited pairs first. */
const MAX_COMPARE_DEPTH = 64;

export function compareToolSets(oldSet: ToolSet, newSet: ToolSet): ToolsDiffReport {
  const changes: ToolChange[] = [];
  const newByName = new Map(newSet.tools.map((t) => [t.name, t]));
  const oldByName = new Map(oldSet.tools.map((t) => [t.name, t]));
  const newLeftOut = new Map(newSet.leftOut.map((t) => [t.name, t]));
  const oldLeftOut = new Map(oldSet.leftOut.map((t) => [t.name, t]));
  for (const tool of [...oldSet.tools, ...oldSet.leftOut]) {
    const now = newByName.get(tool.name) ?? newLeftOut.get(tool.name);
    if (now === undefined) {
      changes.push(
        change(
          "tool-removed",
          tool.name,
          "",
          `tool \`${tool.name}\` was removed: every call to it fails`,
          "breaking",
          tool.pointer,
          null,
        ),
      );
      continue;
    }
    const before = oldByName.get(tool.name);
    const after = newByName.get(tool.name);
    if (before !== undefined && after !== undefined) changes.push(...compareTool(oldSet, newSet, before, after));
    else if (JSON.stringify(tool.listed) !== JSON.stringify(now.listed)) {
      // A tool that cannot be generated on either side has no schemas to walk: any change may break its callers.
      const reason = (oldLeftOut.get(tool.name) ?? newLeftOut.get(tool.name))!.error.message;
      changes.push(
        change(
          "type-changed",
          tool.name,
          "",
          `tool \`${tool.name}\` changed, and its schemas cannot be compared: ${reason}`,
          "breaking",
          tool.pointer,
          now.pointer,
        ),
      );
    }
  }
  for (const tool of [...newSet.tools, ...newSet.leftOut]) {
    if (!oldByName.has(tool.name) && !oldLeftOut.has(tool.name))
      changes.push(
        change("tool-added", tool.name, "", `tool \`${tool.name}\` was added`, "compatible", null, tool.pointer),
      );
  }
  const all: ServerChange[] = [
    ...changes,
    ...comparePrompts(oldSet.prompts, newSet.prompts),
    ...compareTemplates(oldSet.resourceTemplates, newSet.resourceTemplates),
  ];
  all.sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      compareText(a.name, b.name) ||
      compareText(a.path, b.path) ||
      compareText(a.id, b.id),
  );
  const byId: Partial<Record<ServerChangeId, number>> = {};
  for (const c of all) byId[c.id] = (byId[c.id] ?? 0) + 1;
  return {
    server: newSet.server,
    old: { file: oldSet.file, release: oldSet.release, sha256: oldSet.sha256 },
    new: { file: newSet.file, release: newSet.release, sha256: newSet.sha256 },
    summary: { total: all.length, breaking: all.filter((c) => c.severity === "breaking").length, byId },
    changes: all,
  };
}

const KIND_ORDER: readonly ChangeKind[] = ["tool", "prompt", "resource-template"];

function compareTool(oldSet: ToolSet, newSet: ToolSet, before: ToolModel, after: ToolModel): ToolChange[] {
  const out: ToolChange[] = [];
  const walker = new Walker(oldSet.schema, newSet.schema, before.name, out);
  walker.node(
    oldSet.schema.definitions.get(before.arguments)!,
    newSet.schema.definitions.get(after.arguments)!,
    "arguments",
    "arguments",
    0,
  );
  if (before.structured === null && after.structured !== null) {
    out.push(
      change(
        "output-schema-added",
        before.name,
        "structuredContent",
        "an outputSchema was added: results now carry typed structuredContent",
        "compatible",
        null,
        joinPointer(after.pointer, "outputSchema"),
      ),
    );
  } else if (before.structured !== null && after.structured === null) {
    out.push(
      change(
        "output-schema-removed",
        before.name,
        "structuredContent",
        "the outputSchema was removed: structuredContent is no longer promised",
        "breaking",
        joinPointer(before.pointer, "outputSchema"),
        null,
      ),
    );
  } else if (before.structured !== null && after.structured !== null) {
    walker.node(
      oldSet.schema.definitions.get(before.structured)!,
      newSet.schema.definitions.get(after.structured)!,
      "structuredContent",
      "structuredContent",
      0,
    );
  }
  const hints = [
    ...new Set([...Object.keys(before.annotations ?? {}), ...Object.keys(after.annotations ?? {})]),
  ].sort();
  for (const hint of hints) {
    const was = JSON.stringify(before.annotations?.[hint] ?? null);
    const is = JSON.stringify(after.annotations?.[hint] ?? null);
    if (was !== is) {
      out.push(
        change(
          "annotation-changed",
          before.name,
          `annotations.${hint}`,
          `annotation ${hint} changed`,
          "none",
          joinPointer(before.pointer, "annotations", hint),
          joinPointer(after.pointer, "annotations", hint),
          was,
          is,
        ),
      );
    }
  }
  if ((before.description ?? "") !== (after.description ?? "")) {
    out.push(
      change(
        "description-changed",
        before.name,
        "",
        "the description changed",
        "none",
        joinPointer(before.pointer, "description"),
        joinPointer(after.pointer, "description"),
      ),
    );
  }
  return out;
}

class Walker {
  private readonly visited = new Set<string>();

  constructor(
    private readonly oldSchema: NormalisedSchema,
    private readonly newSchema: NormalisedSchema,
    private readonly tool: string,
    private readonly out: ToolChange[],
  ) {}

  node(rawOld: SchemaNode, rawNew: SchemaNode, path: string, role: Role, depth: number): void {
    // A recursive schema meets the same pair of references again: its changes were reported the first time.
    const pair = `${role}\0${rawOld.ref ?? rawOld.pointer}\0${rawNew.ref ?? rawNew.pointer}`;
    if (rawOld.ref !== undefined || rawNew.ref !== undefined) {
      if (this.visited.has(pair)) return;
      this.visited.add(pair);
    }
    if (depth > MAX_COMPARE_DEPTH) return;
    const a = deref(this.oldSchema, rawOld);
    const b = deref(this.newSchema, rawNew);
    const key = shapeKey(a);
    // Equal text is equal schemas only when no reference inside could point at a changed definition.
    if (key === shapeKey(b) && !key.includes('"ref"')) return;
    this.types(a, b, path, role);
    const props = new Map((a.properties ?? []).map((p) => [p.name, p]));
    const newProps = new Map((b.properties ?? []).map((p) => [p.name, p]));
    const objectLevel = path === role;
    for (const [name, p] of props) {
      const q = newProps.get(name);
      const at = `${path}.${name}`;
      if (q === undefined && typesAnything(a) && typesAnything(b)) {
        // Still typed, by the index signature: a value of any type fits now, which callers may send and readers must handle.
        this.push(
          "type-widened",
          at,
          `type of \`${at}\` widened to any value: no longer declared, so its key is typed like any other${p.required ? ", and it may be missing" : ""}`,
          role === "arguments" ? "compatible" : "breaking",
          p.schema.pointer,
          b.pointer,
        );
        continue;
      }
      if (q === undefined) {
        // A caller still sending a removed argument gets a compile error; one reading a removed result member reads nothing.
        const breaks = role === "arguments" || p.required;
        this.push(
          objectLevel && role === "arguments" ? "argument-removed" : "property-removed",
          at,
          `\`${at}\` was removed`,
          breaks ? "breaking" : "compatible",
          p.schema.pointer,
          null,
        );
        continue;
      }
      if (p.required !== q.required) {
        const nowRequired = q.required;
        // Arguments: a new obligation breaks callers. Results: a member that may now be missing breaks readers.
        const breaks = role === "arguments" ? nowRequired : !nowRequired;
        const id =
          objectLevel && role === "arguments"
            ? nowRequired
              ? "argument-became-required"
              : "argument-became-optional"
            : nowRequired
              ? "property-became-required"
              : "property-became-optional";
        this.push(
          id,
          at,
          `\`${at}\` became ${nowRequired ? "required" : "optional"}`,
          breaks ? "breaking" : "compatible",
          p.schema.pointer,
          q.schema.pointer,
        );
      }
      this.node(p.schema, q.schema, at, role, depth + 1);
    }
    for (const [name, q] of newProps) {
      if (props.has(name)) continue;
      const at = `${path}.${name}`;
      const breaks = role === "arguments" && q.required;
      const id = objectLevel && role === "arguments" ? "argument-added" : "property-added";
      this.push(
        id,
        at,
        `${q.required ? "required" : "optional"} \`${at}\` was added`,
        breaks ? "breaking" : "compatible",
        null,
        q.schema.pointer,
        null,
        q.required ? "required" : "optional",
      );
    }
    if (a.items !== undefined && b.items !== undefined) this.node(a.items, b.items, `${path}[]`, role, depth + 1);
  }

  /** JSON types, consts and enums: the values a node admits, compared as sets where they can be. */
  private types(a: SchemaNode, b: SchemaNode, path: string, role: Role): void {
    const before = admitted(a);
    const after = admitted(b);
    if (before === after) {
      // Unions, open members and constraints are compared whole: any change there is rated as breaking, to be safe.
      if (!sameCombinators(a, b))
        this.push("type-changed", path, `the schema of \`${path}\` changed`, "breaking", a.pointer, b.pointer);
      return;
    }
    const oldSet = valueSet(a);
    const newSet = valueSet(b);
    let id: ToolChangeId = "type-changed";
    if (oldSet !== null && newSet !== null) {
      if (within(newSet, oldSet)) id = "type-narrowed";
      else if (within(oldSet, newSet)) id = "type-widened";
    }
    // Narrowed arguments refuse values callers send; widened results hold values readers do not expect.
    const severity: Severity =
      id === "type-changed"
        ? "breaking"
        : (id === "type-narrowed") === (role === "arguments")
          ? "breaking"
          : "compatible";
    const word = id === "type-narrowed" ? "narrowed" : id === "type-widened" ? "widened" : "changed";
    this.push(id, path, `the type of \`${path}\` ${word}`, severity, a.pointer, b.pointer, before, after);
  }

  private push(
    id: ToolChangeId,
    path: string,
    message: string,
    severity: Severity,
    oldPointer: string | null,
    newPointer: string | null,
    before: string | null = null,
    after: string | null = null,
  ): void {
    this.out.push(change(id, this.tool, path, message, severity, oldPointer, newPointer, before, after));
  }
}

/** An object whose index signature types its other keys `unknown` (`additionalProperties` true or `{}`). */
function typesAnything(n: SchemaNode): boolean {
  const index = n.additionalProperties;
  return (
    index === true ||
    (typeof index === "object" && Object.keys(index).every((k) => k === "pointer" || k === "description"))
  );
}

function sameCombinators(a: SchemaNode, b: SchemaNode): boolean {
  const key = (n: SchemaNode) =>
    JSON.stringify([
      n.anyOf?.map(shapeKey),
      n.oneOf?.map(shapeKey),
      n.allOf?.map(shapeKey),
      n.additionalProperties === undefined
        ? null
        : typeof n.additionalProperties === "boolean"
          ? n.additionalProperties
          : shapeKey(n.additionalProperties),
    ]);
  return key(a) === key(b) && constraints(a) === constraints(b);
}

function constraints(n: SchemaNode): string {
  return JSON.stringify([
    ...[n.minimum, n.maximum, n.minItems, n.maxItems, n.minLength, n.maxLength, n.pattern, n.format],
    ...[n.exclusiveMinimum, n.exclusiveMaximum, n.multipleOf, n.minProperties, n.maxProperties, n.uniqueItems],
    ...[n.not, n.if, n.then, n.else].map((m) => m && shapeKey(m)),
  ]);
}

/** A short text of the values a node admits by its type, const or enum. */
function admitted(n: SchemaNode): string {
  if (n.const !== undefined) return JSON.stringify(n.const);
  if (n.enum !== undefined) return n.enum.map((v) => JSON.stringify(v)).join(" | ");
  return n.type === undefined ? "any" : n.type.join(" | ");
}

/** The admitted values as a comparable set: JSON types (integer inside number), or literal values; null when not a plain set. */
function valueSet(n: SchemaNode): Set<string> | null {
  if (n.anyOf || n.oneOf || n.allOf) return null;
  if (n.const !== undefined) return new Set([literalKey(n.const)]);
  if (n.enum !== undefined) return new Set(n.enum.map(literalKey));
  const types: readonly JsonType[] = n.type ?? ["array", "boolean", "null", "number", "object", "string"];
  return new Set(types.flatMap((t) => (t === "number" ? ["number", "integer"] : [t])));
}

function literalKey(value: unknown): string {
  return `=${JSON.stringify(value)}`;
}

/** Whether every value of `inner` is in `outer`: a literal also by its JSON type (an enum of strings is inside `string`). */
function within(inner: ReadonlySet<string>, outer: ReadonlySet<string>): boolean {
  return [...inner].every(
    (v) => outer.has(v) || (v.startsWith("=") && outer.has(jsonTypeOf(JSON.parse(v.slice(1)) as unknown))),
  );
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function change(
  id: ToolChangeId,
  tool: string,
  path: string,
  message: string,
  severity: Severity,
  oldPointer: string | null,
  newPointer: string | null,
  before: string | null = null,
  after: string | null = null,
): ToolChange {
  return { id, kind: "tool", name: tool, tool, path, message, before, after, oldPointer, newPointer, severity };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
