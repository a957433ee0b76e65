import { compare } from "../common/code-point-order.ts";
import type { SchemaNode } from "../load/schema-node.ts";
import { deref, shapeKey } from "../load/shape.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import type { Change, ChangeId, Finding, Location } from "./change.ts";
import { declared } from "./declared.ts";
import { definitionMethods, messageUnionNames } from "./roles.ts";
import { merge, same } from "./severity.ts";

/**
 * Every change once. The comparers report each place a change shows (a reserved `_meta` key in
 * thirty params definitions, a union member beside the method it adds); this folds those places
 * into one entry that lists them in `locations`, so a reader sees the change once and a tool
 * still finds every place. Rules run in order; each claims findings the later ones no longer see.
 */
export function consolidate(findings: readonly Finding[], oldModel: ProtocolModel, newModel: ProtocolModel): Change[] {
  const pool = new Pool(findings);
  foldBatches(pool, oldModel, newModel);
  foldLoosened(pool);
  foldMetaKeys(pool);
  foldIntoMethods(pool, oldModel, newModel);
  foldIntoErrorCodes(pool, oldModel, newModel);
  foldExtracted(pool, oldModel, newModel);
  foldMoves(pool);
  foldTypesOnly(pool);
  foldDeprecations(pool);
  foldUnionMembers(pool);
  foldRepeats(pool);
  foldReferencedDefinitions(pool);
  return pool.entries();
}

interface Entry {
  head: Finding;
  /** Overrides of the head's fields for the entry itself. */
  override: Partial<
    Pick<
      Change,
      "id" | "message" | "subjectKind" | "subject" | "path" | "before" | "after" | "severity" | "level" | "source"
    >
  >;
  members: Finding[];
}

class Pool {
  private readonly free: Set<Finding>;
  private readonly made: Entry[] = [];
  /** Entry of a finding that heads or joined one. */
  private readonly entryOf = new Map<Finding, Entry>();

  constructor(findings: readonly Finding[]) {
    this.free = new Set(findings);
  }

  /** Findings not yet in an entry, in input order. */
  open(filter: (f: Finding) => boolean = () => true): Finding[] {
    return [...this.free].filter(filter);
  }

  /** The entry a finding leads, made on first use. */
  entry(head: Finding, override: Entry["override"] = {}): Entry {
    const known = this.entryOf.get(head);
    if (known) {
      Object.assign(known.override, override);
      return known;
    }
    const made: Entry = { head, override, members: [head] };
    this.free.delete(head);
    this.made.push(made);
    this.entryOf.set(head, made);
    return made;
  }

  /** Entries made so far, in the order they were made. */
  madeSoFar(): readonly Entry[] {
    return this.made;
  }

  fold(into: Entry, f: Finding): void {
    if (!this.free.has(f)) return;
    this.free.delete(f);
    into.members.push(f);
    this.entryOf.set(f, into);
  }

  entries(): Change[] {
    for (const f of this.free) this.entry(f);
    return this.made.map(toChange);
  }
}

function toChange(e: Entry): Change {
  const { head, override } = e;
  const locations: Location[] = e.members.map((f) => ({
    id: f.id,
    subjectKind: f.subjectKind,
    subject: f.subject,
    path: f.path,
    message: f.message,
    before: f.before,
    after: f.after,
    oldPointer: f.oldPointer,
    newPointer: f.newPointer,
    severity: f.severity,
  }));
  return {
    id: override.id ?? head.id,
    subjectKind: override.subjectKind ?? head.subjectKind,
    subject: override.subject ?? head.subject,
    path: override.path ?? head.path,
    message: override.message ?? head.message,
    before: override.before !== undefined ? override.before : head.before,
    after: override.after !== undefined ? override.after : head.after,
    oldPointer: head.oldPointer,
    newPointer: head.newPointer,
    severity: override.severity ?? e.members.map((f) => f.severity).reduce(merge),
    level: override.level ?? head.level ?? "wire",
    ...(head.cause !== undefined && Object.keys(head.cause).length > 0 ? { cause: head.cause } : {}),
    source:
      override.source !== undefined
        ? override.source
        : (head.source ?? e.members.find((f) => f.source)?.source ?? null),
    locations,
  };
}

const WIRE_NEUTRAL = same("compatible");
const code = (text: string) => `\`${text}\``;

function names(list: readonly string[], max = 4): string {
  const unique = [...new Set(list)];
  const shown = unique.slice(0, max).map(code).join(", ");
  return unique.length > max ? `${shown} and ${unique.length - max} more` : shown;
}

function under(path: string, prefix: string): boolean {
  return prefix === ""
    ? path !== ""
    : path.startsWith(prefix + ".") || path.startsWith(prefix + "[") || path.startsWith(prefix + "{");
}

/**
 * The message union's array members that came or went, and the definitions spelling out those arrays
 * (`JSONRPCBatchRequest`: same shape, or referenced by the member), are the batches' own entry.
 */
function foldBatches(pool: Pool, oldModel: ProtocolModel, newModel: ProtocolModel): void {
  for (const f of pool.open((x) => x.id === "batches-added" || x.id === "batches-removed")) {
    const added = f.id === "batches-added";
    const model = added ? newModel : oldModel;
    const arrays = model.envelope.batchMembers;
    const pointers = new Set(arrays.map((m) => m.pointer));
    const shapes = new Set(arrays.map((m) => shapeKey(deref(declared(model), m))));
    const named = new Set(arrays.flatMap((m) => (m.ref === undefined ? [] : [m.ref])));
    for (const [name, { schema: node }] of model.definitions) if (shapes.has(shapeKey(node))) named.add(name);
    const members = pool.open(
      (x) =>
        x.id === (added ? "union-member-added" : "union-member-removed") &&
        pointers.has((added ? x.newPointer : x.oldPointer) ?? ""),
    );
    const definitions = pool.open(
      (x) => x.id === (added ? "definition-added" : "definition-removed") && named.has(x.subject),
    );
    const entry = pool.entry(
      f,
      definitions.length === 0
        ? {}
        : {
            message: `${f.message} (${names(definitions.map((d) => d.subject))} ${added ? "added" : "removed"} with them)`,
          },
    );
    for (const x of [...members, ...definitions]) pool.fold(entry, x);
  }
}

/** What a loosened node dropped and its index signature are the loosening, not removals. */
function foldLoosened(pool: Pool): void {
  for (const l of pool.open((f) => f.id === "loosened")) {
    const entry = pool.entry(l);
    for (const f of pool.open(
      (x) => x.subject === l.subject && x.subjectKind === l.subjectKind && x.level !== "description",
    )) {
      if (under(f.path, l.path) && f.id === "property-removed") pool.fold(entry, f);
      else if (f.path === l.path && f.level === "types") pool.fold(entry, f);
    }
  }
}

/** `_meta.<key>` in each definition is the reserved key's entry; a `_meta` that became required for it, too. */
function foldMetaKeys(pool: Pool): void {
  const keyEntries = pool.open((f) => f.subjectKind === "meta-key" && f.id.startsWith("meta-key-"));
  if (keyEntries.length === 0) return;
  const required = (f: Finding) => f.cause?.required === true;
  const entryFor = (key: string, wantRequired: boolean) => {
    const candidates = keyEntries.filter((k) => k.subject === key);
    return candidates.find((k) => required(k) === wantRequired) ?? candidates[0];
  };
  const keys = new Set(keyEntries.map((k) => k.subject));
  // Reserved keys hold dots themselves (`io.modelcontextprotocol/logLevel`), so match them whole.
  const keyOf = (path: string) => [...keys].find((k) => path === `_meta.${k}` || path.endsWith(`._meta.${k}`));
  const foldedKeys = new Map<string, string[]>();
  for (const f of pool.open((x) => x.subjectKind === "definition")) {
    const key = keyOf(f.path);
    const target = key === undefined ? undefined : entryFor(key, required(f));
    if (!target) continue;
    pool.fold(pool.entry(target), f);
    const meta = `${f.subject} ${f.path.slice(0, f.path.length - key!.length - 1)}`;
    if (required(f)) foldedKeys.set(meta, [...(foldedKeys.get(meta) ?? []), key!]);
  }
  // `X._meta` is now required because a required key was added inside it: one change, the key's.
  for (const f of pool.open((x) => x.id === "property-became-required" && /(?:^|\.)_meta$/.test(x.path))) {
    const keys = foldedKeys.get(`${f.subject} ${f.path}`);
    if (!keys) continue;
    const target = entryFor([...keys].sort(compare)[0]!, true);
    if (target) pool.fold(pool.entry(target), f);
  }
}

/**
 * A message union gaining a member, and the definitions only an added (or removed) method uses,
 * are that method's addition (or removal); a result union's member goes to the method answering with it.
 */
function foldIntoMethods(pool: Pool, oldModel: ProtocolModel, newModel: ProtocolModel): void {
  const methodEntries = new Map<string, Finding>();
  for (const f of pool.open((x) => x.subjectKind === "method" && x.id !== "deprecated" && x.id !== "undeprecated")) {
    if (!methodEntries.has(f.subject)) methodEntries.set(f.subject, f);
  }
  const owners = (model: ProtocolModel, definition: string) =>
    model.methods
      .filter(
        (m) =>
          m.definition === definition ||
          m.params?.definition === definition ||
          m.results.includes(definition) ||
          m.response === definition,
      )
      .map((m) => m.name);
  const unions = messageUnionNames(oldModel, newModel);
  for (const f of pool.open(
    (x) => (x.id === "union-member-added" || x.id === "union-member-removed") && unions.has(x.subject) && x.path === "",
  )) {
    const [member] = (f.id === "union-member-added" ? f.cause?.references?.new : f.cause?.references?.old) ?? [];
    const model = f.id === "union-member-added" ? newModel : oldModel;
    const target = member === undefined ? undefined : owners(model, member).find((m) => methodEntries.has(m));
    if (target) pool.fold(pool.entry(methodEntries.get(target)!), f);
  }
  const added = new Set([...methodEntries.values()].filter((x) => x.id === "method-added").map((x) => x.subject));
  const removed = new Set([...methodEntries.values()].filter((x) => x.id === "method-removed").map((x) => x.subject));
  const reach = { old: definitionMethods(oldModel), new: definitionMethods(newModel) };
  for (const f of pool.open((x) => x.id === "definition-added" || x.id === "definition-removed")) {
    const isAdded = f.id === "definition-added";
    const users = [...((isAdded ? reach.new : reach.old).get(f.subject) ?? [])].sort(compare);
    const only = isAdded ? added : removed;
    if (users.length > 0 && users.every((m) => only.has(m))) pool.fold(pool.entry(methodEntries.get(users[0]!)!), f);
  }
}

/** The definition pinning a code that came or went is that code's addition or removal. */
function foldIntoErrorCodes(pool: Pool, oldModel: ProtocolModel, newModel: ProtocolModel): void {
  for (const f of pool.open((x) => x.id === "error-code-added" || x.id === "error-code-removed")) {
    const model = f.id === "error-code-added" ? newModel : oldModel;
    const definition = model.errorCodes.find((e) => String(e.code) === f.subject)?.definition;
    const wanted = f.id === "error-code-added" ? "definition-added" : "definition-removed";
    for (const d of pool.open((x) => x.id === wanted && x.subject === definition)) pool.fold(pool.entry(f), d);
  }
}

/**
 * A definition that names what was written inline before (a request's params split out, a
 * helper type named) is a move: the wire is the same, so it is one wire-neutral entry.
 */
function foldExtracted(pool: Pool, oldModel: ProtocolModel, newModel: ProtocolModel): void {
  const inlineShapes = new Set<string>();
  for (const def of oldModel.definitions.values()) {
    inlineNodes(def.schema, (n) => {
      if (n.ref === undefined && (n.properties?.length ?? 0) > 0) inlineShapes.add(shapeKey(n));
    });
  }
  const oldParams = new Map(oldModel.methods.map((m) => [m.name, m.params]));
  const named = new Set(
    newModel.methods
      .filter((m) => m.params && m.params.path.length === 0 && (oldParams.get(m.name)?.path.length ?? 0) > 0)
      .map((m) => m.params!.definition),
  );
  // Each request's response and each error now have a definition of their own; the envelope carried them before.
  const oldResponses = new Map(oldModel.methods.map((m) => [m.name, m.response]));
  for (const m of newModel.methods)
    if (m.response && oldResponses.has(m.name) && oldResponses.get(m.name) === null) named.add(m.response);
  const oldCodes = new Set(oldModel.errorCodes.map((e) => e.code));
  for (const e of newModel.errorCodes)
    if (e.definition && oldCodes.has(e.code) && !oldModel.definitions.has(e.definition)) named.add(e.definition);
  const extracted = pool.open(
    (f) =>
      f.id === "definition-added" &&
      (named.has(f.subject) || inlineShapes.has(shapeKey(newModel.definitions.get(f.subject)!.schema))),
  );
  if (extracted.length === 0) return;
  const entry = pool.entry(extracted[0]!, {
    id: "definition-extracted",
    subject: "definitions",
    subjectKind: "definition",
    message: `${extracted.length} definition${extracted.length === 1 ? "" : "s"} now name${extracted.length === 1 ? "s" : ""} what was written inline (${names(extracted.map((f) => f.subject))}): no wire change`,
    before: null,
    after: null,
    severity: WIRE_NEUTRAL,
  });
  for (const f of extracted) pool.fold(entry, f);
}

/** The same property removed from some definitions and added, alike, to others moved between them. */
function foldMoves(pool: Pool): void {
  const state = (f: Finding) => (f.cause?.required === true ? "required" : "optional");
  const key = (f: Finding, shape: string | null) => `${f.subjectKind} ${f.path} ${state(f)} ${shape ?? ""}`;
  const removals = new Map<string, Finding[]>();
  for (const f of pool.open((x) => x.id === "property-removed"))
    removals.set(key(f, f.before), [...(removals.get(key(f, f.before)) ?? []), f]);
  const additions = new Map<string, Finding[]>();
  for (const f of pool.open((x) => x.id === "property-added"))
    additions.set(key(f, f.after), [...(additions.get(key(f, f.after)) ?? []), f]);
  for (const [k, from] of removals) {
    const to = additions.get(k);
    if (!to) continue;
    const entry = pool.entry(from[0]!, {
      id: "property-moved",
      message: `${state(from[0]!)} property ${code(from[0]!.path)} moved from ${names(from.map((f) => f.subject))} to ${names(to.map((f) => f.subject))}: no wire change`,
      severity: WIRE_NEUTRAL,
    });
    for (const f of [...from, ...to]) pool.fold(entry, f);
  }
}

/** Index signatures that come or go change the generated types only: one entry each way. */
function foldTypesOnly(pool: Pool): void {
  const typesOnly = pool.open((f) => f.level === "types");
  for (const gained of [true, false]) {
    const group = typesOnly.filter((f) => (f.cause?.indexSignature === "gained") === gained);
    if (group.length === 0) continue;
    const where = group.map((f) => `${f.subject}${f.path === "" ? "" : "." + f.path}`);
    const entry = pool.entry(group[0]!, {
      id: "index-signature-changed",
      message: `${group.length} object type${group.length === 1 ? "" : "s"} ${gained ? "gained" : "lost"} an index signature (${names(where)}); the schemas accept the same JSON`,
      level: "types",
      severity: WIRE_NEUTRAL,
    });
    for (const f of group) pool.fold(entry, f);
  }
}

/** Deprecations are grouped by the page that declares them; a description saying so joins them. */
function foldDeprecations(pool: Pool): void {
  const bySource = new Map<string, Finding[]>();
  for (const f of pool.open((x) => (x.id === "deprecated" || x.id === "undeprecated") && x.source != null)) {
    const k = `${f.id} ${f.source}`;
    bySource.set(k, [...(bySource.get(k) ?? []), f]);
  }
  for (const group of bySource.values()) {
    const head = group.find((f) => f.subjectKind === "method") ?? group[0]!;
    const all = group.map(deprecatedName);
    const entry = pool.entry(
      head,
      group.length === 1
        ? {}
        : { message: `${head.id === "deprecated" ? "now" : "no longer"} deprecated: ${names(all, 6)}` },
    );
    for (const f of group) pool.fold(entry, f);
  }
  const deprecatedAt = new Map<string, Finding>();
  for (const f of findingsWithId(pool, "deprecated")) deprecatedAt.set(`${f.subject} ${f.path}`, f);
  for (const f of pool.open(gainsDeprecated)) {
    const target = deprecatedAt.get(`${f.subject} ${f.path}`);
    if (target) pool.fold(pool.entry(target), f);
  }
}

function findingsWithId(pool: Pool, id: ChangeId): Finding[] {
  return pool.open((f) => f.id === id);
}

/**
 * A definition added (or removed) together with the property, union member or result that refers to
 * it is part of that change: `ToolExecution` went with `Tool.execution`, `ResultType` came with `resultType`.
 */
function foldReferencedDefinitions(pool: Pool): void {
  for (const f of pool.open((x) => x.id === "definition-added" || x.id === "definition-removed")) {
    const added = f.id === "definition-added";
    const refers = (x: Finding) =>
      x.id !== f.id && ((added ? x.cause?.references?.new : x.cause?.references?.old) ?? []).includes(f.subject);
    const entry = pool.madeSoFar().find((e) => e.members.some(refers));
    const single = entry ? undefined : pool.open((x) => x !== f && refers(x))[0];
    if (entry) pool.fold(entry, f);
    else if (single) pool.fold(pool.entry(single), f);
  }
}

/** Members added to (or removed from) one union at once are one change of that union. */
function foldUnionMembers(pool: Pool): void {
  const groups = new Map<string, Finding[]>();
  for (const f of pool.open((x) => x.id === "union-member-added" || x.id === "union-member-removed")) {
    const k = `${f.id} ${f.subjectKind} ${f.subject} ${f.path}`;
    groups.set(k, [...(groups.get(k) ?? []), f]);
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const added = group[0]!.id === "union-member-added";
    const members = group.map((f) => (added ? f.after : f.before) ?? "");
    const where = `\`${group[0]!.subject}${group[0]!.path === "" ? "" : "." + group[0]!.path}\``;
    const entry = pool.entry(group[0]!, {
      message: `${names(members, 6)} ${added ? "are now members" : "are no longer members"} of ${where}`,
      before: added ? null : members.join(" | "),
      after: added ? members.join(" | ") : null,
    });
    for (const f of group) pool.fold(entry, f);
  }
}

/** What a deprecation names: a subject, a property in it, or only some values of that property (`includeContext: "thisServer"`). */
export function deprecatedName(l: Pick<Location, "id" | "subject" | "path" | "before" | "after">): string {
  const values = l.id === "deprecated" || l.id === "undeprecated" ? (l.after ?? l.before) : null;
  return `${l.subject}${l.path === "" ? "" : "." + l.path}${values === null ? "" : `: ${values}`}`;
}

/** A description that starts saying "deprecated": the schema's own deprecation notice. */
export function gainsDeprecated(c: Pick<Change, "id" | "before" | "after">): boolean {
  const flags = (text: string | null) => (text === null ? [] : text.split(", "));
  return (
    c.id === "description-changed" && flags(c.after).includes("deprecated") && !flags(c.before).includes("deprecated")
  );
}

/** The same change at the same path of several definitions (`resultType` in every result) is one entry. */
function foldRepeats(pool: Pool): void {
  const groups = new Map<string, Finding[]>();
  const repeatable = (f: Finding) =>
    f.subjectKind === "definition" &&
    (f.path !== "" || f.id === "description-changed") &&
    f.id !== "definition-renamed";
  for (const f of pool.open(repeatable)) {
    const k = JSON.stringify([f.id, f.path, f.before, f.after, f.level ?? "wire"]);
    groups.set(k, [...(groups.get(k) ?? []), f]);
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const head = [...group].sort((a, b) => a.subject.length - b.subject.length || compare(a.subject, b.subject))[0]!;
    const others = group.filter((f) => f !== head).map((f) => f.subject);
    const entry = pool.entry(head, { message: `${head.message}; also in ${others.length} more: ${names(others)}` });
    for (const f of group) pool.fold(entry, f);
  }
}

/** Every node below a definition (not the definition itself), without following refs. */
function inlineNodes(node: SchemaNode, visit: (n: SchemaNode) => void): void {
  const children = [
    ...(node.properties ?? []).map((p) => p.schema),
    ...(node.items ? [node.items] : []),
    ...(typeof node.additionalProperties === "object" ? [node.additionalProperties] : []),
    ...(node.anyOf ?? []),
    ...(node.oneOf ?? []),
    ...(node.allOf ?? []),
  ];
  for (const c of children) {
    visit(c);
    inlineNodes(c, visit);
  }
}
