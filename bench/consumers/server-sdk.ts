// Bench consumer (type-check cost): bench/consumers/server-high.ts (README's "Build a server" example) written on
// SDK v2 (@modelcontextprotocol/server 2.4.0: McpServer with registerTool/registerPrompt/registerResource, zod 4
// schemas as the SDK's own), served by createMcpHandler to 2026-07-28 and, statelessly, to 2025 clients.
import { completable, createMcpHandler, McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import * as z from "zod/v4";

const CITIES = ["Oslo", "Lima", "Lagos", "Perth"];
const temperatures = new Map([
  ["Oslo", 4],
  ["Lima", 19],
  ["Lagos", 31],
  ["Perth", 24],
]);

// createMcpHandler asks for a server per request.
function weatherServer(): McpServer {
  const server = new McpServer({ name: "weather", version: "1.0.0" }, { capabilities: { logging: {} } });
  server.registerTool(
    "forecast",
    {
      description: "Today's temperature in a city",
      annotations: { readOnlyHint: true },
      inputSchema: z.object({ city: z.string() }),
      outputSchema: z.object({ tempC: z.number() }),
    },
    async ({ city }, ctx) => {
      await ctx.mcpReq.log("info", `forecast for ${city}`);
      const tempC = temperatures.get(city);
      if (tempC === undefined) return { content: [{ type: "text", text: `No data for ${city}` }], isError: true };
      return { content: [{ type: "text", text: `${tempC} °C` }], structuredContent: { tempC } };
    },
  );
  server.registerTool(
    "convert",
    { description: "Celsius to Fahrenheit", inputSchema: z.object({ celsius: z.number() }) },
    ({ celsius }) => ({ content: [{ type: "text", text: String((celsius * 9) / 5 + 32) }] }),
  );
  server.registerTool("slow-report", { description: "Reports progress while it works" }, async (ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    if (progressToken !== undefined)
      for (const [i, city] of CITIES.entries())
        await ctx.mcpReq.notify({
          method: "notifications/progress",
          params: { progressToken, progress: i + 1, total: CITIES.length, message: city },
        });
    return { content: [{ type: "text", text: `${CITIES.length} cities` }] };
  });
  server.registerPrompt(
    "packing-list",
    {
      description: "What to pack for a trip",
      argsSchema: z.object({
        city: completable(z.string(), (value) => CITIES.filter((c) => c.startsWith(value))),
        days: z.string().optional(),
      }),
    },
    ({ city, days }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Pack for ${days ?? "3"} days in ${city}.` } }],
    }),
  );
  server.registerPrompt("small-talk", { description: "An opener about the weather" }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "Say something nice about the weather." } }],
  }));
  server.registerResource("cities", "weather://cities", { mimeType: "application/json" }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(CITIES) }],
  }));
  server.registerResource(
    "city",
    new ResourceTemplate("weather://city/{name}{?unit}", {
      list: undefined,
      complete: { name: (value) => CITIES.filter((c) => c.startsWith(value)) },
    }),
    { mimeType: "text/plain" },
    (uri, { name, unit = "C" }) => ({
      contents: [{ uri: uri.href, text: `${String(name)}: ${temperatures.get(String(name)) ?? "?"} °${String(unit)}` }],
    }),
  );
  return server;
}

export const handler = createMcpHandler(weatherServer);
