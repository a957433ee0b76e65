import { BindgenError } from "../errors.ts";
import type { HttpModel, MetaKeyModel, ProtocolModel } from "../model/protocol-model.ts";

/**
 * The data a generated module hands to the shared runtime (generator/runtime/), read from the
 * model: the runtime knows no release, so everything release-specific arrives through here.
 */

/** The model's HTTP facts in the shape of the runtime's `RoutingFacts` (routing.ts), written into the output as a literal. */
export interface RoutingFactsData {
  readonly protocolVersionHeader: string;
  readonly methodHeader: string;
  readonly nameHeader: string;
  readonly nameParam: Readonly<Record<string, string>>;
  readonly protocolVersionKey: string;
}

export function httpFacts(http: HttpModel, metaKeys: readonly MetaKeyModel[]): RoutingFactsData {
  const protocolVersionKey = metaKeys.find((k) => k.name === "protocolVersion")?.key;
  if (protocolVersionKey === undefined) throw new Error("httpFacts: the model has HTTP facts but no protocolVersion _meta key");
  return {
    protocolVersionHeader: http.protocolVersionHeader,
    methodHeader: http.methodHeader,
    nameHeader: http.nameHeader,
    nameParam: Object.fromEntries(http.nameParam),
    protocolVersionKey,
  };
}

/** Fails with the schema's file and pointer when the model lacks a reserved `_meta` key the builders write. */
export function requireMetaKeys(model: ProtocolModel, names: readonly string[]): void {
  for (const name of names) {
    if (!model.metaKeys.some((k) => k.name === name)) {
      throw new BindgenError(
        model.file,
        model.schema.definitionsPointer,
        `a reserved _meta key "${name}" in a ${model.era} schema`,
        "the envelope builders write it (`MetaKey." + name + "`)",
      );
    }
  }
}
