import type { MetaScope, ProtocolModel } from "../model/protocol-model.ts";
import type { Change, Side } from "./change.ts";
import { callerOf } from "./roles.ts";
import { EFFECT, same, severityFor, type Effect } from "./severity.ts";

/** The era: a different handshake and envelope, so nothing written for one era talks to the other unchanged. */
export function compareEra(oldModel: ProtocolModel, newModel: ProtocolModel): Change[] {
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

/** Error codes by number: a peer may see a code it does not know by name, which JSON-RPC already allows. */
export function compareErrorCodes(oldModel: ProtocolModel, newModel: ProtocolModel): Change[] {
  const out: Change[] = [];
  const before = new Map(oldModel.errorCodes.map((e) => [e.code, e]));
  const after = new Map(newModel.errorCodes.map((e) => [e.code, e]));
  const pointer = (m: ProtocolModel, definition: string | null) => (definition ? (m.definitions.get(definition)?.schema.pointer ?? null) : null);
  const change = (id: Change["id"], code: number, message: string, b: string | null, a: string | null, op: string | null, np: string | null): Change => ({
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
    if (!old) out.push(change("error-code-added", code, `error code ${code} (${e.name}) added`, null, e.name, null, pointer(newModel, e.definition)));
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
    if (!after.has(code)) out.push(change("error-code-removed", code, `error code ${code} (${e.name}) removed`, e.name, null, pointer(oldModel, e.definition), null));
  }
  return out;
}

/**
 * Reserved `_meta` keys, per scope. A key required in requests binds whoever sends requests;
 * in results, whoever answers them; in notifications, whoever sends them.
 */
export function compareMetaKeys(oldModel: ProtocolModel, newModel: ProtocolModel): Change[] {
  const out: Change[] = [];
  const entries = (m: ProtocolModel) => {
    const map = new Map<string, { key: string; scope: MetaScope; required: boolean; definition: string | null }>();
    for (const k of m.metaKeys) {
      for (const scope of k.scopes) map.set(`${k.key} ${scope}`, { key: k.key, scope, required: k.requiredIn.includes(scope), definition: k.definition });
    }
    return map;
  };
  const before = entries(oldModel);
  const after = entries(newModel);
  // New obligations bind who writes in the new release; lost keys hurt who read them in the old one.
  const newWriters = scopeWriters(newModel);
  const oldWriters = scopeWriters(oldModel);
  const pointer = (m: ProtocolModel, definition: string | null) => (definition ? (m.definitions.get(definition)?.schema.pointer ?? null) : null);
  const push = (
    id: Change["id"],
    e: { key: string; scope: MetaScope },
    message: string,
    b: string | null,
    a: string | null,
    op: string | null,
    np: string | null,
    effect: Effect,
    writers: Record<MetaScope, Set<Side>>,
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
      severity: severityFor(writers[e.scope], effect),
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
      push("meta-key-removed", e, `_meta key \`${e.key}\` removed from ${e.scope}s`, state(e.required), null, pointer(oldModel, e.definition), null, EFFECT.removed, oldWriters);
    }
  }
  return out;
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
