import type { ProtocolModel } from "../model/protocol-model.ts";
import { compare } from "../common/code-point-order.ts";
import type { Finding, Side } from "./change.ts";
import { compareNodes, record, type NodeContext } from "./compare-nodes.ts";
import type { Rename } from "./renames.ts";
import { sourceOf } from "./compare-methods.ts";
import { messageUnionNames, producersOf } from "./roles.ts";
import { declared } from "./declared.ts";
import { EFFECT } from "./severity.ts";

/** Whether messages started or stopped declaring `jsonrpc`/`id` themselves: the envelope moved, the wire did not change. */
export function envelopeMoved(oldModel: ProtocolModel, newModel: ProtocolModel): boolean {
  const before = new Map(oldModel.methods.map((m) => [m.name, m.envelopeInSchema]));
  return newModel.methods.some((m) => before.has(m.name) && before.get(m.name) !== m.envelopeInSchema);
}

export interface DefinitionInputs {
  readonly oldModel: ProtocolModel;
  readonly newModel: ProtocolModel;
  readonly renames: readonly Rename[];
  readonly oldRoles: ReadonlyMap<string, ReadonlySet<Side>>;
  readonly newRoles: ReadonlyMap<string, ReadonlySet<Side>>;
}

/** Added, removed and renamed definitions, then a structural comparison of each one kept. */
export function compareDefinitions(input: DefinitionInputs): Finding[] {
  const { oldModel, newModel, renames } = input;
  const out: Finding[] = [];
  const renameMap = new Map(renames.map((r) => [r.from, r.to]));
  const renamedTo = new Set(renames.map((r) => r.to));
  const messageUnions = messageUnionNames(oldModel, newModel);
  const moved = envelopeMoved(oldModel, newModel);
  const context = (oldName: string | null, newName: string | null): NodeContext => ({
    oldSchema: declared(oldModel),
    newSchema: declared(newModel),
    renames: renameMap,
    subjectKind: "definition",
    subject: newName ?? oldName!,
    producers: producersOf(input.oldRoles, oldName, input.newRoles, newName),
    membershipIsNotice: messageUnions.has(newName ?? oldName!),
    envelopeMoved: moved,
    out,
  });

  // A name can be renamed away and reused at once (`detectReusedNames`): its old and new definitions are unrelated.
  const renamedFrom = new Map(renames.map((r) => [r.to, r.from]));
  for (const [name, def] of newModel.definitions) {
    if (renamedTo.has(name) || (oldModel.definitions.has(name) && !renameMap.has(name))) continue;
    record(
      context(null, name),
      "definition-added",
      [],
      `definition \`${name}\` added${renameMap.has(name) ? `, under the old name of \`${renameMap.get(name)}\`` : ""}`,
      null,
      name,
      null,
      def.schema.pointer,
      EFFECT.notice,
    );
  }
  for (const [name, def] of oldModel.definitions) {
    if (renameMap.has(name) || (newModel.definitions.has(name) && !renamedTo.has(name))) continue;
    record(
      context(name, null),
      "definition-removed",
      [],
      `definition \`${name}\` removed${renamedFrom.has(name) ? `; the name now names what was \`${renamedFrom.get(name)}\`` : ""}`,
      name,
      null,
      def.schema.pointer,
      null,
      EFFECT.notice,
    );
  }
  for (const r of renames) {
    const ctx = context(r.from, r.to);
    record(
      ctx,
      "definition-renamed",
      [],
      `\`${r.from}\` is now \`${r.to}\` (matched: ${r.match})`,
      r.from,
      r.to,
      oldModel.definitions.get(r.from)!.schema.pointer,
      newModel.definitions.get(r.to)!.schema.pointer,
      EFFECT.notice,
    );
    compareNodes(ctx, r.oldNode, r.newNode);
    deprecation(ctx, r.from, r.to);
  }
  const kept = [...oldModel.definitions.keys()]
    .filter((name) => newModel.definitions.has(name) && !renameMap.has(name) && !renamedTo.has(name))
    .sort(compare);
  for (const name of kept) {
    const ctx = context(name, name);
    compareNodes(ctx, oldModel.definitions.get(name)!.schema, newModel.definitions.get(name)!.schema);
    deprecation(ctx, name, name);
  }
  return out;

  function deprecation(ctx: NodeContext, from: string, to: string): void {
    const before = oldModel.definitions.get(from)!;
    const after = newModel.definitions.get(to)!;
    if (before.deprecated === after.deprecated) return;
    record(
      ctx,
      after.deprecated ? "deprecated" : "undeprecated",
      [],
      `\`${to}\` is ${after.deprecated ? "now" : "no longer"} deprecated`,
      null,
      null,
      before.schema.pointer,
      after.schema.pointer,
      EFFECT.notice,
    );
    const found = ctx.out[ctx.out.length - 1]!;
    ctx.out[ctx.out.length - 1] = {
      ...found,
      source: sourceOf(after.deprecated ? newModel : oldModel, "definition", to),
    };
  }
}
