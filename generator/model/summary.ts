import type { ProtocolModel } from "./protocol-model.ts";

/** The model as plain JSON for `list --json`: stable keys, no source nodes. */
export function summarise(model: ProtocolModel) {
  const count = (kind: string, direction: string) =>
    model.methods.filter((m) => m.kind === kind && m.directions.includes(direction as never)).length;
  return {
    version: model.version,
    era: model.era,
    eraEvidence: model.eraEvidence,
    dialect: model.dialect,
    sha256: model.sha256,
    counts: {
      definitions: model.definitions.size,
      clientRequests: count("request", "client-to-server"),
      serverRequests: count("request", "server-to-client"),
      inputRequests: count("input", "server-to-client"),
      clientNotifications: count("notification", "client-to-server"),
      serverNotifications: count("notification", "server-to-client"),
      methods: model.methods.length,
      errorCodes: model.errorCodes.length,
      metaKeys: model.metaKeys.length,
    },
    methods: model.methods.map((m) => ({
      method: m.name,
      kind: m.kind,
      directions: m.directions,
      definition: m.definition,
      params: m.params ? { definition: m.params.definition, path: m.params.path, required: m.paramsRequired } : null,
      results: m.results,
      response: m.response,
      envelopeInSchema: m.envelopeInSchema,
      deprecated: m.deprecated,
    })),
    messageUnions: model.messageUnions,
    envelope: model.envelope,
    errorCodes: model.errorCodes,
    errorRanges: model.errorRanges,
    metaKeys: model.metaKeys,
    deprecatedDefinitions: [...model.definitions.values()].filter((d) => d.deprecated).map((d) => d.name),
  };
}
