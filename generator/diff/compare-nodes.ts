import type { NormalisedSchema, SchemaNode, SchemaProperty } from "../load/schema-node.ts";
import { deref, shapeKey } from "../load/shape.ts";
import { compare } from "../common/code-point-order.ts";
import type { Cause, ChangeId, Finding, Level, Side, SubjectKind } from "./change.ts";
import { describe, namedIn } from "./describe.ts";
import { EFFECT, severityFor, type Effect } from "./severity.ts";
import { valueVariance } from "./variance.ts";

/** What one walk over a pair of nodes reports into, and under which heading. */
export interface NodeContext {
  readonly oldSchema: NormalisedSchema;
  readonly newSchema: NormalisedSchema;
  /** Old definition name → new name. */
  readonly renames: ReadonlyMap<string, string>;
  readonly subjectKind: SubjectKind;
  readonly subject: string;
  /** Sides that write values of the subject: decides who a change breaks. */
  readonly producers: ReadonlySet<Side>;
  /** Union membership changes here are rated by the method changes instead (message unions). */
  readonly membershipIsNotice: boolean;
  /** Messages started or stopped declaring `jsonrpc`/`id` themselves (`MethodModel.envelopeInSchema` flipped). */
  readonly envelopeMoved: boolean;
  /** Set below a union member matched by shape to a named definition: messages name that definition from here on. */
  readonly via?: { readonly name: string; readonly depth: number };
  readonly out: Finding[];
}

type Path = readonly string[];

const ENVELOPE_KEYS: ReadonlySet<string> = new Set(["jsonrpc", "id"]);

/**
 * Compares two nodes structurally. A `$ref` on one side facing an inline node (or a ref to a
 * `*Params`/`*MetaObject` definition) is looked through, so moving a shape into its own
 * definition is not a change; two refs to the same definition (after renames) stop the walk,
 * because that definition is compared once under its own name.
 */
export function compareNodes(
  ctx: NodeContext,
  a: SchemaNode,
  b: SchemaNode,
  path: Path = [],
  seen = new Set<string>(),
): void {
  const pair = `${a.pointer}|${b.pointer}`;
  if (seen.has(pair)) return;
  seen.add(pair);
  if (a.ref !== undefined && b.ref !== undefined) {
    if ((ctx.renames.get(a.ref) ?? a.ref) === b.ref) return;
    if (lookThrough(a.ref) || lookThrough(b.ref)) {
      compareNodes(ctx, ctx.oldSchema.definitions.get(a.ref)!, ctx.newSchema.definitions.get(b.ref)!, path, seen);
    } else {
      typeChanged(ctx, a, b, path, EFFECT.changed);
    }
    return;
  }
  // A named union facing anything else is opened first, so its members line up with the other side's.
  if (a.ref !== undefined && isUnion(ctx.oldSchema.definitions.get(a.ref)!))
    return compareNodes(ctx, ctx.oldSchema.definitions.get(a.ref)!, b, path, seen);
  if (b.ref !== undefined && isUnion(ctx.newSchema.definitions.get(b.ref)!))
    return compareNodes(ctx, a, ctx.newSchema.definitions.get(b.ref)!, path, seen);
  if (isUnion(a) || isUnion(b)) return compareUnions(ctx, a, b, path, seen);
  if (a.ref !== undefined) return compareNodes(ctx, ctx.oldSchema.definitions.get(a.ref)!, b, path, seen);
  if (b.ref !== undefined) return compareNodes(ctx, a, ctx.newSchema.definitions.get(b.ref)!, path, seen);

  compareDescriptions(ctx, a, b, path);
  compareValues(ctx, a, b, path);
  compareConstraints(ctx, a, b, path);
  compareLoosening(ctx, a, b, path);
  compareProperties(ctx, a, b, path, seen);
  compareOpenness(ctx, a, b, path, seen);
  if (a.items && b.items) compareNodes(ctx, a.items, b.items, [...path, "[]"], seen);
  else if (a.items || b.items) typeChanged(ctx, a, b, path, EFFECT.changed);
  if (path.length > 0 && (a.deprecated === true) !== (b.deprecated === true)) {
    record(
      ctx,
      b.deprecated ? "deprecated" : "undeprecated",
      path,
      `${label(ctx, path)} is ${b.deprecated ? "now" : "no longer"} deprecated`,
      null,
      null,
      a.pointer,
      b.pointer,
      EFFECT.notice,
    );
  }
}

/** RFC 2119 keywords, longest first so `MUST NOT` is not read as `MUST`. */
const NORMATIVE = /\b(MUST NOT|MUST|SHALL NOT|SHALL|SHOULD NOT|SHOULD|REQUIRED|RECOMMENDED|MAY|OPTIONAL)\b/g;

/** What a description says that a reviewer acts on: deprecation, normative keywords, `x-*` extension keywords. */
export function descriptionFlags(text: string | undefined): Set<string> {
  const out = new Set<string>();
  if (text === undefined) return out;
  if (/\bdeprecated\b/i.test(text)) out.add("deprecated");
  for (const m of text.matchAll(NORMATIVE)) out.add(m[1]!);
  for (const m of text.matchAll(/(?<![\w-])(x-[a-z][a-z0-9-]*)/g)) out.add(m[1]!);
  return out;
}

/** Prose-only changes: the wire is the same, but a maintainer should read the new text. */
function compareDescriptions(ctx: NodeContext, a: SchemaNode, b: SchemaNode, path: Path): void {
  const said = diffSets(descriptionFlags(a.description), descriptionFlags(b.description));
  // An `x-*` keyword on the node itself is an annotation too: tools may act on it, validators do not.
  const keywords = diffSets(new Set(Object.keys(a.extensions ?? {})), new Set(Object.keys(b.extensions ?? {})));
  const list = (flags: readonly string[]) => flags.map((f) => `\`${f}\``).join(", ");
  const parts = [
    ...(said.gained.length > 0 ? [`its description now says ${list(said.gained)}`] : []),
    ...(said.lost.length > 0 ? [`its description no longer says ${list(said.lost)}`] : []),
    ...(keywords.gained.length > 0 ? [`now has the keyword ${list(keywords.gained)}`] : []),
    ...(keywords.lost.length > 0 ? [`no longer has the keyword ${list(keywords.lost)}`] : []),
  ];
  if (parts.length === 0) return;
  const text = (d: string | undefined, n: SchemaNode) => {
    const all = [...descriptionFlags(d), ...Object.keys(n.extensions ?? {})].sort(compare);
    return all.length === 0 ? null : all.join(", ");
  };
  record(
    ctx,
    "description-changed",
    path,
    `${label(ctx, path)}: ${parts.join("; ")}`,
    text(a.description, a),
    text(b.description, b),
    a.pointer,
    b.pointer,
    EFFECT.notice,
    "description",
  );
}

function diffSets(before: ReadonlySet<string>, after: ReadonlySet<string>): { gained: string[]; lost: string[] } {
  return {
    gained: [...after].filter((f) => !before.has(f)).sort(compare),
    lost: [...before].filter((f) => !after.has(f)).sort(compare),
  };
}

/**
 * A structured object that becomes open (`additionalProperties` appears) while dropping
 * properties accepts more than before: the dropped keys are unconstrained now, not gone.
 */
function compareLoosening(ctx: NodeContext, a: SchemaNode, b: SchemaNode, path: Path): void {
  if (!isLoosened(ctx, a, b)) return;
  const dropped = [...objectProperties(ctx.oldSchema, a).keys()].filter(
    (k) => !objectProperties(ctx.newSchema, b).has(k),
  );
  record(
    ctx,
    "loosened",
    path,
    `${label(ctx, path)} loosened: any key is now allowed, and ${dropped.map((k) => `\`${k}\``).join(", ")} ${dropped.length === 1 ? "is" : "are"} no longer constrained`,
    describe(a),
    describe(b),
    a.pointer,
    b.pointer,
    EFFECT.widened,
  );
}

function isLoosened(ctx: NodeContext, a: SchemaNode, b: SchemaNode): boolean {
  const opened = (n: SchemaNode) => n.additionalProperties !== undefined && n.additionalProperties !== false;
  if (opened(a) || !opened(b)) return false;
  const after = objectProperties(ctx.newSchema, b);
  return [...objectProperties(ctx.oldSchema, a).keys()].some((k) => !after.has(k));
}

function isUnion(node: SchemaNode): boolean {
  return node.anyOf !== undefined || node.oneOf !== undefined;
}

/** Definitions that only exist to name a part of a message; their content belongs to the message. */
function lookThrough(name: string): boolean {
  return name.endsWith("Params") || name.endsWith("MetaObject");
}

function compareValues(ctx: NodeContext, a: SchemaNode, b: SchemaNode, path: Path): void {
  const variance = valueVariance(a, b);
  if (variance === "same") return;
  typeChanged(
    ctx,
    a,
    b,
    path,
    variance === "widened" ? EFFECT.widened : variance === "narrowed" ? EFFECT.narrowed : EFFECT.changed,
  );
}

/** Lower bounds narrow the accepted values as they rise, upper bounds as they fall. */
const BOUNDS: readonly {
  readonly key: "minimum" | "maximum" | "minItems" | "maxItems" | "minLength" | "maxLength";
  readonly lower: boolean;
}[] = [
  { key: "minimum", lower: true },
  { key: "maximum", lower: false },
  { key: "minItems", lower: true },
  { key: "maxItems", lower: false },
  { key: "minLength", lower: true },
  { key: "maxLength", lower: false },
];

/**
 * Bounds, `pattern` and `format` change which values are valid without changing the type: a
 * tighter one rejects what old producers still send, a looser one lets through what old
 * consumers never saw.
 */
function compareConstraints(ctx: NodeContext, a: SchemaNode, b: SchemaNode, path: Path): void {
  const report = (key: string, before: unknown, after: unknown, effect: Effect) => {
    const text = (v: unknown) => (v === undefined ? "none" : typeof v === "string" ? v : JSON.stringify(v));
    const how = effect === EFFECT.narrowed ? "tightened" : effect === EFFECT.widened ? "loosened" : "changed";
    record(
      ctx,
      "constraint-changed",
      path,
      `${key} of ${label(ctx, path)} ${how} (${text(before)} → ${text(after)})`,
      `${key}: ${text(before)}`,
      `${key}: ${text(after)}`,
      a.pointer,
      b.pointer,
      effect,
    );
  };
  for (const { key, lower } of BOUNDS) {
    const before = a[key];
    const after = b[key];
    if (before === after) continue;
    const tighter = after !== undefined && (before === undefined || (lower ? after > before : after < before));
    report(key, before, after, tighter ? EFFECT.narrowed : EFFECT.widened);
  }
  for (const key of ["pattern", "format"] as const) {
    const before = a[key];
    const after = b[key];
    if (before === after) continue;
    report(
      key,
      before,
      after,
      before === undefined ? EFFECT.narrowed : after === undefined ? EFFECT.widened : EFFECT.changed,
    );
  }
}

function compareProperties(ctx: NodeContext, a: SchemaNode, b: SchemaNode, path: Path, seen: Set<string>): void {
  const before = objectProperties(ctx.oldSchema, a);
  const after = objectProperties(ctx.newSchema, b);
  const names = [...new Set([...before.keys(), ...after.keys()])].sort(compare);
  for (const name of names) {
    const p = before.get(name);
    const q = after.get(name);
    const at = [...path, name];
    // Up to 2025-06-18 messages leave `jsonrpc`/`id` to the envelope; declaring them changes nothing on the wire.
    if (
      path.length === 0 &&
      (!p || !q) &&
      ENVELOPE_KEYS.has(name) &&
      ctx.envelopeMoved &&
      before.has("method") &&
      after.has("method")
    )
      continue;
    if (!p && q) {
      record(
        ctx,
        "property-added",
        at,
        `${q.required ? "required" : "optional"} property ${label(ctx, at)} added`,
        null,
        describe(q.schema),
        a.pointer,
        q.schema.pointer,
        q.required ? EFFECT.addedRequired : EFFECT.addedOptional,
        "wire",
        { required: q.required, references: { old: [], new: namedIn(q.schema) } },
      );
    } else if (p && !q && isOpen(a) && typesAnything(b.additionalProperties)) {
      widenedIntoIndex(ctx, p, b, at);
    } else if (p && !q) {
      record(
        ctx,
        "property-removed",
        at,
        `${p.required ? "required" : "optional"} property ${label(ctx, at)} removed`,
        describe(p.schema),
        null,
        p.schema.pointer,
        b.pointer,
        p.required ? EFFECT.removed : EFFECT.removedOptional,
        "wire",
        { required: p.required, references: { old: namedIn(p.schema), new: [] } },
      );
    } else if (p && q) {
      if (p.required !== q.required) {
        record(
          ctx,
          q.required ? "property-became-required" : "property-became-optional",
          at,
          `${label(ctx, at)} is now ${q.required ? "required" : "optional"}`,
          p.required ? "required" : "optional",
          q.required ? "required" : "optional",
          p.schema.pointer,
          q.schema.pointer,
          q.required ? EFFECT.becameRequired : EFFECT.becameOptional,
          "wire",
          { required: q.required },
        );
      }
      compareNodes(ctx, p.schema, q.schema, at, seen);
    }
  }
}

function isOpen(n: SchemaNode): boolean {
  return n.additionalProperties !== undefined && n.additionalProperties !== false;
}

/** An index signature of `unknown`: `additionalProperties` true or a schema that admits every value. */
function typesAnything(index: SchemaNode["additionalProperties"]): boolean {
  return (
    index === true ||
    (typeof index === "object" && Object.keys(index).every((k) => k === "pointer" || k === "description"))
  );
}

/**
 * A property dropped from an object whose type keeps its index signature is not gone: its key now has the index
 * signature's type (`unknown` for an open object), so it widened, and code reading the old type breaks as it does
 * for any widened value (rated as `structuredContent` turning `unknown` is). Still a removal for the id, so a move
 * folds it and `diff b a` mirrors it as the property added.
 */
function widenedIntoIndex(ctx: NodeContext, p: SchemaProperty, b: SchemaNode, at: Path): void {
  const index: SchemaNode =
    typeof b.additionalProperties === "object"
      ? b.additionalProperties
      : { pointer: `${b.pointer}/additionalProperties` };
  record(
    ctx,
    "property-removed",
    at,
    `type of ${label(ctx, at)} widened (\`${describe(p.schema)}\` → \`${describe(index)}\`): no longer declared, so its key is typed like any other${p.required ? ", and it may be missing" : ""}`,
    describe(p.schema),
    null,
    p.schema.pointer,
    b.pointer,
    EFFECT.widened,
    "wire",
    { required: p.required, undeclared: true, references: { old: namedIn(p.schema), new: [] } },
  );
}

/** Own properties plus those of `allOf` members (through refs): what an object value may hold. */
function objectProperties(schema: NormalisedSchema, node: SchemaNode): Map<string, SchemaProperty> {
  const out = new Map<string, SchemaProperty>();
  const add = (n: SchemaNode, depth: number) => {
    const target = deref(schema, n);
    for (const m of target.allOf ?? []) if (depth < 8) add(m, depth + 1);
    for (const p of target.properties ?? []) {
      const known = out.get(p.name);
      out.set(p.name, known ? { ...p, required: known.required || p.required } : p);
    }
  };
  add(node, 0);
  return out;
}

/** An object type in the bindings: one that can have an index signature at all (a node turned `unknown` has none to lose). */
function isObject(n: SchemaNode): boolean {
  return n.type === undefined
    ? n.properties !== undefined || n.additionalProperties !== undefined
    : n.type.includes("object");
}

function compareOpenness(ctx: NodeContext, a: SchemaNode, b: SchemaNode, path: Path, seen: Set<string>): void {
  const open = (n: SchemaNode) => n.additionalProperties !== undefined && n.additionalProperties !== false;
  if (typeof a.additionalProperties === "object" && typeof b.additionalProperties === "object") {
    compareNodes(ctx, a.additionalProperties, b.additionalProperties, [...path, "{}"], seen);
  } else if (open(a) !== open(b) && isObject(a) && isObject(b)) {
    // JSON Schema accepts unlisted keys either way; only the generated types open or close, so no peer sees it.
    const why = open(b) ? "its type now has an index signature" : "its type no longer has an index signature";
    record(
      ctx,
      "type-changed",
      path,
      `${label(ctx, path)}: ${why}`,
      describe(a),
      describe(b),
      a.pointer,
      b.pointer,
      EFFECT.notice,
      "types",
      {
        indexSignature: open(b) ? "gained" : "lost",
      },
    );
  }
}

/**
 * Members match by the definition they name (after renames) or by identical shape. Leftover
 * inline members with the same JSON type are compared as one member that changed; the rest
 * were added or removed. A non-union side counts as a union of one.
 */
function compareUnions(ctx: NodeContext, a: SchemaNode, b: SchemaNode, path: Path, seen: Set<string>): void {
  const members = (n: SchemaNode) => n.anyOf ?? n.oneOf ?? [n];
  const key = (n: SchemaNode, old: boolean) =>
    n.ref !== undefined ? `ref:${old ? (ctx.renames.get(n.ref) ?? n.ref) : n.ref}` : `shape:${shapeKey(n)}`;
  const unmatchedLeft = members(a).filter((m) => !members(b).some((n) => key(n, false) === key(m, true)));
  const unmatchedRight = members(b).filter((n) => !members(a).some((m) => key(m, true) === key(n, false)));
  // A member naming a definition that turned into a union is kept when this union now spells out that
  // union's members: the definition's own change is reported under its name (`EnumSchema` in 2025-11-25).
  const spelledOut = (m: SchemaNode, old: boolean, others: readonly SchemaNode[]): SchemaNode[] => {
    if (m.ref === undefined) return [];
    const inverse = [...ctx.renames].find(([, to]) => to === m.ref)?.[0];
    const name = old ? (ctx.renames.get(m.ref) ?? m.ref) : (inverse ?? m.ref);
    const there = (old ? ctx.newSchema : ctx.oldSchema).definitions.get(name);
    if (there === undefined || !isUnion(there)) return [];
    const wanted = new Set(members(there).map((n) => key(n, !old)));
    const found = others.filter((n) => wanted.has(key(n, !old)));
    return found.length === wanted.size ? found : [];
  };
  const covered = new Set<SchemaNode>();
  for (const m of unmatchedLeft) for (const n of spelledOut(m, true, unmatchedRight)) covered.add(m).add(n);
  for (const n of unmatchedRight) for (const m of spelledOut(n, false, unmatchedLeft)) covered.add(n).add(m);
  const left = unmatchedLeft.filter((m) => !covered.has(m));
  const right = unmatchedRight.filter((n) => !covered.has(n));
  // Best matches first; ties broken by a key that reads the same both ways, so `diff b a` pairs alike.
  const candidates: { m: SchemaNode; n: SchemaNode; score: number; tie: string }[] = [];
  for (const m of left) {
    for (const n of right) {
      if (m.ref !== undefined && n.ref !== undefined) continue;
      const score = resemblance(ctx, m, n);
      if (score > 0) candidates.push({ m, n, score, tie: [m.pointer, n.pointer].sort(compare).join(" ") });
    }
  }
  candidates.sort((x, y) => y.score - x.score || compare(x.tie, y.tie));
  const pairs: [SchemaNode, SchemaNode][] = [];
  for (const { m, n } of candidates) {
    if (!pairs.some(([pm, pn]) => pm === m || pn === n)) pairs.push([m, n]);
  }
  if (isUnion(a) !== isUnion(b) && isObject(isUnion(a) ? b : a)) turnedUnion(ctx, a, b, path, pairs);
  for (const [m, n] of pairs) {
    // An inline member matched to a named one (or the reverse): what lies below belongs to that name.
    const named = m.ref === undefined ? n.ref : n.ref === undefined ? m.ref : undefined;
    compareNodes(named !== undefined ? { ...ctx, via: { name: named, depth: path.length } } : ctx, m, n, path, seen);
  }
  const effectOf = (e: Effect) => (ctx.membershipIsNotice ? EFFECT.notice : e);
  for (const m of left) {
    if (pairs.some(([used]) => used === m)) continue;
    record(
      ctx,
      "union-member-removed",
      path,
      `\`${describe(m)}\` is no longer a member of ${label(ctx, path)}`,
      describe(m),
      null,
      m.pointer,
      b.pointer,
      effectOf(EFFECT.narrowed),
      "wire",
      { references: { old: namedIn(m), new: [] } },
    );
  }
  for (const n of right) {
    if (pairs.some(([, used]) => used === n)) continue;
    record(
      ctx,
      "union-member-added",
      path,
      `\`${describe(n)}\` is now a member of ${label(ctx, path)}`,
      null,
      describe(n),
      a.pointer,
      n.pointer,
      effectOf(EFFECT.widened),
      "wire",
      {
        references: { old: [], new: namedIn(n) },
      },
    );
  }
}

/**
 * An object that became a union (or the reverse) is said as such, naming the member that keeps its shape; what
 * changed for values is reported member by member. The kept member's definition, when new, belongs here.
 */
function turnedUnion(
  ctx: NodeContext,
  a: SchemaNode,
  b: SchemaNode,
  path: Path,
  pairs: readonly (readonly [SchemaNode, SchemaNode])[],
): void {
  const toUnion = isUnion(b);
  const single = toUnion ? a : b;
  const kept = pairs.find(([m, n]) => m === single || n === single);
  const member = kept === undefined ? undefined : kept[0] === single ? kept[1] : kept[0];
  const shape =
    member === undefined
      ? ""
      : toUnion
        ? `; its old shape is the member \`${describe(member)}\``
        : `; its old member \`${describe(member)}\` is its shape`;
  const named = member === undefined ? [] : namedIn(member);
  record(
    ctx,
    "type-changed",
    path,
    `${label(ctx, path)} turned from ${toUnion ? "an object into a union" : "a union into an object"}${shape}`,
    describe(a),
    describe(b),
    a.pointer,
    b.pointer,
    EFFECT.notice,
    "wire",
    { references: toUnion ? { old: [], new: named } : { old: named, new: [] } },
  );
}

/**
 * How alike two union members are: shared property names, or 1 for property-less nodes of the
 * same JSON type; 0 means unrelated. Two named definitions are never alike here: they differ by name.
 */
function resemblance(ctx: NodeContext, m: SchemaNode, n: SchemaNode): number {
  const a = deref(ctx.oldSchema, m);
  const b = deref(ctx.newSchema, n);
  if ((a.type ?? []).join() !== (b.type ?? []).join()) return 0;
  const names = new Set(objectProperties(ctx.oldSchema, a).keys());
  const shared = [...objectProperties(ctx.newSchema, b).keys()].filter((k) => names.has(k)).length;
  return shared > 0 ? shared : names.size === 0 && !b.properties ? 1 : 0;
}

function typeChanged(ctx: NodeContext, a: SchemaNode, b: SchemaNode, path: Path, effect: Effect, why?: string): void {
  const how = effect === EFFECT.widened ? "widened" : effect === EFFECT.narrowed ? "narrowed" : "changed";
  const message = why
    ? `${label(ctx, path)}: ${why}`
    : `type of ${label(ctx, path)} ${how} (\`${describe(a)}\` → \`${describe(b)}\`)`;
  record(ctx, "type-changed", path, message, describe(a), describe(b), a.pointer, b.pointer, effect, "wire", {
    references: { old: namedIn(a), new: namedIn(b) },
  });
}

export function formatPath(path: Path): string {
  return path.reduce(
    (text, part) => (part === "[]" || part === "{}" ? text + part : text === "" ? part : `${text}.${part}`),
    "",
  );
}

function label(ctx: NodeContext, path: Path): string {
  const base = ctx.via && path.length >= ctx.via.depth ? ctx.via.name : ctx.subject;
  const inner = formatPath(ctx.via && path.length >= ctx.via.depth ? path.slice(ctx.via.depth) : path);
  return `\`${base}${inner === "" ? "" : (inner.startsWith("[") ? "" : ".") + inner}\``;
}

export function record(
  ctx: NodeContext,
  id: ChangeId,
  path: Path,
  message: string,
  before: string | null,
  after: string | null,
  oldPointer: string | null,
  newPointer: string | null,
  effect: Effect,
  level: Level = "wire",
  cause: Cause = {},
): void {
  ctx.out.push({
    level,
    cause,
    id,
    subjectKind: ctx.subjectKind,
    subject: ctx.subject,
    path: formatPath(path),
    message,
    before,
    after,
    oldPointer,
    newPointer,
    severity: severityFor(ctx.producers, effect),
  });
}
