import { BindgenError } from "../common/failures.ts";
import type { ProtocolModel } from "./protocol-model.ts";
import type { HttpSpec, RequestHeaderSpec } from "../runtime/core/http-headers.ts";

/** A release's `HttpSpec`, every fact read from the model; only for a model with `http`. */
export function httpSpec(model: ProtocolModel): HttpSpec {
  const http = model.http;
  if (http === null) throw new Error(`httpSpec: ${model.version} has no Streamable HTTP facts`);
  const need = <T>(found: T | undefined, what: string): T => {
    if (found === undefined)
      throw new BindgenError(
        model.file,
        model.schema.definitionsPointer,
        what,
        "the Streamable HTTP header functions use it",
      );
    return found;
  };
  const codeOf = (name: string) =>
    need(model.errorCodes.find((e) => e.name === name)?.code, `the error code ${name} (schema/facts.json)`);
  return {
    protocolVersionHeader: http.protocolVersionHeader,
    methodHeader: http.methodHeader,
    nameHeader: http.nameHeader,
    paramHeaderPrefix: http.paramHeaderPrefix,
    nameParam: Object.fromEntries(http.nameParam),
    headerAnnotation: http.headerAnnotation,
    toolCallMethod: http.toolCallMethod,
    argumentsParam: http.argumentsParam,
    headerParamTypes: http.headerParamTypes,
    sentinel: http.sentinel,
    protocolVersionMetaKey: need(
      model.metaKeys.find((k) => k.name === "protocolVersion")?.key,
      'a reserved _meta key "protocolVersion"',
    ),
    headerMismatchCode: codeOf("HeaderMismatch"),
    internalErrorCode: codeOf("InternalError"),
    errorStatus: Object.fromEntries([...http.errorStatus].map(([code, status]) => [String(code), status])),
    resultStatus: http.resultStatus,
    acceptedStatus: http.acceptedStatus,
  };
}

/** The part of `httpSpec` a client's request headers read: a client bundles it alone, without the server's statuses. */
export function requestHeaderSpec(model: ProtocolModel): RequestHeaderSpec {
  const spec = httpSpec(model);
  return {
    protocolVersionHeader: spec.protocolVersionHeader,
    methodHeader: spec.methodHeader,
    nameHeader: spec.nameHeader,
    paramHeaderPrefix: spec.paramHeaderPrefix,
    nameParam: spec.nameParam,
    headerAnnotation: spec.headerAnnotation,
    toolCallMethod: spec.toolCallMethod,
    argumentsParam: spec.argumentsParam,
    headerParamTypes: spec.headerParamTypes,
    sentinel: spec.sentinel,
    protocolVersionMetaKey: spec.protocolVersionMetaKey,
  };
}
