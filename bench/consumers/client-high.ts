// Bench consumer (type-check cost): README's "Build a client" without a snapshot: connectClient offering 2026-07-28
// and 2025-11-25 over HTTP, then nine calls (every list, a tool call with and without progress, a prompt, a read,
// a completion), each result used. bench/consumers/client-sdk.ts is the same program on SDK v2's Client.
import { connectClient, httpTransport, v2025_11_25, v2026_07_28 } from "../../generated/index.js";

/** Stands in for console.log: the consumers type-check without DOM or @types/node, as the server rows do. */
declare function log(line: string): void;

export async function run(): Promise<unknown[]> {
  const handlers = { "roots/list": () => ({ roots: [{ uri: "file:///work", name: "work" }] }) };
  const client = await connectClient(httpTransport("http://127.0.0.1:3000/mcp"), {
    releases: [
      v2026_07_28.clientRelease({
        capabilities: { roots: {} },
        dispatcher: v2026_07_28.createClientDispatcher(handlers),
      }),
      v2025_11_25.clientRelease({
        capabilities: { roots: {} },
        dispatcher: v2025_11_25.createClientDispatcher(handlers),
      }),
    ],
    clientInfo: { name: "my-client", version: "1.0.0" },
  });
  const tools = await client.listTools();
  const forecast = await client.callTool("forecast", { city: "Oslo" });
  const report = await client.callTool(
    "slow-report",
    {},
    { onProgress: ({ progress, total }) => log(`${progress} of ${total ?? "?"}`), timeoutMs: 10_000 },
  );
  const prompts = await client.listPrompts();
  const prompt = await client.getPrompt(prompts[0]?.name ?? "packing-list", { city: "Oslo" });
  const resources = await client.listResources();
  const templates = await client.listResourceTemplates();
  const read = await client.readResource(resources[0]?.uri ?? "weather://cities");
  const completion = await client.complete({
    ref: { type: "ref/prompt", name: "packing-list" },
    argument: { name: "city", value: "O" },
  });
  await client.close();
  return [
    tools.map((tool) => tool.name),
    forecast.isError ? undefined : forecast.structuredContent,
    report.content[0]?.type,
    prompt.messages[0]?.role,
    templates[0]?.uriTemplate,
    read.contents[0]?.uri,
    completion.completion.values,
  ];
}
