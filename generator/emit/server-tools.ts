import type { InterfaceDeclarationStructure, TypeAliasDeclarationStructure } from "ts-morph";
import { BindgenError } from "../common/failures.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import { toolHeaderParams, type HeaderParam, type HttpSpec } from "../runtime/http-headers.ts";
import { StructureKind } from "ts-morph";
import type { ToolSet } from "../tools/tool-set.ts";
import { docs } from "./doc-comments.ts";
import type { EmittedFile } from "./emitted.ts";
import { httpSpec } from "./http-spec.ts";
import { frozenType } from "./literal-type.ts";
import { propertyKey } from "./names.ts";
import { runtimeImport } from "./runtime-files.ts";
import { SchemaTypes } from "./schema-type.ts";
import { buildSourceFile } from "./source-file.ts";
import { buildDefinitionTable } from "./validate-table.ts";

/** Output folder of the servers' modules, beside the release folders. */
export const SERVERS_FOLDER = "servers";

/**
 * `servers/<name>.ts`: one server's tools, from its snapshot. Types from each tool's schemas (the
 * release's schema pipeline), the validator table, and thin typed wrappers over runtime/tools.ts:
 * `callTool` for clients, `createToolServer` for the server's author. The release the snapshot
 * speaks gives the result types and the `Mcp-Param-*` facts when it is generated too.
 */
export function emitServerTools(set: ToolSet, models: readonly ProtocolModel[]): EmittedFile {
  const path = `${SERVERS_FOLDER}/${set.server}.ts`;
  const model = models.find((m) => m.version === set.release);
  const http = model?.http ? httpSpec(model) : null;
  const names = new Set(set.schema.definitions.keys());
  const types = new SchemaTypes(names);
  const declarations = [...set.schema.definitions].map(
    ([name, schema]): InterfaceDeclarationStructure | TypeAliasDeclarationStructure => {
      const tool = set.tools.find((t) => t.arguments === name);
      const description = schema.description ?? (tool !== undefined ? tool.description : undefined);
      const common = { name, isExported: true, docs: docs(description, schema.deprecated === true, names) };
      if (types.isInterface(schema)) return { kind: StructureKind.Interface, ...common, ...types.members(schema) };
      return { kind: StructureKind.TypeAlias, ...common, type: types.typeOf(schema).write };
    },
  );
  const entries = Object.fromEntries(
    set.tools.map((t) => [
      t.name,
      { arguments: t.arguments, structured: t.structured, headers: headersOf(set, t.name, t.listed, http) },
    ]),
  );
  const annotations = Object.fromEntries(
    set.tools.filter((t) => t.annotations !== null).map((t) => [t.name, t.annotations]),
  );
  const table = buildDefinitionTable(set.schema, `${set.server} tools`);
  const release = model === undefined ? null : `../${model.version}`;
  const openObject = "{ [key: string]: unknown }";
  const resultBase =
    release === null
      ? `{ content: unknown[]; _meta?: ${openObject} }`
      : `Omit<Release.CallToolResult, "structuredContent" | "isError" | "resultType">`;
  const toolsRuntime = runtimeImport("tools", 1);
  const validator = runtimeImport("validator", 1);
  const toolNames = set.tools.map((t) => JSON.stringify(t.name));
  const content = buildSourceFile(path, (file) => {
    file.addStatements(
      [
        ...(release === null
          ? []
          : [
              `import type * as Release from "${release}/types.js";`,
              `import type { ServerDispatchHandlers } from "${release}/dispatch.js";`,
            ]),
        ...(http === null ? [] : [`import { HTTP } from "${release}/http.js";`]),
        `import { deepFreeze } from "${runtimeImport("json", 1)}";`,
        `import * as tools from "${toolsRuntime}";`,
        `import type { ToolCallOptions, ToolHandler, ToolServerOptions, ToolSession } from "${toolsRuntime}";`,
        `import { decodeTable, validateDefinition, type Tables, type ValidationResult } from "${validator}";`,
        `export { ToolResultError } from "${toolsRuntime}";`,
        `export type { ToolCallOptions, ToolSession, ToolServerOptions } from "${toolsRuntime}";`,
        ``,
        `/** The server whose tools this module types (mcp-tools/${set.server}.json). */`,
        `export const SERVER: ${JSON.stringify(set.server)} = ${JSON.stringify(set.server)};`,
        `/** The protocol release the server spoke when its tools were listed. */`,
        `export const RELEASE: ${JSON.stringify(set.release)} = ${JSON.stringify(set.release)};`,
        `/** The snapshot's sha256: a changed server gives another. */`,
        `export const SNAPSHOT_SHA256: string = ${JSON.stringify(set.sha256)};`,
      ].join("\n"),
    );
    file.addStatements(declarations);
    file.addStatements(
      [
        `/** Every tool's name. */`,
        `export type ToolName = ${toolNames.length === 0 ? "never" : toolNames.join(" | ")};`,
        `export const TOOL_NAMES: readonly ToolName[] = Object.freeze([${toolNames.join(", ")}]);`,
        ``,
        `/** Per tool, its arguments and what a successful result carries as \`structuredContent\` (typed where the tool has an \`outputSchema\`). */`,
        `export interface Tools {`,
        ...set.tools.flatMap((t) => [
          ...(t.description === undefined ? [] : [`/** ${t.description.replace(/\*\//g, "*\\/")} */`]),
          `${propertyKey(t.name)}: { arguments: ${t.arguments}; result: ${t.structured === null ? `{ structuredContent?: ${openObject} }` : `{ structuredContent: ${t.structured} }`} };`,
        ]),
        `}`,
        `export type ArgumentsOf<N extends ToolName> = Tools[N]["arguments"];`,
        `/** A tool's result: its typed \`structuredContent\`, or an error result (\`isError: true\`) which carries none the schema promises. */`,
        `export type ToolResult<N extends ToolName> = (${resultBase} & { isError?: false } & Tools[N]["result"]) | (${resultBase} & { isError: true; structuredContent?: ${openObject} });`,
        ``,
        `/** The tools' annotations (hints, as the server declared them: trust them only as far as you trust the server). */`,
        `export const ANNOTATIONS: ${frozenType(annotations, { depth: 2, readonlyKeys: true })} = deepFreeze(${JSON.stringify(annotations)});`,
        ``,
        `/** The tools' validator table (format: runtime/table-format.ts), parsed on first use. */`,
        `const TABLE: string = ${JSON.stringify(JSON.stringify(table))};`,
        `let decoded: Tables | undefined;`,
        `function tables(): Tables {`,
        `  return (decoded ??= decodeTable(TABLE));`,
        `}`,
        `const SPEC: tools.ToolsSpec = { server: SERVER, tables, http: ${http === null ? "null" : "HTTP"}, tools: ${JSON.stringify(entries)} };`,
        ``,
        `/** Checks arguments against the tool's \`inputSchema\`. */`,
        `export function validateArguments(name: ToolName, args: unknown): ValidationResult {`,
        `  return validateDefinition(tables(), SPEC.tools[name]!.arguments, args);`,
        `}`,
        ``,
        `/** Checks a \`structuredContent\` against the tool's \`outputSchema\`; anything passes for a tool without one. */`,
        `export function validateStructured(name: ToolName, value: unknown): ValidationResult {`,
        `  const structured = SPEC.tools[name]!.structured;`,
        `  return structured === null ? { ok: true } : validateDefinition(tables(), structured, value);`,
        `}`,
        ``,
        `/** Calls a tool: \`tools/call\` with its \`Mcp-Param-*\` headers in \`options.headers\`, the result checked against its \`outputSchema\` (a \`ToolResultError\` otherwise) and typed. */`,
        `export function callTool<N extends ToolName>(session: ToolSession, name: N, args: ArgumentsOf<N>, options: ToolCallOptions = {}): Promise<ToolResult<N>> {`,
        `  return tools.callTool(SPEC, session, name, args, options) as Promise<ToolResult<N>>;`,
        `}`,
        ...(release === null ? [] : serverSide(set)),
      ].join("\n"),
    );
  });
  return { path, content };
}

/** For the server's author: handlers per tool and the `tools/call`/`tools/list` entries of the release's dispatcher. */
function serverSide(set: ToolSet): string[] {
  const listed = set.tools.map((t) => t.listed);
  return [
    ``,
    `/** What a handler answers: the result of \`ToolResult\`, \`resultType\` left to the dispatcher. */`,
    `export type ToolReply<N extends ToolName> = ToolResult<N> & { resultType?: "complete" };`,
    `/** One handler per tool; each gets its arguments checked against the tool's \`inputSchema\`. */`,
    `export type ToolHandlers<C = undefined> = { readonly [N in ToolName]: ToolHandler<ArgumentsOf<N>, ToolReply<N>, C> };`,
    ``,
    `/** The tools as \`tools/list\` lists them (the file's own text), parsed on first use. */`,
    `const LIST: string = ${JSON.stringify(JSON.stringify(listed))};`,
    ``,
    `/** \`tools/call\` routed by name (unknown tool or invalid arguments: -32602 with the pointers) and \`tools/list\` from the file, for \`createServerDispatcher\`. \`checkResults\` checks structured results too (development). */`,
    `export function createToolServer<C = undefined>(handlers: ToolHandlers<C>, options: ToolServerOptions = {}): Pick<ServerDispatchHandlers<C>, "tools/call" | "tools/list"> {`,
    `  const list = () => JSON.parse(LIST) as { [key: string]: unknown }[];`,
    `  return tools.toolServer<C>(SPEC, list, handlers, options) as unknown as Pick<ServerDispatchHandlers<C>, "tools/call" | "tools/list">;`,
    `}`,
  ];
}

/** A tool's `Mcp-Param-*` annotations, checked now; a tool the spec would have a client drop is refused here. */
function headersOf(
  set: ToolSet,
  name: string,
  listed: ToolSet["tools"][number]["listed"],
  http: HttpSpec | null,
): HeaderParam[] {
  if (http === null) return [];
  const found = toolHeaderParams(http, { name, inputSchema: listed.inputSchema });
  if (!found.ok) {
    const at = set.tools.find((t) => t.name === name)!.pointer;
    throw new BindgenError(set.file, `${at}/inputSchema`, `valid ${http.headerAnnotation} annotations`, found.reason);
  }
  return [...found.params];
}
