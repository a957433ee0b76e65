// Bench consumer (type-check cost): bench/consumers/client-high.ts on SDK v2 (@modelcontextprotocol/client 2.4.0:
// Client over StreamableHTTPClientTransport, which negotiates either era), the same nine calls, each result used.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

/** Stands in for console.log: the consumers type-check without DOM or @types/node, as the server rows do. */
declare function log(line: string): void;
/** The server's URL (`new URL(…)`: the URL type is DOM's or @types/node's, which neither consumer loads). */
declare const serverUrl: ConstructorParameters<typeof StreamableHTTPClientTransport>[0];

export async function run(): Promise<unknown[]> {
  const client = new Client({ name: "my-client", version: "1.0.0" }, { capabilities: { roots: {} } });
  client.setRequestHandler("roots/list", () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
  await client.connect(new StreamableHTTPClientTransport(serverUrl));
  const { tools } = await client.listTools();
  const forecast = await client.callTool({ name: "forecast", arguments: { city: "Oslo" } });
  const report = await client.callTool(
    { name: "slow-report", arguments: {} },
    { onprogress: ({ progress, total }) => log(`${progress} of ${total ?? "?"}`), timeout: 10_000 },
  );
  const { prompts } = await client.listPrompts();
  const prompt = await client.getPrompt({ name: prompts[0]?.name ?? "packing-list", arguments: { city: "Oslo" } });
  const { resources } = await client.listResources();
  const { resourceTemplates: templates } = await client.listResourceTemplates();
  const read = await client.readResource({ uri: resources[0]?.uri ?? "weather://cities" });
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
