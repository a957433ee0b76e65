import type { ProtocolModel } from "../model/protocol-model.ts";
import { compare } from "../common/code-point-order.ts";
import {
  SUBJECT_ORDER,
  SIDES,
  type Change,
  type ChangeId,
  type DiffRelease,
  type DiffReport,
  type DiffSummary,
  type Finding,
  type Location,
  type Side,
} from "./change.ts";
import { compareDefinitions } from "./compare-definitions.ts";
import { compareMethods } from "./compare-methods.ts";
import {
  compareBatches,
  compareDeprecations,
  compareDialect,
  compareEra,
  compareErrorCodes,
  compareMetaKeys,
} from "./compare-protocol.ts";
import { consolidate } from "./consolidate.ts";
import { declared } from "./declared.ts";
import { detectRenames, detectReusedNames } from "./renames.ts";
import { definitionProducers } from "./roles.ts";

export type { Change, ChangeId, DiffReport, Location, Severity, Side } from "./change.ts";
export { MIRROR_ID } from "./change.ts";

/** Everything that changed from `oldModel` to `newModel`, each change rated for clients and servers. */
export function diffModels(oldModel: ProtocolModel, newModel: ProtocolModel): DiffReport {
  const entries = consolidate(findChanges(oldModel, newModel), oldModel, newModel);
  return report(
    oldModel,
    newModel,
    entries
      .map((e) => ({ ...e, locations: [e.locations[0]!, ...e.locations.slice(1).sort(byPosition)] }))
      .sort(byPosition),
  );
}

/** What the comparers find, one finding per place, in a stable order: the input of `consolidate`. */
export function findChanges(oldModel: ProtocolModel, newModel: ProtocolModel): Finding[] {
  const removed = [...oldModel.definitions.keys()].filter((n) => !newModel.definitions.has(n));
  const added = [...newModel.definitions.keys()].filter((n) => !oldModel.definitions.has(n));
  const found = detectRenames(declared(oldModel), declared(newModel), removed, added);
  const reused = detectReusedNames(
    declared(oldModel),
    declared(newModel),
    removed.filter((n) => !found.some((r) => r.from === n)),
    added.filter((n) => !found.some((r) => r.to === n)),
  );
  const renames = [...found, ...reused].sort((a, b) => compare(a.from, b.from));
  const renameMap = new Map(renames.map((r) => [r.from, r.to]));
  const oldRoles = definitionProducers(oldModel);
  const newRoles = definitionProducers(newModel);
  const findings = [
    ...compareEra(oldModel, newModel),
    ...compareDialect(oldModel, newModel),
    ...compareBatches(oldModel, newModel),
    ...compareMethods({ oldModel, newModel, renames: renameMap, oldRoles, newRoles }),
    ...compareDefinitions({ oldModel, newModel, renames, oldRoles, newRoles }),
    ...compareErrorCodes(oldModel, newModel),
    ...compareMetaKeys(oldModel, newModel),
    ...compareDeprecations(oldModel, newModel),
  ];
  return findings.sort(byPosition);
}

/** Keeps the changes that concern the given sides (all of them for "both"). */
export function forSide(diff: DiffReport, side: Side | "both"): DiffReport {
  if (side === "both") return diff;
  const changes = diff.changes
    .filter((c) => c.severity[side] !== "none")
    .map((c) => ({ ...c, locations: c.locations.filter((l) => l.severity[side] !== "none") }));
  return { ...diff, changes, summary: summarise(changes) };
}

export function isBreaking(change: Change, side: Side | "both"): boolean {
  return side === "both" ? SIDES.some((s) => change.severity[s] === "breaking") : change.severity[side] === "breaking";
}

function report(oldModel: ProtocolModel, newModel: ProtocolModel, changes: Change[]): DiffReport {
  return {
    old: release(oldModel),
    new: release(newModel),
    summary: summarise(changes),
    methodsOf: methodsOf([oldModel, newModel], changes),
    changes,
  };
}

function release(m: ProtocolModel): DiffRelease {
  return {
    version: m.version,
    file: m.file,
    era: m.era,
    dialect: m.dialect,
    schemaPage: m.schemaPage,
    typescript: m.typescript,
  };
}

/** Definition → the methods it is the message, params or a result of, in either model: readers look for methods. */
function methodsOf(models: readonly ProtocolModel[], changes: readonly Change[]): Record<string, string[]> {
  const subjects = new Set(
    changes
      .flatMap((c) => c.locations)
      .filter((c) => c.subjectKind === "definition")
      .map((c) => c.subject),
  );
  const found = new Map<string, Set<string>>();
  for (const model of models) {
    for (const m of model.methods) {
      const defs = [
        m.definition,
        ...(m.params && m.params.path.length === 0 ? [m.params.definition] : []),
        ...m.results,
      ];
      for (const d of defs) if (subjects.has(d)) found.set(d, (found.get(d) ?? new Set()).add(m.name));
    }
  }
  return Object.fromEntries([...found].sort(([a], [b]) => compare(a, b)).map(([d, ms]) => [d, [...ms].sort(compare)]));
}

function summarise(changes: readonly Change[]): DiffSummary {
  const byId: Partial<Record<ChangeId, number>> = {};
  for (const c of [...changes].sort((a, b) => compare(a.id, b.id))) byId[c.id] = (byId[c.id] ?? 0) + 1;
  return {
    total: changes.length,
    locations: changes.reduce((n, c) => n + c.locations.length, 0),
    breaking: {
      client: changes.filter((c) => c.severity.client === "breaking").length,
      server: changes.filter((c) => c.severity.server === "breaking").length,
    },
    byId,
  };
}

function byPosition(a: Finding | Location, b: Finding | Location): number {
  return (
    SUBJECT_ORDER.indexOf(a.subjectKind) - SUBJECT_ORDER.indexOf(b.subjectKind) ||
    compare(a.subject, b.subject) ||
    compare(a.path, b.path) ||
    compare(a.id, b.id) ||
    compare(a.oldPointer ?? "", b.oldPointer ?? "") ||
    compare(a.newPointer ?? "", b.newPointer ?? "") ||
    compare(a.message, b.message)
  );
}
