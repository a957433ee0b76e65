// Bench consumer (type-check cost): README's "Build a server" example on createMcpServer (three tools with
// input/output schemas, two prompts, a static resource, a resource template, logging, progress, completion),
// served to 2026-07-28 and 2025 sessions. bench/consumers/server-sdk.ts is the same server on SDK v2's McpServer.
// Both stop at the fetch-shaped handler: the node:http lines would bring @types/node into both checks.
import { createHttpHandler, createMcpServer, LEGACY_VERSIONS } from "../../generated/index.js";
import * as legacy from "../../generated/2025-11-25/index.js";
import * as modern from "../../generated/2026-07-28/index.js";

// One declaration serves 2026-07-28 (stateless) and 2025 sessions; a result either cannot carry is a compile error.
const server = createMcpServer([modern.MCP_RELEASE, legacy.MCP_RELEASE], {
  info: { name: "weather", version: "1.0.0" },
});
const CITIES = ["Oslo", "Lima", "Lagos", "Perth"];
const temperatures = new Map([
  ["Oslo", 4],
  ["Lima", 19],
  ["Lagos", 31],
  ["Perth", 24],
]);

server
  .tool(
    {
      name: "forecast",
      description: "Today's temperature in a city",
      annotations: { readOnlyHint: true },
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      outputSchema: { type: "object", properties: { tempC: { type: "number" } }, required: ["tempC"] },
    },
    ({ city }, ctx) => {
      // args.city is a string, checked before the handler runs (a bad one answers isError: true)
      ctx.log("info", `forecast for ${city}`); // sent when the client asked for info or finer
      const tempC = temperatures.get(city);
      if (tempC === undefined) return { content: [{ type: "text", text: `No data for ${city}` }], isError: true };
      return { content: [{ type: "text", text: `${tempC} °C` }], structuredContent: { tempC } };
    },
  )
  .tool(
    {
      name: "convert",
      description: "Celsius to Fahrenheit",
      inputSchema: { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] },
    },
    ({ celsius }) => ({ content: [{ type: "text", text: String((celsius * 9) / 5 + 32) }] }),
  )
  .tool({ name: "slow-report", description: "Reports progress while it works" }, async (_args, ctx) => {
    for (const [i, city] of CITIES.entries()) ctx.progress(i + 1, CITIES.length, city);
    return { content: [{ type: "text", text: `${CITIES.length} cities` }] };
  })
  .prompt(
    {
      name: "packing-list",
      description: "What to pack for a trip",
      arguments: [{ name: "city", required: true }, { name: "days" }],
      complete: { city: (value) => CITIES.filter((c) => c.startsWith(value)) },
    },
    ({ city, days }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Pack for ${days ?? "3"} days in ${city}.` } }],
    }),
  )
  .prompt({ name: "small-talk", description: "An opener about the weather" }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "Say something nice about the weather." } }],
  }))
  .resource({ uri: "weather://cities", name: "cities", mimeType: "application/json" }, (uri) => ({
    contents: [{ uri, mimeType: "application/json", text: JSON.stringify(CITIES) }],
  }))
  .resourceTemplate(
    {
      uriTemplate: "weather://city/{name}{?unit}",
      name: "city",
      mimeType: "text/plain",
      complete: { name: (value) => CITIES.filter((c) => c.startsWith(value)) },
    },
    (uri, { name, unit }) => ({
      contents: [{ uri, text: `${name}: ${temperatures.get(name) ?? "?"} °${unit ?? "C"}` }],
    }),
  );

export const handler = createHttpHandler({ ...server.eras({ sessions: { versions: LEGACY_VERSIONS } }), path: "/mcp" });
