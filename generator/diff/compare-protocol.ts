import type { MetaScope, ProtocolModel } from "../model/protocol-model.ts";
import { SIDES, type Finding, type Side } from "./change.ts";
import { callerOf, definitionMethods, definitionProducers, messageUnionOf } from "./roles.ts";
import { EFFECT, same, severityFor, type Effect } from "./severity.ts";

/** The era: a different handshake and envelope, so nothing written for one era talks to the other unchanged. */
export function compareEra(oldModel: ProtocolModel, newModel: ProtocolModel): Finding[] {
  if (oldModel.era === newModel.era) return [];
  return [
    {
      id: "era-changed",
      subjectKind: "protocol",
      subject: "era",
      path: "",
      message: `era changed from ${oldModel.era} to ${newModel.era}`,
      before: oldModel.era,
      after: newModel.era,
      oldPointer: "",
      newPointer: "",
      severity: same("breaking"),
    },
  ];
}

/**
 * JSON-RPC batches (`envelope.batches`: the message union admits arrays of messages), rated like any
 * value by who writes and who reads it. Messages go both ways, so both sides write batches and both
 * read them. Losing batches narrows what may be sent: old code that batches is refused by a new peer
 * (breaking for writers); readers merely stop seeing arrays. Gaining them widens what may arrive: old
 * code reading one object at a time meets an array (breaking for readers, whom the batching release
 * obliges to accept them); writers lose nothing. Each side is both, so each is broken either way.
 */
export function compareBatches(oldModel: ProtocolModel, newModel: ProtocolModel): Finding[] {
  const [before, after] = [oldModel.envelope.batches, newModel.envelope.batches];
  if (before === after) return [];
  const state = (batches: boolean) => (batches ? "allowed" : "not allowed");
  const union = messageUnionOf(after ? newModel : oldModel);
  return [
    {
      id: after ? "batches-added" : "batches-removed",
      subjectKind: "protocol",
      subject: "batches",
      path: "",
      message: after
        ? "JSON-RPC batches allowed: the message union now admits arrays of messages, so a peer may receive several messages as one"
        : "JSON-RPC batches removed: the message union admits single messages only, so a peer sends each message on its own and receives no arrays",
      before: state(before),
      after: state(after),
      oldPointer: messageUnionOf(oldModel)?.definition.schema.pointer ?? null,
      newPointer: messageUnionOf(newModel)?.definition.schema.pointer ?? null,
      severity: severityFor(union?.writers ?? new Set(SIDES), after ? EFFECT.widened : EFFECT.narrowed),
    },
  ];
}

/** The schema file's own JSON Schema dialect (`$schema`): tools reading the file must follow it; peers see nothing. */
export function compareDialect(oldModel: ProtocolModel, newModel: ProtocolModel): Finding[] {
  if (oldModel.dialect === newModel.dialect) return [];
  return [
    {
      id: "dialect-changed",
      subjectKind: "protocol",
      subject: "dialect",
      path: "",
      message: `the schema file is now JSON Schema ${newModel.dialect} (was ${oldModel.dialect}): \`$schema\`, \`$defs\` instead of \`definitions\``,
      before: oldModel.dialect,
      after: newModel.dialect,
      oldPointer: "/$schema",
      newPointer: "/$schema",
      severity: same("compatible"),
      level: "description",
    },
  ];
}

/**
 * Deprecations of properties and reserved `_meta` keys, which only facts (the TypeScript source)
 * record; methods and definitions are compared with their subjects.
 */
export function compareDeprecations(oldModel: ProtocolModel, newModel: ProtocolModel): Finding[] {
  const out: Finding[] = [];
  // Deprecated values are keyed with the property: other values deprecated are another deprecation.
  const of = (m: ProtocolModel) =>
    new Map(
      m.deprecations
        .filter((d) => d.kind === "property" || d.kind === "meta-key")
        .map((d) => [`${d.kind} ${d.name} ${JSON.stringify(d.values)}`, d]),
    );
  const before = of(oldModel);
  const after = of(newModel);
  const pointerOf = (m: ProtocolModel, kind: string, name: string): string | null => {
    if (kind === "meta-key") {
      const key = m.metaKeys.find((k) => k.key === name);
      return key?.definition ? (m.definitions.get(key.definition)?.schema.pointer ?? null) : null;
    }
    const [definition, ...path] = name.split(".");
    let node = m.definitions.get(definition!)?.schema;
    for (const p of path) node = node?.properties?.find((x) => x.name === p)?.schema;
    return node?.pointer ?? null;
  };
  const push = (key: string, now: boolean) => {
    const d = (now ? after : before).get(key)!;
    const [subject, ...rest] = d.kind === "meta-key" ? [d.name] : d.name.split(".");
    const values = d.values === null ? null : d.values.map((v) => JSON.stringify(v)).join(" | ");
    out.push({
      id: now ? "deprecated" : "undeprecated",
      subjectKind: d.kind === "meta-key" ? "meta-key" : "definition",
      subject: subject!,
      path: rest.join("."),
      message:
        values === null
          ? `\`${d.name}\` is ${now ? "now" : "no longer"} deprecated`
          : `the value${d.values!.length === 1 ? "" : "s"} ${values} of \`${d.name}\` ${d.values!.length === 1 ? "is" : "are"} ${now ? "now" : "no longer"} deprecated (the property is not)`,
      // The values, where only they are deprecated: on the side where they are.
      before: now ? null : values,
      after: now ? values : null,
      oldPointer: pointerOf(oldModel, d.kind, d.name),
      newPointer: pointerOf(newModel, d.kind, d.name),
      severity: same("compatible"),
      source: d.source,
    });
  };
  for (const key of after.keys()) if (!before.has(key)) push(key, true);
  for (const key of before.keys()) if (!after.has(key)) push(key, false);
  return out;
}

/** Error codes by number: a peer may see a code it does not know by name, which JSON-RPC already allows. */
export function compareErrorCodes(oldModel: ProtocolModel, newModel: ProtocolModel): Finding[] {
  const out: Finding[] = [];
  const before = new Map(oldModel.errorCodes.map((e) => [e.code, e]));
  const after = new Map(newModel.errorCodes.map((e) => [e.code, e]));
  const pointer = (m: ProtocolModel, definition: string | null) =>
    definition ? (m.definitions.get(definition)?.schema.pointer ?? null) : null;
  const change = (
    id: Finding["id"],
    code: number,
    message: string,
    b: string | null,
    a: string | null,
    op: string | null,
    np: string | null,
  ): Finding => ({
    id,
    subjectKind: "error-code",
    subject: String(code),
    path: "",
    message,
    before: b,
    after: a,
    oldPointer: op,
    newPointer: np,
    severity: same("compatible"),
  });
  for (const [code, e] of after) {
    const old = before.get(code);
    if (!old)
      out.push(
        change(
          "error-code-added",
          code,
          `error code ${code} (${e.name}) added`,
          null,
          e.name,
          null,
          pointer(newModel, e.definition),
        ),
      );
    else if (old.name !== e.name) {
      out.push(
        change(
          "error-code-renamed",
          code,
          `error code ${code} is now named ${e.name} (was ${old.name})`,
          old.name,
          e.name,
          pointer(oldModel, old.definition),
          pointer(newModel, e.definition),
        ),
      );
    }
  }
  for (const [code, e] of before) {
    if (after.has(code)) continue;
    const replacement = e.replacedBy ? after.get(e.replacedBy.code) : undefined;
    const instead = e.replacedBy
      ? `; the spec now uses ${e.replacedBy.code}${replacement ? ` (${replacement.name})` : ""} instead`
      : "";
    out.push({
      ...change(
        "error-code-removed",
        code,
        `error code ${code} (${e.name}) removed${instead}`,
        e.name,
        null,
        pointer(oldModel, e.definition),
        null,
      ),
      source: e.replacedBy?.source ?? e.source,
      ...(e.replacedBy ? { cause: { replacedBy: e.replacedBy.code } } : {}),
    });
  }
  return out;
}

/** Whether `key` lies under a prefix `rule` reserves: runtime/core/meta-keys.ts `IsReservedMetaKey` on a value. */
function reservesMetaKey(rule: ProtocolModel["reservedMetaPrefix"], key: string): boolean {
  const slash = key.indexOf("/");
  if (rule === null || slash < 0) return false;
  const labels = key.slice(0, slash).split(".");
  const label = rule.position === "second" ? labels[1] : labels.length < 2 ? undefined : labels[labels.length - 2];
  return label !== undefined && rule.labels.includes(label);
}

/**
 * Reserved `_meta` keys, per scope. A key required in requests binds whoever sends requests;
 * in results, whoever answers them; in notifications, whoever sends them.
 */
export function compareMetaKeys(oldModel: ProtocolModel, newModel: ProtocolModel): Finding[] {
  const out: Finding[] = [];
  const entries = (m: ProtocolModel) => {
    const map = new Map<string, { key: string; scope: MetaScope; required: boolean; definition: string | null }>();
    for (const k of m.metaKeys) {
      for (const scope of k.scopes)
        map.set(`${k.key} ${scope}`, {
          key: k.key,
          scope,
          required: k.requiredIn.includes(scope),
          definition: k.definitionIn[scope] ?? k.definition,
        });
    }
    return map;
  };
  const before = entries(oldModel);
  const after = entries(newModel);
  // New obligations bind who writes in the new release; lost keys hurt who read them in the old one.
  const newWriters = keyWriters(oldModel, newModel);
  const oldWriters = keyWriters(newModel, oldModel);
  const pointer = (m: ProtocolModel, definition: string | null) =>
    definition ? (m.definitions.get(definition)?.schema.pointer ?? null) : null;
  const push = (
    id: Finding["id"],
    e: { key: string; scope: MetaScope; definition: string | null; required: boolean },
    message: string,
    b: string | null,
    a: string | null,
    op: string | null,
    np: string | null,
    effect: Effect,
    writers: (scope: MetaScope, definition: string | null) => Set<Side> | null,
  ) =>
    out.push({
      id,
      subjectKind: "meta-key",
      subject: e.key,
      path: e.scope,
      message,
      before: b,
      after: a,
      oldPointer: op,
      newPointer: np,
      // null: the key lives only in methods the other release lacks, so no code written for it meets it.
      severity: ((w) => (w === null ? same("compatible") : severityFor(w, effect)))(writers(e.scope, e.definition)),
      cause: { required: e.required },
    });
  const state = (required: boolean) => (required ? "required" : "optional");
  for (const [id, e] of after) {
    const old = before.get(id);
    if (!old) {
      push(
        "meta-key-added",
        e,
        `${state(e.required)} _meta key \`${e.key}\` added in ${e.scope}s`,
        null,
        state(e.required),
        null,
        pointer(newModel, e.definition),
        e.required ? EFFECT.addedRequired : EFFECT.addedOptional,
        newWriters,
      );
    } else if (old.required !== e.required) {
      push(
        e.required ? "meta-key-became-required" : "meta-key-became-optional",
        e,
        `_meta key \`${e.key}\` is now ${state(e.required)} in ${e.scope}s`,
        state(old.required),
        state(e.required),
        pointer(oldModel, old.definition),
        pointer(newModel, e.definition),
        e.required ? EFFECT.becameRequired : EFFECT.becameOptional,
        e.required ? newWriters : oldWriters,
      );
    }
  }
  for (const [id, e] of before) {
    if (!after.has(id)) {
      // A key no `_meta` type declared (named only in prose) was never more than an open key: code writing or
      // reading it compiles and runs the same once it is no longer reserved, as the new release's checked `_meta` keeps
      // it (`formerMetaKeys`). A declared or required one is lost to readers. One the checked `_meta` neither lists (in
      // any scope) nor keeps, under a prefix the new release reserves, no longer compiles where code writes it.
      const typed = e.required || e.definition !== null;
      const refused =
        !newModel.metaKeys.some((k) => k.key === e.key) &&
        !newModel.formerMetaKeys.includes(e.key) &&
        reservesMetaKey(newModel.reservedMetaPrefix, e.key);
      const refusal = `; ${newModel.version}'s checked \`_meta\` refuses it (a reserved prefix, no key of that release)`;
      push(
        "meta-key-removed",
        e,
        typed || refused
          ? `_meta key \`${e.key}\` removed from ${e.scope}s${refused ? refusal : ""}`
          : `_meta key \`${e.key}\` is no longer reserved in ${e.scope}s; \`_meta\` stays open and ${newModel.version}'s checked \`_meta\` still accepts it, so code that writes or reads it still compiles`,
        state(e.required),
        null,
        pointer(oldModel, e.definition),
        null,
        refused ? (typed ? EFFECT.changed : EFFECT.narrowed) : typed ? EFFECT.removed : EFFECT.removedOptional,
        oldWriters,
      );
    }
  }
  return out;
}

/**
 * Who writes a key: the producers of the definition declaring it in that scope, or else of the
 * whole scope. null when only methods missing from the other release reach that definition.
 */
function keyWriters(
  other: ProtocolModel,
  model: ProtocolModel,
): (scope: MetaScope, definition: string | null) => Set<Side> | null {
  const producers = definitionProducers(model);
  const methods = definitionMethods(model);
  const otherMethods = new Set(other.methods.map((m) => m.name));
  const byScope = scopeWriters(model);
  return (scope, definition) => {
    const reached = definition ? methods.get(definition) : undefined;
    if (reached && [...reached].every((m) => !otherMethods.has(m))) return null;
    return (definition ? producers.get(definition) : undefined) ?? byScope[scope];
  };
}

/** Which sides write `_meta` in each scope, from the methods of a release. */
function scopeWriters(model: ProtocolModel): Record<MetaScope, Set<Side>> {
  const out: Record<MetaScope, Set<Side>> = { request: new Set(), result: new Set(), notification: new Set() };
  for (const m of model.methods) {
    for (const d of m.directions) {
      const caller = callerOf(d);
      if (m.kind === "notification") out.notification.add(caller);
      else {
        out.request.add(caller);
        out.result.add(caller === "client" ? "server" : "client");
      }
    }
  }
  return out;
}
