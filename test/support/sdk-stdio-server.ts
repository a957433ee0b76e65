// An official SDK server over stdio, for the example client's interop test: `node --import tsx
// sdk-stdio-server.ts v1|v2`. One tool, `echo`, answering ECHO_TEXT; a line on stderr at start, which the
// client must pass through and not take for a message.
import { McpServer as McpServerV1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport as StdioV1 } from "@modelcontextprotocol/sdk/server/stdio.js";
import { McpServer as McpServerV2 } from "@modelcontextprotocol/server";
import { StdioServerTransport as StdioV2 } from "@modelcontextprotocol/server/stdio";
import { ECHO_TEXT } from "./sdk-servers.ts";

const echo = () => ({ content: [{ type: "text" as const, text: ECHO_TEXT }] });
process.stderr.write("sdk stdio server: started\n");
if (process.argv[2] === "v2") {
  const server = new McpServerV2({ name: "sdk-v2-stdio-server", version: "2.0.0" });
  server.registerTool("echo", { description: "Answers with a fixed text" }, echo);
  await server.connect(new StdioV2());
} else {
  const server = new McpServerV1({ name: "sdk-v1-stdio-server", version: "1.0.0" });
  server.registerTool("echo", { description: "Answers with a fixed text" }, echo);
  await server.connect(new StdioV1());
}
