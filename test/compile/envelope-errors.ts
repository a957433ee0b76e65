// Every marked mistake in the envelope builders must be a compile error: `tsc` fails on an unused
// expect-error marker, so a builder that stopped catching one fails this file. Unmarked lines must compile.
import * as mcp from "../../generated/index.js";
import * as legacy from "../../generated/2025-06-18/index.js";
import * as modern from "../../generated/2026-07-28/index.js";

const caps = { elicitation: {} };

// Correct uses compile.
modern.request("tools/call", { name: "echo", arguments: { text: "hi" } }, { id: 1, clientCapabilities: caps });
modern.request("server/discover", {}, { id: 2, clientCapabilities: {}, protocolVersion: "2027-01-01" });
legacy.request(
  "initialize",
  { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } },
  { id: 3 },
);
legacy.request("ping", undefined, { id: 4 });
legacy.notification("notifications/initialized");
modern.resultResponse<"tools/call">(5, { content: [] });
mcp.request("tools/call", { name: "echo" }, { id: 6, protocolVersion: "2026-07-28" });
mcp.errorResponse(7, "MethodNotFound", "no such method");

// @ts-expect-error misspelt method in the modern request builder
modern.request("tools/cal", { name: "echo" }, { id: 1, clientCapabilities: caps });

// @ts-expect-error misspelt method in the legacy request builder
legacy.request("tool/call", { name: "echo" }, { id: 1 });

// @ts-expect-error misspelt method in the version-agnostic request
mcp.request("tools/cal", { name: "echo" }, { id: 1 });

// @ts-expect-error wrong params key (nmae)
modern.request("tools/call", { nmae: "echo" }, { id: 1, clientCapabilities: caps });

// @ts-expect-error wrong params key in a legacy version
legacy.request("resources/read", { url: "file:///a" }, { id: 1 });

const initialize = { protocolVersion: "2026-07-28", capabilities: {}, clientInfo: { name: "c", version: "1" } };
// @ts-expect-error initialize does not exist in 2026-07-28 (no handshake)
modern.request("initialize", initialize, { id: 1, clientCapabilities: caps });

// @ts-expect-error the modern builder requires clientCapabilities: the server must not infer them
modern.request("tools/list", {}, { id: 1 });

// @ts-expect-error a request id is never null
legacy.request("ping", undefined, { id: null });

// @ts-expect-error notifications/progress needs its params
legacy.notification("notifications/progress");

// @ts-expect-error a request method is not a notification
modern.notification("tools/call", { name: "x" });

// @ts-expect-error -32002 is receive-only: no builder sends it
legacy.errorResponse(1, "ResourceNotFound", "gone");

// @ts-expect-error a tools/call result needs content
modern.resultResponse<"tools/call">(1, { contents: [] });
