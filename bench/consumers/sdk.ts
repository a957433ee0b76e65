// Bench consumer (type-check cost): the program of bench/consumers/bindings.ts written with the
// official SDK (@modelcontextprotocol/sdk 1.32.2 Client and Server; the v2 client/server packages
// are not installed, and @modelcontextprotocol/core 2.4.0 ships schemas only, no typed client).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  CompleteRequestSchema,
  CompleteResultSchema,
  GetPromptRequestSchema,
  GetPromptResultSchema,
  ListPromptsRequestSchema,
  ListPromptsResultSchema,
  ListResourcesRequestSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesRequestSchema,
  ListResourceTemplatesResultSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
  ReadResourceRequestSchema,
  ReadResourceResultSchema,
} from "@modelcontextprotocol/sdk/types.js";

declare const client: Client;

export async function requests(): Promise<unknown[]> {
  const tools = await client.request({ method: "tools/list", params: {} }, ListToolsResultSchema);
  const call = await client.request(
    { method: "tools/call", params: { name: tools.tools[0]?.name ?? "echo", arguments: { text: "hi" } } },
    CallToolResultSchema,
  );
  const prompts = await client.request({ method: "prompts/list", params: {} }, ListPromptsResultSchema);
  const prompt = await client.request(
    { method: "prompts/get", params: { name: prompts.prompts[0]?.name ?? "p", arguments: { a: "1" } } },
    GetPromptResultSchema,
  );
  const resources = await client.request({ method: "resources/list", params: {} }, ListResourcesResultSchema);
  const read = await client.request(
    { method: "resources/read", params: { uri: resources.resources[0]?.uri ?? "file:///a" } },
    ReadResourceResultSchema,
  );
  const templates = await client.request(
    { method: "resources/templates/list", params: {} },
    ListResourceTemplatesResultSchema,
  );
  const complete = await client.request(
    {
      method: "completion/complete",
      params: { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "x" } },
    },
    CompleteResultSchema,
  );
  const tools2 = await client.request(
    { method: "tools/list", params: { cursor: tools.nextCursor ?? "" } },
    ListToolsResultSchema,
  );
  const call2 = await client.request(
    { method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } },
    CallToolResultSchema,
  );
  const prompts2 = await client.request({ method: "prompts/list", params: { cursor: "c" } }, ListPromptsResultSchema);
  const prompt2 = await client.request({ method: "prompts/get", params: { name: "q" } }, GetPromptResultSchema);
  const resources2 = await client.request(
    { method: "resources/list", params: { cursor: "c" } },
    ListResourcesResultSchema,
  );
  const read2 = await client.request(
    { method: "resources/read", params: { uri: "file:///b" } },
    ReadResourceResultSchema,
  );
  const templates2 = await client.request(
    { method: "resources/templates/list", params: { cursor: "c" } },
    ListResourceTemplatesResultSchema,
  );
  const complete2 = await client.request(
    {
      method: "completion/complete",
      params: { ref: { type: "ref/resource", uri: "file:///{x}" }, argument: { name: "x", value: "y" } },
    },
    CompleteResultSchema,
  );
  const call3 = await client.request({ method: "tools/call", params: { name: "now" } }, CallToolResultSchema);
  const prompt3 = await client.request(
    { method: "prompts/get", params: { name: "r", arguments: {} } },
    GetPromptResultSchema,
  );
  const read3 = await client.request(
    { method: "resources/read", params: { uri: "file:///c" } },
    ReadResourceResultSchema,
  );
  const tools3 = await client.request({ method: "tools/list", params: {} }, ListToolsResultSchema);
  return [
    call.content.length,
    prompt.messages.length,
    read.contents.length,
    templates.resourceTemplates.length,
    complete.completion.values,
    tools2.tools,
    call2.isError,
    prompts2.prompts,
    prompt2.messages,
    resources2.resources,
    read2.contents,
    templates2.nextCursor,
    complete2.completion.total,
    call3.structuredContent,
    prompt3.description,
    read3.contents,
    tools3.tools,
  ];
}

export const server = new Server(
  { name: "bench", version: "1.0.0" },
  { capabilities: { tools: {}, prompts: {}, resources: {}, completions: {} } },
);
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{ name: "echo", inputSchema: { type: "object" as const } }],
}));
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{ type: "text" as const, text: JSON.stringify(request.params.arguments ?? {}) }],
}));
server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [{ name: "p" }] }));
server.setRequestHandler(GetPromptRequestSchema, (request) => ({
  messages: [{ role: "user" as const, content: { type: "text" as const, text: request.params.name } }],
}));
server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [{ name: "a", uri: "file:///a" }] }));
server.setRequestHandler(ReadResourceRequestSchema, (request) => ({
  contents: [{ uri: request.params.uri, text: "" }],
}));
server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
  resourceTemplates: [{ name: "t", uriTemplate: "file:///{x}" }],
}));
server.setRequestHandler(CompleteRequestSchema, async () => ({ completion: { values: ["a"] } }));
