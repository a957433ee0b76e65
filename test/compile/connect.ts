// connect returns a session typed by the release agreed on: a union narrowed on `version`. After
// narrowing, a method of the other era is a compile error; before it, `request` cannot be called at all.
import { connect, httpTransport, v2025_11_25, v2026_07_28 } from "../../generated/index.js";

export async function use(url: string): Promise<string[]> {
  const session = await connect(httpTransport(url), {
    releases: [v2026_07_28.clientRelease({ capabilities: { elicitation: {} } }), v2025_11_25.clientRelease()],
    clientInfo: { name: "c", version: "1" },
  });
  // @ts-expect-error the session's release is not known yet: narrow on version first
  await session.request("tools/list", {});
  if (session.version === "2026-07-28") {
    const discovered = await session.request("server/discover", {});
    const called = await session.request("tools/call", { name: "x", arguments: {} });
    if (called.resultType === "input_required") return [];
    // @ts-expect-error initialize is not a 2026-07-28 method
    await session.request("initialize", {});
    return discovered.supportedVersions;
  }
  // @ts-expect-error a version no release offered
  if (session.version === "2025-06-18") return [];
  const server: v2025_11_25.InitializeResult = session.server;
  // @ts-expect-error server/discover is 2026-07-28 only: a compile error on a 2025-11-25 session
  await session.request("server/discover", {});
  // @ts-expect-error misspelt params key
  await session.request("tools/call", { nmae: "x" });
  const { tools } = await session.request("tools/list", {});
  await session.close();
  return [server.protocolVersion, ...tools.map((tool) => tool.name)];
}

// @ts-expect-error clientRelease's capabilities are the release's: a capability it does not have
v2025_11_25.clientRelease({ capabilities: { nope: {} } });
