import { BindgenError } from "../common/failures.ts";
import type { HttpModel, MetaKeyModel, ProtocolModel } from "./protocol-model.ts";
import type { InputRequiredSpec } from "../runtime/core/requester.ts";
import type { ResultTypeFacts } from "../runtime/core/responses.ts";
import type { RoutingFacts } from "../runtime/core/routing.ts";
import type { ClientApiFacts } from "../runtime/client/mcp-client.ts";
import type { TraceContextKeys } from "../runtime/core/trace-context.ts";

/**
 * The data a generated module hands to the shared runtime (generator/runtime/), read from the
 * model: the runtime knows no release, so everything release-specific arrives through here.
 */

/** The model's HTTP facts as the runtime's `RoutingFacts` (routing.ts), written into the output as a literal. */
export function httpFacts(http: HttpModel, metaKeys: readonly MetaKeyModel[]): RoutingFacts {
  const protocolVersionKey = metaKeys.find((k) => k.name === "protocolVersion")?.key;
  if (protocolVersionKey === undefined)
    throw new Error("httpFacts: the model has HTTP facts but no protocolVersion _meta key");
  return {
    protocolVersionHeader: http.protocolVersionHeader,
    methodHeader: http.methodHeader,
    nameHeader: http.nameHeader,
    nameParam: Object.fromEntries(http.nameParam),
    protocolVersionKey,
  };
}

/**
 * The `_meta` keys of W3C trace context a release reserves for requests (schema/facts.json `metaKeys`), as the
 * runtime's `TraceContextKeys` (trace-context.ts); null where it reserves none. A release reserving only some of
 * them fails: the runtime carries all three or none.
 */
export function traceContextKeys(model: ProtocolModel): TraceContextKeys | null {
  const keyOf = (name: string): string | undefined =>
    model.metaKeys.find((k) => k.name === name && k.scopes.includes("request"))?.key;
  const [traceparent, tracestate, baggage] = ["traceparent", "tracestate", "baggage"].map(keyOf);
  if (traceparent === undefined && tracestate === undefined && baggage === undefined) return null;
  if (traceparent === undefined || tracestate === undefined || baggage === undefined)
    throw new BindgenError(
      model.file,
      model.schema.definitionsPointer,
      "the _meta keys traceparent, tracestate and baggage together (schema/facts.json)",
      "the runtime carries W3C trace context as a whole",
    );
  return { traceparent, tracestate, baggage };
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

/** The model's `resultType` facts as the runtime's `ResultTypeFacts` (responses.ts); null for a session-based release. */
export function resultTypeFacts(model: ProtocolModel): ResultTypeFacts | null {
  const defaulted = model.dispatch.resultTypeDefault;
  if (defaulted === null) return null;
  return { key: defaulted.property, complete: defaulted.value, inputRequired: model.inputRequired?.resultType ?? null };
}

/** The model's `input_required` result as the runtime's `InputRequiredSpec` (requester.ts); null where the release has none. */
export function inputRequiredSpec(model: ProtocolModel): InputRequiredSpec | null {
  const facts = resultTypeFacts(model);
  const input = model.inputRequired;
  if (facts === null || input === null) return null;
  return {
    resultType: { ...facts, inputRequired: input.resultType },
    requests: input.requests,
    responses: input.responses,
    state: input.state,
  };
}

/** The methods the one-call client makes (runtime/client/mcp-client.ts), by its name for each. */
const CLIENT_API_METHODS = {
  callTool: "tools/call",
  listTools: "tools/list",
  listPrompts: "prompts/list",
  getPrompt: "prompts/get",
  listResources: "resources/list",
  listResourceTemplates: "resources/templates/list",
  readResource: "resources/read",
  complete: "completion/complete",
} as const;
const PROGRESS_NOTIFICATION = "notifications/progress";

/**
 * The model's facts as the one-call client's `ClientApiFacts`, or undefined when the release lacks a method it makes
 * or the progress key (a partial or synthetic schema): such a release has no `connectClient`, and the rest of its
 * bindings are generated as ever. The progress notification carries the token under the same name the request's
 * `_meta` key has (basic/utilities/progress), so one key serves both.
 */
export function clientApiFacts(model: ProtocolModel, resultType: ResultTypeFacts | null): ClientApiFacts | undefined {
  for (const name of [...Object.values(CLIENT_API_METHODS), PROGRESS_NOTIFICATION])
    if (!model.methods.some((m) => m.name === name)) return undefined;
  const token = model.metaKeys.find((k) => k.name === "progressToken")?.key;
  if (token === undefined) return undefined;
  return {
    methods: CLIENT_API_METHODS,
    progress: { notification: PROGRESS_NOTIFICATION, tokenKey: token, tokenParam: token },
    resultType,
  };
}
