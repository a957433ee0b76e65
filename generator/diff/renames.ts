import type { NormalisedSchema, SchemaNode } from "../load/schema-node.ts";
import { shapeKey } from "../load/shape.ts";
import { compare } from "../common/code-point-order.ts";

export interface Rename {
  readonly from: string;
  readonly to: string;
  /** The nodes to compare: the definitions themselves, or the one property a wrapper held. */
  readonly oldNode: SchemaNode;
  readonly newNode: SchemaNode;
  /** How close the match was, for the message: the looser tiers are tried only when stricter ones fail. */
  readonly match: RenameMatch;
}

export type RenameMatch = "same shape" | "same shape after refs" | "same shape but for required" | "unwrapped";

/** How two definitions may match, from exact to loose. */
const TIERS: readonly { match: RenameMatch; key: (s: NormalisedSchema, n: SchemaNode) => string }[] = [
  { match: "same shape", key: (_s, n) => shapeKey(n) },
  { match: "same shape after refs", key: (s, n) => shapeKey(resolveOneLevel(s, n, false)) },
  { match: "same shape but for required", key: (s, n) => shapeKey(resolveOneLevel(s, n, true)) },
];

/** A rename of one whole definition to another. */
function definitionRename(
  oldSchema: NormalisedSchema,
  newSchema: NormalisedSchema,
  from: string,
  to: string,
  match: RenameMatch,
): Rename {
  return { from, to, oldNode: oldSchema.definitions.get(from)!, newNode: newSchema.definitions.get(to)!, match };
}

/**
 * Pairs removed with added definitions that describe the same values. Tiers go from exact to
 * loose; within a tier only a unique pairing counts, so a guess never picks between look-alikes.
 * Every tier is symmetric, so `diff b a` finds the same pairs the other way round.
 */
export function detectRenames(
  oldSchema: NormalisedSchema,
  newSchema: NormalisedSchema,
  removed: readonly string[],
  added: readonly string[],
): Rename[] {
  const left = new Set(removed);
  const right = new Set(added);
  const out: Rename[] = [];
  for (const tier of TIERS) {
    pairUnique(
      left,
      right,
      (name) => tier.key(oldSchema, oldSchema.definitions.get(name)!),
      (name) => tier.key(newSchema, newSchema.definitions.get(name)!),
      (from, to) => out.push(definitionRename(oldSchema, newSchema, from, to, tier.match)),
    );
  }
  // A base type holding one property (`Annotated` = { annotations: {...} }) replaced by the type of that property.
  const key = (s: NormalisedSchema, n: SchemaNode) => shapeKey(resolveOneLevel(s, n, true));
  const wrappedKey = (s: NormalisedSchema, name: string) => {
    const inner = soleProperty(s.definitions.get(name)!);
    return inner ? key(s, inner) : `wrapper-less:${name}`;
  };
  pairUnique(
    left,
    right,
    (n) => wrappedKey(oldSchema, n),
    (n) => key(newSchema, newSchema.definitions.get(n)!),
    (from, to) => {
      out.push({
        from,
        to,
        oldNode: soleProperty(oldSchema.definitions.get(from)!)!,
        newNode: newSchema.definitions.get(to)!,
        match: "unwrapped",
      });
    },
  );
  pairUnique(
    left,
    right,
    (n) => key(oldSchema, oldSchema.definitions.get(n)!),
    (n) => wrappedKey(newSchema, n),
    (from, to) => {
      out.push({
        from,
        to,
        oldNode: oldSchema.definitions.get(from)!,
        newNode: soleProperty(newSchema.definitions.get(to)!)!,
        match: "unwrapped",
      });
    },
  );
  return out.sort((a, b) => compare(a.from, b.from));
}

/**
 * A definition renamed while its old name went to a new union holding it (2025-11-25: `JSONRPCResponse` became
 * `JSONRPCResultResponse`, and `JSONRPCResponse` names the result-or-error union): a name kept on both sides whose
 * union side has exactly one member, found only on that side, shaped like the other side's definition. The tiers are
 * those of `detectRenames`, and the rule reads the same both ways, so `diff b a` finds the pair turned round.
 */
export function detectReusedNames(
  oldSchema: NormalisedSchema,
  newSchema: NormalisedSchema,
  removed: readonly string[],
  added: readonly string[],
): Rename[] {
  const out: Rename[] = [];
  const isUnion = (n: SchemaNode) => n.anyOf !== undefined || n.oneOf !== undefined;
  const kept = [...oldSchema.definitions.keys()].filter((n) => newSchema.definitions.has(n)).sort(compare);
  for (const name of kept) {
    const [before, after] = [oldSchema.definitions.get(name)!, newSchema.definitions.get(name)!];
    if (isUnion(before) === isUnion(after)) continue;
    const [union, unionSchema, only] = isUnion(after)
      ? [after, newSchema, new Set(added)]
      : [before, oldSchema, new Set(removed)];
    const [single, singleSchema] = isUnion(after) ? [before, oldSchema] : [after, newSchema];
    const members = (union.anyOf ?? union.oneOf ?? []).flatMap((m) =>
      m.ref !== undefined && only.has(m.ref) ? [m.ref] : [],
    );
    for (const tier of TIERS) {
      const want = tier.key(singleSchema, single);
      const found = members.filter((m) => tier.key(unionSchema, unionSchema.definitions.get(m)!) === want);
      if (found.length === 0) continue;
      if (found.length === 1) {
        const [from, to] = isUnion(after) ? [name, found[0]!] : [found[0]!, name];
        out.push(definitionRename(oldSchema, newSchema, from, to, tier.match));
      }
      break;
    }
  }
  return out;
}

/** The one property of a wrapper object, if that property is itself an object with structure worth matching. */
function soleProperty(node: SchemaNode): SchemaNode | undefined {
  const inner =
    node.properties?.length === 1 && !node.anyOf && !node.oneOf && !node.allOf ? node.properties[0]!.schema : undefined;
  return inner && (inner.properties?.length ?? 0) > 0 ? inner : undefined;
}

/** Matches names whose keys are equal and unique on both sides; matched names leave the pools. */
function pairUnique(
  left: Set<string>,
  right: Set<string>,
  leftKey: (n: string) => string,
  rightKey: (n: string) => string,
  onPair: (l: string, r: string) => void,
): void {
  const group = (names: Set<string>, key: (n: string) => string) => {
    const byKey = new Map<string, string[]>();
    for (const n of [...names].sort(compare)) byKey.set(key(n), [...(byKey.get(key(n)) ?? []), n]);
    return byKey;
  };
  const l = group(left, leftKey);
  const r = group(right, rightKey);
  for (const [key, names] of l) {
    const match = r.get(key);
    if (names.length !== 1 || match?.length !== 1) continue;
    left.delete(names[0]!);
    right.delete(match[0]!);
    onPair(names[0]!, match[0]!);
  }
}

/** Replaces refs directly inside the node by their targets (one level), optionally forgetting `required`. */
function resolveOneLevel(schema: NormalisedSchema, node: SchemaNode, ignoreRequired: boolean): SchemaNode {
  const inline = (n: SchemaNode): SchemaNode => {
    const target = n.ref !== undefined ? (schema.definitions.get(n.ref) ?? n) : n;
    return ignoreRequired ? forgetRequired(target) : target;
  };
  const top = ignoreRequired ? forgetRequired(node) : node;
  return {
    ...top,
    ...(top.properties ? { properties: top.properties.map((p) => ({ ...p, schema: inline(p.schema) })) } : {}),
    ...(top.items ? { items: inline(top.items) } : {}),
  };
}

function forgetRequired(node: SchemaNode): SchemaNode {
  return node.properties ? { ...node, properties: node.properties.map((p) => ({ ...p, required: false })) } : node;
}
