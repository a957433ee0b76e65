import type { ProtocolModel } from "../model/protocol-model.ts";
import type { VersionEmitter } from "./emitted.ts";
import { runtimeImport } from "./runtime-files.ts";
import { httpSpec } from "./http-spec.ts";
import { buildSourceFile } from "./source-file.ts";

/**
 * `<version>/http.ts` for releases whose Streamable HTTP transport routes on headers: the shared
 * header functions (runtime/http-headers.ts) bound to this release's facts, all read from the
 * model (schema/facts.json, basic/transports/streamable-http).
 */
export const emitHttp: VersionEmitter = (model: ProtocolModel) => {
  const http = model.http;
  if (http === null)
    throw new Error(
      `emitHttp: ${model.version} has no Streamable HTTP facts; VERSION_EMITTERS emits http.ts only where it has`,
    );
  const path = `${model.version}/http.ts`;
  const data = httpSpec(model);
  const codeOf = (name: string): number | undefined => model.errorCodes.find((e) => e.name === name)?.code;
  const runtime = runtimeImport("http-headers", 1);
  const content = buildSourceFile(path, (file) =>
    file.addStatements(
      [
        `import * as headers from "${runtime}";`,
        `import type { HeaderSource, HeaderTool, HttpCheck, HttpSpec, ToolHeaderParams } from "${runtime}";`,
        `export type { HeaderParam, HeaderSource, HeaderTool, HttpCheck, ToolHeaderParams } from "${runtime}";`,
        ``,
        `/** This release's Streamable HTTP facts (${http.source}). */`,
        `export const HTTP: HttpSpec = ${JSON.stringify(data)};`,
        ``,
        `/** A tool's \`${http.headerAnnotation}\` annotations checked against every constraint; a client drops a tool that fails from \`tools/list\`. */`,
        `export function toolHeaderParams(tool: HeaderTool): ToolHeaderParams {`,
        `  return headers.toolHeaderParams(HTTP, tool);`,
        `}`,
        ``,
        `/** The headers a client sends with a message: \`${http.protocolVersionHeader}\`, \`${http.methodHeader}\`, \`${http.nameHeader}\` where the method routes by name, and with \`tool\` a \`${http.paramHeaderPrefix}{Name}\` per annotated argument. Throws a RangeError for what no header can carry. */`,
        `export function httpHeaders(message: { readonly method: string; readonly id?: unknown; readonly params?: unknown }, options: { readonly tool?: HeaderTool } = {}): Record<string, string> {`,
        `  return headers.httpHeaders(HTTP, message, options);`,
        `}`,
        ``,
        `/** The server side: headers (any case, encoded values decoded) compared with the parsed body; \`{ ok: false }\` carries the HTTP status and the -${-Number(codeOf("HeaderMismatch"))} response. Never throws. */`,
        `export function checkHttpHeaders(received: HeaderSource, message: object, options: { readonly tool?: HeaderTool } = {}): HttpCheck {`,
        `  return headers.checkHttpHeaders(HTTP, received, message, options);`,
        `}`,
        ``,
        `/** The HTTP status for what a dispatcher answered (undefined: a notification, ${http.acceptedStatus}). */`,
        `export function httpStatusOf(response: object | undefined): number {`,
        `  return headers.httpStatusOf(HTTP, response);`,
        `}`,
      ].join("\n"),
    ),
  );
  return { path, content };
};
