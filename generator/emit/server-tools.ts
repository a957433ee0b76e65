import type { InterfaceDeclarationStructure, TypeAliasDeclarationStructure } from "ts-morph";
import { BindgenError } from "../common/failures.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import type { CacheFacts } from "../runtime/core/cache-members.ts";
import { toolHeaderParams, type HeaderParam, type HttpSpec } from "../runtime/core/http-headers.ts";
import { compileUriTemplate } from "../runtime/server/uri-match.ts";
import { StructureKind, VariableDeclarationKind } from "../common/ts-morph.ts";
import { uriParameters, type ToolSet } from "../tools/tool-set.ts";
import { docs } from "./doc-comments.ts";
import type { EmittedFile } from "./emitted.ts";
import { httpSpec } from "../model/http-spec.ts";
import { frozenType } from "./literal-type.ts";
import { propertyKey } from "./names.ts";
import { runtimeImport } from "./runtime-files.ts";
import { SchemaTypes } from "./schema-type.ts";
import { buildSourceFile, objectLiteral, type StatementSink } from "./source-file.ts";
import { buildDefinitionTable, encodeTable } from "./validate-table.ts";

/** Output folder of the servers' modules, beside the release folders. */
export const SERVERS_FOLDER = "servers";

/**
 * `servers/<name>.ts`: one server's tools, from its snapshot. Types from each tool's schemas (the
 * release's schema pipeline), the validator table, and thin typed wrappers over runtime/tools/tools.ts:
 * `callTool` for clients, `createToolServer` for the server's author. The release the snapshot
 * speaks gives the result types and the `Mcp-Param-*` facts when it is generated too.
 */
export function emitServerTools(set: ToolSet, models: readonly ProtocolModel[]): EmittedFile {
  const path = `${SERVERS_FOLDER}/${set.server}.ts`;
  const model = models.find((m) => m.version === set.release);
  const http = model?.http ? httpSpec(model) : null;
  const cache = model === undefined ? null : model.cacheMembers;
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
  const content = buildSourceFile((file) => {
    const exportedConst = (name: string, type: string, initializer: string, doc: string): void =>
      file.addVariableStatement({
        declarationKind: VariableDeclarationKind.Const,
        isExported: true,
        docs: [doc],
        declarations: [{ name, type, initializer }],
      });
    if (release !== null) {
      file.addImportDeclaration({
        isTypeOnly: true,
        namespaceImport: "Release",
        moduleSpecifier: `${release}/types.js`,
      });
      file.addImportDeclaration({
        isTypeOnly: true,
        namedImports: ["ServerDispatchHandlers"],
        moduleSpecifier: `${release}/dispatch.js`,
      });
    }
    if (http !== null) file.addImportDeclaration({ namedImports: ["HTTP"], moduleSpecifier: `${release}/http.js` });
    file.addImportDeclaration({ namedImports: ["deepFreeze"], moduleSpecifier: runtimeImport("json", 1) });
    file.addImportDeclaration({ namespaceImport: "tools", moduleSpecifier: toolsRuntime });
    file.addImportDeclaration({
      isTypeOnly: true,
      namedImports: ["ToolCallOptions", "ToolHandler", "ToolServerOptions", "ToolSession"],
      moduleSpecifier: toolsRuntime,
    });
    file.addImportDeclaration({
      namedImports: [
        "decodeTable",
        "validateDefinition",
        { name: "Tables", isTypeOnly: true },
        { name: "ValidationResult", isTypeOnly: true },
      ],
      moduleSpecifier: validator,
    });
    file.addImportDeclaration({ namedImports: ["rareKeywords"], moduleSpecifier: runtimeImport("rare-keywords", 1) });
    const standard = runtimeImport("standard-schema", 1);
    file.addImportDeclaration({
      namedImports: ["standardSchemas", { name: "StandardSchema", isTypeOnly: true }],
      moduleSpecifier: standard,
    });
    file.addExportDeclaration({ isTypeOnly: true, namedExports: ["StandardSchema"], moduleSpecifier: standard });
    file.addImportDeclaration({
      isTypeOnly: true,
      namedImports: ["ToolTypes"],
      moduleSpecifier: runtimeImport("mcp-client", 1),
    });
    file.addExportDeclaration({ namedExports: ["ToolResultError"], moduleSpecifier: toolsRuntime });
    file.addExportDeclaration({
      isTypeOnly: true,
      namedExports: ["ToolCallOptions", "ToolSession", "ToolServerOptions"],
      moduleSpecifier: toolsRuntime,
    });
    const server = JSON.stringify(set.server);
    const snapshotRelease = JSON.stringify(set.release);
    exportedConst("SERVER", server, server, `The server whose tools this module types (mcp-tools/${set.server}.json).`);
    exportedConst(
      "RELEASE",
      snapshotRelease,
      snapshotRelease,
      "The protocol release the server spoke when its tools were listed.",
    );
    exportedConst(
      "SNAPSHOT_SHA256",
      "string",
      JSON.stringify(set.sha256),
      "The snapshot's sha256: a changed server gives another.",
    );
    file.addStatements(declarations);
    file.addTypeAlias({
      name: "ToolName",
      isExported: true,
      docs: ["Every tool's name."],
      type: toolNames.length === 0 ? "never" : toolNames.join(" | "),
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      declarations: [
        { name: "TOOL_NAMES", type: "readonly ToolName[]", initializer: `Object.freeze([${toolNames.join(", ")}])` },
      ],
    });
    file.addInterface({
      name: "Tools",
      isExported: true,
      docs: [
        "Per tool, its arguments and what a successful result carries as `structuredContent` (typed where the tool has an `outputSchema`).",
      ],
      properties: set.tools.map((t) => ({
        name: propertyKey(t.name),
        docs: docs(t.description, false, names),
        type: `{ arguments: ${t.arguments}; result: ${t.structured === null ? `{ structuredContent?: ${openObject} }` : `{ structuredContent: ${t.structured} }`} }`,
      })),
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      docs: [
        "The tools for the one-call client: `connectClient(transport, { …, tools: TOOL_TYPES })` types names and arguments.",
      ],
      declarations: [{ name: "TOOL_TYPES", type: "ToolTypes<Tools>", initializer: "{ names: TOOL_NAMES }" }],
    });
    file.addTypeAlias({
      name: "ArgumentsOf",
      isExported: true,
      typeParameters: [{ name: "N", constraint: "ToolName" }],
      type: 'Tools[N]["arguments"]',
    });
    file.addTypeAlias({
      name: "ToolResult",
      isExported: true,
      docs: [
        "A tool's result: its typed `structuredContent`, or an error result (`isError: true`) which carries none the schema promises.",
      ],
      typeParameters: [{ name: "N", constraint: "ToolName" }],
      type: `(${resultBase} & { isError?: false } & Tools[N]["result"]) | (${resultBase} & { isError: true; structuredContent?: ${openObject} })`,
    });
    exportedConst(
      "ANNOTATIONS",
      frozenType(annotations, { depth: 2, readonlyKeys: true }),
      `deepFreeze(${JSON.stringify(annotations)})`,
      "The tools' annotations (hints, as the server declared them: trust them only as far as you trust the server).",
    );
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      docs: ["The tools' validator table (format: runtime/validation/table-format.ts), parsed on first use."],
      declarations: [{ name: "TABLE", type: "string", initializer: JSON.stringify(encodeTable(table)) }],
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Let,
      declarations: [{ name: "decoded", type: "Tables | undefined" }],
    });
    file.addFunction({
      name: "tables",
      returnType: "Tables",
      statements: ["return (decoded ??= decodeTable(TABLE, undefined, rareKeywords));"],
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      declarations: [
        {
          name: "SPEC",
          type: "tools.ToolsSpec",
          initializer: objectLiteral({
            server: "SERVER",
            tables: "tables",
            http: http === null ? "null" : "HTTP",
            tools: JSON.stringify(entries),
            ...(cache === null ? {} : { cache: JSON.stringify(cache) }),
          }),
        },
      ],
    });
    file.addFunction({
      name: "validateArguments",
      isExported: true,
      docs: ["Checks arguments against the tool's `inputSchema`."],
      parameters: [
        { name: "name", type: "ToolName" },
        { name: "args", type: "unknown" },
      ],
      returnType: "ValidationResult",
      statements: ["return validateDefinition(tables(), SPEC.tools[name]!.arguments, args);"],
    });
    file.addFunction({
      name: "validateStructured",
      isExported: true,
      docs: ["Checks a `structuredContent` against the tool's `outputSchema`; anything passes for a tool without one."],
      parameters: [
        { name: "name", type: "ToolName" },
        { name: "value", type: "unknown" },
      ],
      returnType: "ValidationResult",
      statements: [
        "const structured = SPEC.tools[name]!.structured;",
        "return structured === null ? { ok: true } : validateDefinition(tables(), structured, value);",
      ],
    });
    addStandardSchemas(file, set);
    addToolDeclarations(file);
    file.addFunction({
      name: "callTool",
      isExported: true,
      docs: [
        "Calls a tool: `tools/call` with its `Mcp-Param-*` headers in `options.headers`, the result checked against its `outputSchema` (a `ToolResultError` otherwise) and typed.",
      ],
      typeParameters: [{ name: "N", constraint: "ToolName" }],
      parameters: [
        { name: "session", type: "ToolSession" },
        { name: "name", type: "N" },
        { name: "args", type: "ArgumentsOf<N>" },
        { name: "options", type: "ToolCallOptions", initializer: "{}" },
      ],
      returnType: "Promise<ToolResult<N>>",
      statements: ["return tools.callTool(SPEC, session, name, args, options) as Promise<ToolResult<N>>;"],
    });
    if (set.prompts.length > 0) addPrompts(file, set, release);
    if (set.resourceTemplates.length > 0) addResourceTemplates(file, set, release);
    if (model !== undefined) addServerSide(file, set, model, cache);
  });
  return { path, content };
}

/** `PromptName`, each prompt's arguments (strings, as `prompts/get` takes them) and a typed `getPrompt`. */
function addPrompts(file: StatementSink, set: ToolSet, release: string | null): void {
  const names = set.prompts.map((p) => JSON.stringify(p.name));
  file.addTypeAlias({ name: "PromptName", isExported: true, docs: ["Every prompt's name."], type: names.join(" | ") });
  file.addInterface({
    name: "Prompts",
    isExported: true,
    docs: ["Per prompt, the arguments `prompts/get` takes: strings, the ones not marked required optional."],
    properties: set.prompts.map((p) => {
      const args = p.arguments ?? [];
      const members = args.map((a) => `${propertyKey(a.name)}${a.required === true ? "" : "?"}: string`);
      return {
        name: propertyKey(p.name),
        docs: docs(typeof p["description"] === "string" ? p["description"] : undefined, false, new Set()),
        type: members.length === 0 ? "Record<string, never>" : `{ ${members.join("; ")} }`,
      };
    }),
  });
  addSessionInterface(
    file,
    "PromptSession",
    "getPrompt",
    "prompts/get",
    "{ name: string; arguments: { [key: string]: string } }",
  );
  const result = release === null ? "{ messages: unknown[]; description?: string }" : "Release.GetPromptResult";
  file.addFunction({
    name: "getPrompt",
    isExported: true,
    docs: ["Gets a prompt (`prompts/get`) with its arguments typed."],
    typeParameters: [{ name: "N", constraint: "PromptName" }],
    parameters: [
      { name: "session", type: "PromptSession" },
      { name: "name", type: "N" },
      { name: "args", type: "Prompts[N]" },
      { name: "options", type: "ToolCallOptions", initializer: "{}" },
    ],
    returnType: `Promise<${result}>`,
    statements: [
      `return session.request("prompts/get", { name, arguments: args as { [key: string]: string } }, options) as Promise<${result}>;`,
    ],
  });
}

/** `ResourceTemplateName`, each template's URI parameters (its RFC 6570 variables) and a typed `readResource`. */
function addResourceTemplates(file: StatementSink, set: ToolSet, release: string | null): void {
  const names = set.resourceTemplates.map((t) => JSON.stringify(t.name));
  file.addImportDeclaration({
    namedImports: ["expandUriTemplate", { name: "UriValue", isTypeOnly: true }],
    moduleSpecifier: runtimeImport("uri-template", 1),
  });
  file.addTypeAlias({
    name: "ResourceTemplateName",
    isExported: true,
    docs: ["Every resource template's name."],
    type: names.join(" | "),
  });
  file.addInterface({
    name: "ResourceTemplates",
    isExported: true,
    docs: [
      "Per resource template, the values of its URI's variables: those of query and path-parameter expressions (`?`, `&`, `;`) may be left out.",
    ],
    properties: variableMembers(set.resourceTemplates, "UriValue"),
  });
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      {
        name: "TEMPLATES",
        type: "{ readonly [N in ResourceTemplateName]: string }",
        initializer: JSON.stringify(Object.fromEntries(set.resourceTemplates.map((t) => [t.name, t.uriTemplate]))),
      },
    ],
  });
  addSessionInterface(file, "ResourceSession", "readResource", "resources/read", "{ uri: string }");
  const result = release === null ? "{ contents: unknown[] }" : "Release.ReadResourceResult";
  file.addFunction({
    name: "readResource",
    isExported: true,
    docs: [
      "Reads the resource a template names (`resources/read`), its URI expanded from typed parameters (RFC 6570).",
    ],
    typeParameters: [{ name: "N", constraint: "ResourceTemplateName" }],
    parameters: [
      { name: "session", type: "ResourceSession" },
      { name: "template", type: "N" },
      { name: "params", type: "ResourceTemplates[N]" },
      { name: "options", type: "ToolCallOptions", initializer: "{}" },
    ],
    returnType: `Promise<${result}>`,
    statements: [
      `return session.request("resources/read", { uri: expandUriTemplate(TEMPLATES[template], params) }, options) as Promise<${result}>;`,
    ],
  });
}

/** Each tool's arguments and structured result as Standard Schema objects, for libraries that take one (the official SDK's `registerTool`). */
function addStandardSchemas(file: StatementSink, set: ToolSet): void {
  const structured = set.tools.filter((t) => t.structured !== null).map((t) => JSON.stringify(t.name));
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    docs: ["The tools as `tools/list` lists them (the file's own text)."],
    declarations: [
      { name: "LIST", type: "string", initializer: JSON.stringify(JSON.stringify(set.tools.map((t) => t.listed))) },
    ],
  });
  file.addFunction({
    name: "list",
    docs: ["A fresh parse on each use, so no caller can change what the next one reads."],
    returnType: "{ [key: string]: unknown }[]",
    statements: ["return JSON.parse(LIST) as { [key: string]: unknown }[];"],
  });
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      {
        name: "schemas",
        type: "(definition: string) => StandardSchema<unknown>",
        initializer:
          "/* @__PURE__ */ standardSchemas({ tables, texts: () => [TABLE], published: (definition) => tools.publishedSchema(SPEC, list, definition) })",
      },
    ],
  });
  file.addTypeAlias({
    name: "StructuredToolName",
    isExported: true,
    docs: ["The tools with an `outputSchema`."],
    type: structured.length === 0 ? "never" : structured.join(" | "),
  });
  file.addFunction({
    name: "argumentsSchema",
    isExported: true,
    docs: [
      "The tool's arguments validator as a Standard Schema v1 object (`validate`, and `jsonSchema` giving draft 2020-12: " +
        "the tool's `inputSchema` as published, or rebuilt from the validator where the server wrote draft-07): " +
        "`registerTool`'s `inputSchema` in the official SDK v2. Made on first use.",
    ],
    typeParameters: [{ name: "N", constraint: "ToolName" }],
    parameters: [{ name: "name", type: "N" }],
    returnType: "StandardSchema<ArgumentsOf<N>>",
    statements: ["return schemas(SPEC.tools[name]!.arguments) as StandardSchema<ArgumentsOf<N>>;"],
  });
  file.addFunction({
    name: "structuredSchema",
    isExported: true,
    docs: [
      "The tool's `structuredContent` validator (its `outputSchema`) as a Standard Schema v1 object, like `argumentsSchema`.",
    ],
    typeParameters: [{ name: "N", constraint: "StructuredToolName" }],
    parameters: [{ name: "name", type: "N" }],
    returnType: 'StandardSchema<Tools[N]["result"]["structuredContent"]>',
    statements: [
      'return schemas(SPEC.tools[name]!.structured!) as StandardSchema<Tools[N]["result"]["structuredContent"]>;',
    ],
  });
}

/**
 * For the server's author: handlers per tool and the `tools/call`/`tools/list` entries of the release's dispatcher,
 * and the same for the prompts and resource templates where the snapshot has them.
 */
function addServerSide(file: StatementSink, set: ToolSet, model: ProtocolModel, cache: CacheFacts): void {
  const entries = 'Pick<ServerDispatchHandlers<C>, "tools/call" | "tools/list">';
  file.addTypeAlias({
    name: "ToolReply",
    isExported: true,
    docs: ["What a handler answers: the result of `ToolResult`, `resultType` left to the dispatcher."],
    typeParameters: [{ name: "N", constraint: "ToolName" }],
    type: 'ToolResult<N> & { resultType?: "complete" }',
  });
  file.addTypeAlias({
    name: "ToolHandlers",
    isExported: true,
    docs: ["One handler per tool; each gets its arguments checked against the tool's `inputSchema`."],
    typeParameters: [{ name: "C", default: "undefined" }],
    type: "{ readonly [N in ToolName]: ToolHandler<ArgumentsOf<N>, ToolReply<N>, C> }",
  });
  addEntriesMaker(file, {
    name: "createToolServer",
    doc:
      "`tools/call` routed by name (unknown tool or invalid arguments: -32602 with the pointers) and `tools/list` from the file, for `createServerDispatcher`. `checkResults` checks structured results too (development)." +
      (cache === null
        ? ""
        : ` \`tools/list\` carries \`${cache.ttl}\` (\`listTtlMs\`, default 5 minutes) and \`${cache.scope}\` (\`cacheScope\`, default public).`),
    handlers: "ToolHandlers<C>",
    options: "ToolServerOptions",
    entries,
    call: "tools.toolServer<C>(SPEC, list, handlers, options)",
  });
  const served = set.resourceTemplates.filter((t) => readsBack(t.uriTemplate));
  if (set.prompts.length === 0 && served.length === 0) return;
  const dispatch = `../${model.version}/dispatch.js`;
  file.addImportDeclaration({
    isTypeOnly: true,
    namedImports: ["ServerAnswerOf", "ServerContextOf"],
    moduleSpecifier: dispatch,
  });
  const runtime = runtimeImport("prompt-template-server", 1);
  file.addImportDeclaration({ namespaceImport: "surface", moduleSpecifier: runtime });
  file.addExportDeclaration({ isTypeOnly: true, namedExports: ["ListServerOptions"], moduleSpecifier: runtime });
  if (set.prompts.length > 0) addPromptServer(file, set, cache);
  if (served.length > 0) addTemplateServer(file, set, served, model, cache);
}

/** Whether the server side can read a template's URIs back (levels 1 to 3: a prefix or an exploded list cannot be). */
function readsBack(template: string): boolean {
  try {
    compileUriTemplate(template);
    return true;
  } catch {
    return false;
  }
}

/**
 * The code a server answers a URI no resource covers with, as the model says: the release's resource-not-found code
 * where it is sent, else what the spec sends instead (-32002 is receive-only; later releases say -32602).
 */
function resourceNotFoundCode(model: ProtocolModel): number {
  const notFound = model.errorCodes.find((e) => e.name === "ResourceNotFound");
  if (notFound?.send === true) return notFound.code;
  return notFound?.replacedBy?.code ?? model.errorCodes.find((e) => e.name === "InvalidParams")?.code ?? -32602;
}

/** `PromptHandlers` (one per prompt, its typed arguments) and `createPromptServer`: `prompts/get` and `prompts/list`. */
function addPromptServer(file: StatementSink, set: ToolSet, cache: CacheFacts): void {
  const entries = 'Pick<ServerDispatchHandlers<C>, "prompts/get" | "prompts/list">';
  const context = 'ServerContextOf<"prompts/get", C>';
  const required = Object.fromEntries(
    set.prompts.map((p) => [
      p.name,
      { required: (p.arguments ?? []).filter((a) => a.required === true).map((a) => a.name) },
    ]),
  );
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    docs: ["The prompts as `prompts/list` lists them (the file's own text)."],
    declarations: [{ name: "PROMPT_LIST", type: "string", initializer: JSON.stringify(JSON.stringify(set.prompts)) }],
  });
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      {
        name: "PROMPT_SPEC",
        type: "surface.PromptsSpec",
        initializer: objectLiteral({
          prompts: JSON.stringify(required),
          cache: JSON.stringify(cache),
        }),
      },
    ],
  });
  file.addTypeAlias({
    name: "PromptReply",
    isExported: true,
    docs: ["What a prompt handler answers: the release's `GetPromptResult`, `resultType` left to the dispatcher."],
    type: 'ServerAnswerOf<"prompts/get">',
  });
  file.addTypeAlias({
    name: "PromptHandlers",
    isExported: true,
    docs: [
      "One handler per prompt; each gets its arguments as `Prompts` types them, the required ones checked present.",
    ],
    typeParameters: [{ name: "C", default: "undefined" }],
    type: `{ readonly [N in PromptName]: surface.PromptHandler<Prompts[N], PromptReply, ${context}> }`,
  });
  addEntriesMaker(file, {
    name: "createPromptServer",
    doc: "`prompts/get` routed by name (an unknown prompt, or required arguments missing: -32602 naming them) and `prompts/list` from the file, for `createServerDispatcher`.",
    handlers: "PromptHandlers<C>",
    options: "surface.ListServerOptions",
    entries,
    call: `surface.promptServer<${context}>(PROMPT_SPEC, () => JSON.parse(PROMPT_LIST) as { [key: string]: unknown }[], handlers, options)`,
  });
}

/** Per template, a member named for it whose type lists its URI's variables as `value` (those that may be left out optional). */
function variableMembers(templates: ToolSet["resourceTemplates"], value: string) {
  return templates.map((t) => {
    const members = [...uriParameters(t.uriTemplate)].map(
      ([name, needed]) => `${propertyKey(name)}${needed ? "" : "?"}: ${value}`,
    );
    return {
      name: propertyKey(t.name),
      docs: [`\`${t.uriTemplate.replace(/\*\//g, "*\\/")}\``],
      type: members.length === 0 ? "Record<string, never>" : `{ ${members.join("; ")} }`,
    };
  });
}

/**
 * `TemplateVariables` (per template, the variables its URIs carry), `TemplateHandlers` and `createTemplateServer`:
 * `resources/read` and `resources/templates/list`, for the templates whose URIs can be read back.
 */
function addTemplateServer(
  file: StatementSink,
  set: ToolSet,
  served: ToolSet["resourceTemplates"],
  model: ProtocolModel,
  cache: CacheFacts,
): void {
  const entries = 'Pick<ServerDispatchHandlers<C>, "resources/read" | "resources/templates/list">';
  const context = 'ServerContextOf<"resources/read", C>';
  const left = set.resourceTemplates.filter((t) => !served.includes(t)).map((t) => JSON.stringify(t.name));
  file.addInterface({
    name: "TemplateVariables",
    isExported: true,
    docs: [
      "Per resource template, the variables a URI it covers carries, read back: strings, those of query and path-parameter expressions (`?`, `&`, `;`) absent when the URI leaves them out." +
        (left.length === 0
          ? ""
          : ` Not here: ${left.join(", ")}, whose level 4 modifiers (a prefix, an exploded list) no URI can be read back by.`),
    ],
    properties: variableMembers(served, "string"),
  });
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    docs: ["The templates served as `resources/templates/list` lists them (the file's own text)."],
    declarations: [{ name: "TEMPLATE_LIST", type: "string", initializer: JSON.stringify(JSON.stringify(served)) }],
  });
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      {
        name: "TEMPLATE_SPEC",
        type: "surface.TemplatesSpec",
        initializer: objectLiteral({
          templates: JSON.stringify(Object.fromEntries(served.map((t) => [t.name, t.uriTemplate]))),
          notFound: String(resourceNotFoundCode(model)),
          cache: JSON.stringify(cache),
        }),
      },
    ],
  });
  const answer = 'ServerAnswerOf<"resources/read">';
  file.addTypeAlias({
    name: "ResourceReply",
    isExported: true,
    docs: [
      cache === null
        ? "What a template handler answers: the release's `ReadResourceResult`, `resultType` left to the dispatcher."
        : "What a template handler answers: the release's `ReadResourceResult`, `resultType` left to the dispatcher and the cache members to the table (private, `listTtlMs`) unless given.",
    ],
    type:
      cache === null
        ? answer
        : `surface.CacheDefaulted<${answer}, ${JSON.stringify(cache.ttl)} | ${JSON.stringify(cache.scope)}>`,
  });
  file.addTypeAlias({
    name: "TemplateHandlers",
    isExported: true,
    docs: [
      "One handler per resource template; each gets the URI asked for and its variables, typed by `TemplateVariables`.",
    ],
    typeParameters: [{ name: "C", default: "undefined" }],
    type: `{ readonly [N in keyof TemplateVariables]: surface.TemplateHandler<TemplateVariables[N], ResourceReply, ${context}> }`,
  });
  addEntriesMaker(file, {
    name: "createTemplateServer",
    doc: "`resources/read` routed to the first template (by name) whose URI template covers the URI (none: the release's resource-not-found error) and `resources/templates/list` from the file, for `createServerDispatcher`.",
    handlers: "TemplateHandlers<C>",
    options: "surface.ListServerOptions",
    entries,
    call: `surface.templateServer<${context}>(TEMPLATE_SPEC, () => JSON.parse(TEMPLATE_LIST) as { [key: string]: unknown }[], handlers, options)`,
  });
}

/** A `create…Server(handlers, options)` that gives entries of the release's dispatcher table, `C` its handlers' context. */
function addEntriesMaker(
  file: StatementSink,
  maker: {
    readonly name: string;
    readonly doc: string;
    readonly handlers: string;
    readonly options: string;
    readonly entries: string;
    readonly call: string;
  },
): void {
  file.addFunction({
    name: maker.name,
    isExported: true,
    docs: [maker.doc],
    typeParameters: [{ name: "C", default: "undefined" }],
    parameters: [
      { name: "handlers", type: maker.handlers },
      { name: "options", type: maker.options, initializer: "{}" },
    ],
    returnType: maker.entries,
    statements: [`return ${maker.call} as unknown as ${maker.entries};`],
  });
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

/** Each tool as `createMcpServer`'s `server.tool` declares it, for a server implementing the snapshotted tools. */
function addToolDeclarations(file: StatementSink): void {
  file.addTypeAlias({
    name: "ToolDeclarationOf",
    isExported: true,
    docs: [
      "Tool `N` as `server.tool` declares it: its listed title, description and annotations, its arguments' and structured result's Standard Schema objects.",
    ],
    typeParameters: [{ name: "N", constraint: "ToolName" }],
    type:
      "{ readonly name: N; readonly title?: string; readonly description?: string; readonly inputSchema: StandardSchema<ArgumentsOf<N>> }" +
      " & (N extends keyof typeof ANNOTATIONS ? { readonly annotations: (typeof ANNOTATIONS)[N] } : unknown)" +
      ' & (N extends StructuredToolName ? { readonly outputSchema: StandardSchema<Tools[N]["result"]["structuredContent"]> } : unknown)',
  });
  file.addFunction({
    name: "toolDeclaration",
    isExported: true,
    docs: [
      "The tool as `createMcpServer`'s `server.tool(toolDeclaration(name), handler)` takes it: listed as the server listed it " +
        "(its published schemas), the handler's arguments and structured result typed and checked by this module. Spread it to change a member.",
    ],
    typeParameters: [{ name: "N", constraint: "ToolName" }],
    parameters: [{ name: "name", type: "N" }],
    returnType: "ToolDeclarationOf<N>",
    statements: ["return tools.toolDeclaration(SPEC, list, schemas, name) as unknown as ToolDeclarationOf<N>;"],
  });
}

/** The part of a session a typed helper (`getPrompt`, `readResource`) calls: one `request` for its method. */
function addSessionInterface(file: StatementSink, name: string, helper: string, method: string, params: string): void {
  file.addInterface({
    name,
    isExported: true,
    docs: [`What \`${helper}\` needs of a session: a connected session (or a release's requester) has it.`],
    methods: [
      {
        name: "request",
        parameters: [
          { name: "method", type: JSON.stringify(method) },
          { name: "params", type: params },
          { name: "options", type: "ToolCallOptions", hasQuestionToken: true },
        ],
        returnType: "Promise<unknown>",
      },
    ],
  });
}
