import { VariableDeclarationKind } from "../common/ts-morph.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import type { VersionEmitter } from "./emitted.ts";
import { runtimeImport } from "./runtime-files.ts";
import { httpSpec } from "../model/http-spec.ts";
import { buildSourceFile } from "./source-file.ts";

/** The optional second parameter of the header functions. */
const TOOL_OPTION = { name: "options", type: "{ readonly tool?: HeaderTool }", initializer: "{}" };

/**
 * `<version>/http.ts` for releases whose Streamable HTTP transport routes on headers: the shared
 * header functions (runtime/core/http-headers.ts) bound to this release's facts, all read from the
 * model (schema/facts.json, basic/transports/streamable-http).
 */
export const emitHttp: VersionEmitter = (model: ProtocolModel) => {
  const http = model.http;
  if (http === null)
    throw new Error(
      `emitHttp: ${model.version} has no Streamable HTTP facts; VERSION_EMITTERS emits http.ts only where it has`,
    );
  const path = `${model.version}/http.ts`;
  // Every fact the functions use, the header-mismatch code among them: a release that lacks one fails here, named.
  const spec = httpSpec(model);
  const runtime = runtimeImport("http-headers", 1);
  const content = buildSourceFile((file) => {
    file.addImportDeclaration({ namespaceImport: "headers", moduleSpecifier: runtime });
    file.addImportDeclaration({
      isTypeOnly: true,
      namedImports: ["HeaderSource", "HeaderTool", "HttpCheck", "HttpSpec", "ToolHeaderParams"],
      moduleSpecifier: runtime,
    });
    file.addExportDeclaration({
      isTypeOnly: true,
      namedExports: ["HeaderParam", "HeaderSource", "HeaderTool", "HttpCheck", "ToolHeaderParams"],
      moduleSpecifier: runtime,
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      docs: [`This release's Streamable HTTP facts (${http.source}).`],
      declarations: [{ name: "HTTP", type: "HttpSpec", initializer: JSON.stringify(spec) }],
    });
    file.addFunction({
      name: "toolHeaderParams",
      isExported: true,
      docs: [
        `A tool's \`${http.headerAnnotation}\` annotations checked against every constraint; a client drops a tool that fails from \`tools/list\`.`,
      ],
      parameters: [{ name: "tool", type: "HeaderTool" }],
      returnType: "ToolHeaderParams",
      statements: ["return headers.toolHeaderParams(HTTP, tool);"],
    });
    file.addFunction({
      name: "httpHeaders",
      isExported: true,
      docs: [
        `The headers a client sends with a message: \`${http.protocolVersionHeader}\`, \`${http.methodHeader}\`, \`${http.nameHeader}\` where the method routes by name, and with \`tool\` a \`${http.paramHeaderPrefix}{Name}\` per annotated argument. Throws a RangeError for what no header can carry.`,
      ],
      parameters: [
        { name: "message", type: "{ readonly method: string; readonly id?: unknown; readonly params?: unknown }" },
        TOOL_OPTION,
      ],
      returnType: "Record<string, string>",
      statements: ["return headers.httpHeaders(HTTP, message, options);"],
    });
    file.addFunction({
      name: "checkHttpHeaders",
      isExported: true,
      docs: [
        `The server side: headers (any case, encoded values decoded) compared with the parsed body; \`{ ok: false }\` carries the HTTP status and the ${spec.headerMismatchCode} response. Never throws.`,
      ],
      parameters: [{ name: "received", type: "HeaderSource" }, { name: "message", type: "object" }, TOOL_OPTION],
      returnType: "HttpCheck",
      statements: ["return headers.checkHttpHeaders(HTTP, received, message, options);"],
    });
    file.addFunction({
      name: "httpStatusOf",
      isExported: true,
      docs: [`The HTTP status for what a dispatcher answered (undefined: a notification, ${http.acceptedStatus}).`],
      parameters: [{ name: "response", type: "object | undefined" }],
      returnType: "number",
      statements: ["return headers.httpStatusOf(HTTP, response);"],
    });
  });
  return { path, content };
};
