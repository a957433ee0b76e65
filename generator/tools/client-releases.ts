import { BindgenError } from "../common/failures.ts";
import { httpSpec } from "../model/http-spec.ts";
import { inputRequiredSpec } from "../model/runtime-data.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import { sessionRequest, statelessRequest, type RequestMetaKeys } from "../runtime/core/builders.ts";
import type { ClientRelease, ReleaseHttp } from "../runtime/client/connect.ts";
import { listedToolParams, requestHeaders } from "../runtime/core/http-headers.ts";
import { isObject } from "../runtime/core/json.ts";
import { createRequesterCore, receiveBatch, type RequesterSpec } from "../runtime/core/requester.ts";
import { sessionEra } from "../runtime/client/session-era.ts";

/**
 * The project's releases as the shipped `connect` (runtime/client/connect.ts) takes them, built from the
 * models as each release's generated `clientRelease()` is, so `tools add` reaches a server exactly as
 * a user's client would: the same negotiation, transports and `Mcp-*` headers. A client that only
 * lists tools declares no capabilities and answers nothing the server asks (method not found).
 */
export function clientReleases(models: readonly ProtocolModel[]): ClientRelease[] {
  return [...models].sort((a, b) => (a.version < b.version ? 1 : -1)).map(clientRelease);
}

function clientRelease(model: ProtocolModel): ClientRelease {
  const where = model.schema.definitionsPointer;
  const need = <T>(found: T | undefined, what: string): T => {
    if (found === undefined) throw new BindgenError(model.file, where, what, "tools add reaches the server through it");
    return found;
  };
  const method = (name: string): string => need(model.methods.find((m) => m.name === name)?.name, `the method ${name}`);
  const code = (name: string): number =>
    need(model.errorCodes.find((e) => e.name === name)?.code, `the error code ${name} (schema/facts.json)`);
  const metaKey = (name: keyof RequestMetaKeys): string =>
    need(model.metaKeys.find((k) => k.name === name)?.key, `a reserved _meta key "${name}"`);
  const modern = model.era === "modern";
  const version = model.version;
  const spec: RequesterSpec = {
    // A listing that times out is closed with its session: no cancel notification is owed.
    cancel: null,
    internalErrorCode: code("InternalError"),
    batches: model.envelope.batches ? receiveBatch : null,
    inputRequired: inputRequiredSpec(model),
  };
  const progressToken = metaKey("progressToken");
  const keys: RequestMetaKeys | null = modern
    ? {
        protocolVersion: metaKey("protocolVersion"),
        clientCapabilities: metaKey("clientCapabilities"),
        clientInfo: metaKey("clientInfo"),
        logLevel: metaKey("logLevel"),
        progressToken,
      }
    : null;
  const build = (name: string, params: object | undefined, id: string | number): object =>
    keys === null
      ? sessionRequest(name, params, { id }, progressToken)
      : statelessRequest(name, params, { id, clientCapabilities: {} }, version, keys);
  return {
    version,
    era: modern
      ? {
          kind: "stateless",
          discover: method("server/discover"),
          unsupportedVersion: code("UnsupportedProtocolVersion"),
          signals: model.modernSignalCodes,
        }
      : sessionEra({
          initialize: method("initialize"),
          initialized: method("notifications/initialized"),
          initializeParams: (protocolVersion, clientInfo) => ({ protocolVersion, capabilities: {}, clientInfo }),
          agreedVersion: (result) =>
            isObject(result) && typeof result["protocolVersion"] === "string" ? result["protocolVersion"] : undefined,
        }),
    requester: (send, common) =>
      createRequesterCore(spec, build, send, common.timeoutMs === undefined ? {} : { timeoutMs: common.timeoutMs }),
    dispatcher: undefined,
    methodNotFound: code("MethodNotFound"),
    http: model.http === null ? undefined : releaseHttp(model, method("tools/list")),
  };
}

function releaseHttp(model: ProtocolModel, listTools: string): ReleaseHttp {
  const spec = httpSpec(model);
  return {
    listTools,
    headers: (message, params) => requestHeaders(spec, message as Parameters<typeof requestHeaders>[1], params),
    params: (tool) => listedToolParams(spec, tool),
  };
}
