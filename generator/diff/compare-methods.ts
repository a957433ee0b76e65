import type { Direction, MethodModel, ProtocolModel } from "../model/protocol-model.ts";
import type { Finding, Severity, Side } from "./change.ts";
import { compareNodes, type NodeContext } from "./compare-nodes.ts";
import { declared } from "./declared.ts";
import { callerOf, producersOf } from "./roles.ts";
import { merge, other, same } from "./severity.ts";

export interface MethodInputs {
  readonly oldModel: ProtocolModel;
  readonly newModel: ProtocolModel;
  readonly renames: ReadonlyMap<string, string>;
  readonly oldRoles: ReadonlyMap<string, ReadonlySet<Side>>;
  readonly newRoles: ReadonlyMap<string, ReadonlySet<Side>>;
}

const ARROW: Record<Direction, string> = { "client-to-server": "client→server", "server-to-client": "server→client" };

/**
 * Methods added, removed, turned around, changed kind, or paired with other results. Who a
 * method change breaks depends on its direction: a request that disappears breaks the side
 * that calls it, a notification that disappears breaks the side that waited for it.
 */
export function compareMethods(input: MethodInputs): Finding[] {
  const { oldModel, newModel } = input;
  const out: Finding[] = [];
  const before = new Map(oldModel.methods.map((m) => [m.name, m]));
  const after = new Map(newModel.methods.map((m) => [m.name, m]));
  const push = (m: MethodModel, change: Omit<Finding, "subjectKind" | "subject" | "path">) =>
    out.push({ subjectKind: "method", subject: m.name, path: "", ...change });

  for (const m of newModel.methods) {
    if (before.has(m.name)) continue;
    push(m, {
      id: "method-added",
      message: `${kindText(m)} \`${m.name}\` added (${directionsText(m.directions)})`,
      before: null,
      after: signature(m),
      oldPointer: null,
      newPointer: m.pointer,
      severity: same("compatible"),
      cause: { references: { old: [], new: m.results } },
    });
  }
  for (const m of oldModel.methods) {
    if (after.has(m.name)) continue;
    push(m, {
      id: "method-removed",
      message: `${kindText(m)} \`${m.name}\` removed (${directionsText(m.directions)})`,
      before: signature(m),
      after: null,
      oldPointer: m.pointer,
      newPointer: null,
      severity: removalSeverity(m, m.directions),
      cause: { references: { old: m.results, new: [] } },
    });
  }
  for (const [name, a] of before) {
    const b = after.get(name);
    if (!b) continue;
    if (a.kind !== b.kind) {
      // An input request is embedded in a result instead of sent as a JSON-RPC request: neither old side copes.
      push(b, {
        id: "method-kind-changed",
        message: `\`${name}\` is now a${b.kind === "input" ? "n" : ""} ${b.kind} (was ${a.kind})`,
        before: a.kind,
        after: b.kind,
        oldPointer: a.pointer,
        newPointer: b.pointer,
        severity: same("breaking"),
      });
    }
    const lost = a.directions.filter((d) => !b.directions.includes(d));
    const gained = b.directions.filter((d) => !a.directions.includes(d));
    if (lost.length > 0 || gained.length > 0) {
      const parts = [...gained.map((d) => `now also ${ARROW[d]}`), ...lost.map((d) => `no longer ${ARROW[d]}`)];
      push(b, {
        id: "method-direction-changed",
        message: `\`${name}\`: ${parts.join(", ")}`,
        before: directionsText(a.directions),
        after: directionsText(b.directions),
        oldPointer: a.pointer,
        newPointer: b.pointer,
        severity: merge(removalSeverity(a, lost), same(gained.length > 0 ? "compatible" : "none")),
      });
    }
    compareResults(a, b);
    compareMessages(a, b);
    if (a.deprecated !== b.deprecated) {
      push(b, {
        id: b.deprecated ? "deprecated" : "undeprecated",
        message: `\`${name}\` is ${b.deprecated ? "now" : "no longer"} deprecated`,
        before: null,
        after: null,
        oldPointer: a.pointer,
        newPointer: b.pointer,
        severity: same("compatible"),
        source: sourceOf(b.deprecated ? newModel : oldModel, "method", name),
      });
    }
  }
  return out;

  /** Results a caller may now get (it must handle them) or a handler may no longer return. */
  function compareResults(a: MethodModel, b: MethodModel): void {
    const old = a.results.map((r) => input.renames.get(r) ?? r);
    const added = b.results.filter((r) => !old.includes(r));
    const removed = a.results.filter((_, i) => !b.results.includes(old[i]!));
    if (added.length === 0 && removed.length === 0) return;
    const severity: Record<Side, Severity> = { client: "none", server: "none" };
    for (const d of b.directions.filter((x) => a.directions.includes(x))) {
      const caller = callerOf(d);
      if (added.length > 0)
        Object.assign(
          severity,
          merge(severity, { [caller]: "breaking", [other(caller)]: "compatible" } as Record<Side, Severity>),
        );
      if (removed.length > 0)
        Object.assign(
          severity,
          merge(severity, { [caller]: "compatible", [other(caller)]: "breaking" } as Record<Side, Severity>),
        );
    }
    const parts = [...added.map((r) => `may now return \`${r}\``), ...removed.map((r) => `no longer returns \`${r}\``)];
    push(b, {
      id: "method-result-changed",
      message: `\`${b.name}\` ${parts.join(", ")}`,
      before: a.results.join(" | "),
      after: b.results.join(" | "),
      oldPointer: a.pointer,
      newPointer: b.pointer,
      severity,
      cause: { references: { old: a.results, new: b.results } },
    });
  }

  /** A message now defined elsewhere (not a rename) is compared here, since no definition pairs it. */
  function compareMessages(a: MethodModel, b: MethodModel): void {
    if ((input.renames.get(a.definition) ?? a.definition) === b.definition) return;
    const ctx: NodeContext = {
      oldSchema: declared(oldModel),
      newSchema: declared(newModel),
      renames: input.renames,
      subjectKind: "method",
      subject: b.name,
      producers: producersOf(input.oldRoles, a.definition, input.newRoles, b.definition),
      membershipIsNotice: false,
      envelopeMoved: a.envelopeInSchema !== b.envelopeInSchema,
      out,
    };
    compareNodes(ctx, messageNode(oldModel, a), messageNode(newModel, b));
  }
}

/** Where a release says something is deprecated. */
export function sourceOf(model: ProtocolModel, kind: "method" | "definition", name: string): string | null {
  return model.deprecations.find((d) => d.kind === kind && d.name === name)?.source ?? null;
}

/** The message itself; for a member written inline in its union, that member. */
function messageNode(model: ProtocolModel, m: MethodModel) {
  const def = model.definitions.get(m.definition)!.schema;
  if (!def.anyOf && !def.oneOf) return def;
  return (def.anyOf ?? def.oneOf)!.find((member) => member.pointer === m.pointer) ?? def;
}

/** Losing a request breaks whoever calls it; losing a notification breaks whoever relied on receiving it. */
function removalSeverity(m: MethodModel, directions: readonly Direction[]): Record<Side, Severity> {
  let severity: Record<Side, Severity> = { client: "none", server: "none" };
  for (const d of directions) {
    const caller = callerOf(d);
    const broken = m.kind === "notification" ? other(caller) : caller;
    severity = merge(severity, { [broken]: "breaking", [other(broken)]: "compatible" } as Record<Side, Severity>);
  }
  return severity;
}

function kindText(m: MethodModel): string {
  return m.kind === "notification" ? "notification" : m.kind === "input" ? "input request" : "request";
}

function directionsText(directions: readonly Direction[]): string {
  return directions.map((d) => ARROW[d]).join(", ");
}

function signature(m: MethodModel): string {
  return `${m.kind} ${directionsText(m.directions)}${m.results.length > 0 ? ` → ${m.results.join(" | ")}` : ""}`;
}
