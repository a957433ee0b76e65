import { SIDES, type Severity, type Side } from "./change.ts";

/**
 * How a change to a message shape hits the side that writes the value (producer) and the side
 * that reads it (consumer). "Breaking" means: code written for the old release fails against a
 * peer on the new one. A new required field is missing from what old producers send; a removed
 * field is missing from what old consumers expect; a wider type reaches old consumers with
 * values they never handled; a narrower one rejects values old producers still send.
 */
export interface Effect {
  readonly producer: Severity;
  readonly consumer: Severity;
}

export const EFFECT = {
  addedRequired: { producer: "breaking", consumer: "compatible" },
  addedOptional: { producer: "compatible", consumer: "compatible" },
  removed: { producer: "compatible", consumer: "breaking" },
  // Old readers already handle an optional property being absent, and new readers ignore it when an old writer sends it.
  removedOptional: { producer: "compatible", consumer: "compatible" },
  becameRequired: { producer: "breaking", consumer: "compatible" },
  becameOptional: { producer: "compatible", consumer: "breaking" },
  widened: { producer: "compatible", consumer: "breaking" },
  narrowed: { producer: "breaking", consumer: "compatible" },
  changed: { producer: "breaking", consumer: "breaking" },
  notice: { producer: "compatible", consumer: "compatible" },
} as const satisfies Record<string, Effect>;

const RANK: Record<Severity, number> = { none: 0, compatible: 1, breaking: 2 };

export function worst(a: Severity, b: Severity): Severity {
  return RANK[a] >= RANK[b] ? a : b;
}

export function other(side: Side): Side {
  return side === "client" ? "server" : "client";
}

/** Per-side severity of an effect on a value the given sides produce (the other side consumes). */
export function severityFor(producers: ReadonlySet<Side>, effect: Effect): Record<Side, Severity> {
  const out: Record<Side, Severity> = { client: "none", server: "none" };
  for (const producer of producers) {
    out[producer] = worst(out[producer], effect.producer);
    out[other(producer)] = worst(out[other(producer)], effect.consumer);
  }
  return out;
}

export function same(severity: Severity): Record<Side, Severity> {
  return { client: severity, server: severity };
}

export function merge(
  a: Readonly<Record<Side, Severity>>,
  b: Readonly<Record<Side, Severity>>,
): Record<Side, Severity> {
  return Object.fromEntries(SIDES.map((s) => [s, worst(a[s], b[s])])) as Record<Side, Severity>;
}
