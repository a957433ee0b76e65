// The one-call client (connectClient): one call whichever release is agreed, typed for every release offered,
// without narrowing; a snapshot's tools type names and arguments. The per-release `request` checks `_meta`
// values as well as key names.
import { connectClient, httpTransport, v2025_11_25, v2026_07_28, type ToolTypes } from "../../generated/index.js";

/** What a generated `servers/<name>.ts` declares for its tools (emit/server-tools.ts). */
interface WeatherArguments {
  city: string;
  days?: number;
}
interface Tools {
  weather: { arguments: WeatherArguments; result: { structuredContent: { tempC: number } } };
  echo: { arguments: { text?: string }; result: { structuredContent?: { [key: string]: unknown } } };
}
declare const TOOL_TYPES: ToolTypes<Tools>;

const releases = [v2026_07_28.clientRelease(), v2025_11_25.clientRelease()] as const;
const clientInfo = { name: "c", version: "1" };

export async function oneCall(url: string): Promise<number> {
  const client = await connectClient(httpTransport(url), { releases, clientInfo });
  // No narrowing: every call is the same in either era.
  const tools = await client.listTools();
  const names: string[] = tools.map((tool) => tool.name);
  for await (const prompt of client.listPrompts()) names.push(prompt.name);
  const called = await client.callTool("anything", { query: 42 }, { onProgress: (p) => void p.progress });
  const content: unknown[] = called.content;
  // @ts-expect-error input_required is settled or refused by callTool: never a result
  void called.inputRequests;
  const prompt = await client.getPrompt("p", { a: "b" });
  const messages: unknown[] = prompt.messages;
  const read = await client.readResource("file:///x");
  const contents: unknown[] = read.contents;
  const completion = await client.complete({
    ref: { type: "ref/prompt", name: "p" },
    argument: { name: "a", value: "" },
  });
  const values: string[] = completion.completion.values;
  // @ts-expect-error a getPrompt argument value is a string in every release
  await client.getPrompt("p", { a: 1 });
  // @ts-expect-error readResource takes a URI string
  await client.readResource({ uri: "file:///x" });
  const version: "2026-07-28" | "2025-11-25" = client.version;
  // The exact per-release request stays: after narrowing, as before.
  if (client.session.version === "2026-07-28")
    await client.session.request("tools/call", { name: "x", arguments: {}, _meta: { progressToken: 1 } });
  await client.close();
  return names.length + content.length + messages.length + contents.length + values.length + version.length;
}

export async function typedTools(url: string): Promise<number> {
  const client = await connectClient(httpTransport(url), { releases, clientInfo, tools: TOOL_TYPES });
  const result = await client.callTool("weather", { city: "Zürich", days: 2 });
  const temp: number = result.isError ? 0 : result.structuredContent.tempC;
  // @ts-expect-error a misspelt tool: the snapshot has no "wether"
  await client.callTool("wether", { city: "Zürich" });
  // @ts-expect-error a wrong argument type: days is a number
  await client.callTool("weather", { city: "Zürich", days: "two" });
  // @ts-expect-error a missing required argument
  await client.callTool("weather", { days: 2 });
  // @ts-expect-error an unknown argument
  await client.callTool("echo", { txet: "hi" });
  await client.callTool("echo", {}, { validate: false, timeoutMs: 1000 });
  await client.close();
  return temp;
}

export async function metaValues(url: string): Promise<void> {
  const client = await connectClient(httpTransport(url), { releases, clientInfo });
  const session = client.session;
  if (session.version === "2026-07-28") {
    await session.request("tools/list", { _meta: { progressToken: "t", "com.example/trace": { any: 1 } } });
    // @ts-expect-error a misspelt reserved _meta key
    await session.request("tools/list", { _meta: { "io.modelcontextprotocol/progresToken": "t" } });
    // A key 2025-11-25 reserved is no misspelling in 2026-07-28, which reserves it no longer (any value); misspelt, it is one.
    await session.request("tools/list", { _meta: { "io.modelcontextprotocol/related-task": { taskId: "t" } } });
    // @ts-expect-error a misspelt related-task
    await session.request("tools/list", { _meta: { "io.modelcontextprotocol/related_task": { taskId: "t" } } });
    // @ts-expect-error a _meta value of the wrong type: a progress token is a string or a number
    await session.request("tools/list", { _meta: { progressToken: { id: 1 } } });
    // @ts-expect-error a _meta value of the wrong type: no such log level
    await session.request("tools/list", { _meta: { "io.modelcontextprotocol/logLevel": "loud" } });
  } else {
    // @ts-expect-error a _meta value of the wrong type in a session release too
    await session.request("tools/list", { _meta: { progressToken: true } });
    await session.request("tools/list", { _meta: { "io.modelcontextprotocol/related-task": { taskId: "t" } } });
    // @ts-expect-error a misspelt related-task in 2025-11-25, which reserves it
    await session.request("tools/list", { _meta: { "io.modelcontextprotocol/related_task": { taskId: "t" } } });
  }
}
