import { describe, expect, it } from "vitest";
import { checkOrigin } from "../../generator/runtime/origin.ts";

describe("checkOrigin", () => {
  it.each([
    ["loopback Host, no Origin", { host: "127.0.0.1:3000" }, true],
    ["localhost Host, no port", { host: "localhost" }, true],
    ["IPv6 loopback Host", { host: "[::1]:8080" }, true],
    ["upper-case Host", { host: "LOCALHOST:1" }, true],
    ["loopback Host and Origin", { host: "127.0.0.1:3000", origin: "http://localhost:5173" }, true],
    ["https loopback Origin", { host: "localhost:3000", origin: "https://127.0.0.1" }, true],
    ["rebound Host (the conformance probe)", { host: "evil.example.com", origin: "http://evil.example.com" }, false],
    ["rebound Host, no Origin", { host: "evil.example.com:3000" }, false],
    ["missing Host", {}, false],
    ["repeated Host", { host: ["localhost", "evil.example.com"] }, false],
    ["loopback Host, foreign Origin", { host: "127.0.0.1:3000", origin: "https://evil.example.com" }, false],
    ["Origin null (sandboxed frame)", { host: "127.0.0.1:3000", origin: "null" }, false],
    ["Origin of another scheme", { host: "127.0.0.1:3000", origin: "file://localhost" }, false],
    ["a host that only starts like localhost", { host: "localhost.evil.example.com" }, false],
    [
      "Origin that only starts like localhost",
      { host: "localhost", origin: "http://localhost.evil.example.com" },
      false,
    ],
    ["Origin garbage", { host: "localhost", origin: "::::" }, false],
  ])("default policy: %s", (_, headers, ok) => {
    expect(checkOrigin(headers).ok).toBe(ok);
  });

  it("says which header failed and asks for 403", () => {
    expect(checkOrigin({ host: "evil.example.com" })).toEqual({ ok: false, status: 403, message: "Host not allowed" });
    expect(checkOrigin({ host: "localhost", origin: "http://evil.example.com" })).toEqual({
      ok: false,
      status: 403,
      message: "Origin not allowed",
    });
  });

  it("accepts the hosts and whole origins a deployed server names, and nothing else", () => {
    const policy = { allowedHosts: ["mcp.example.com"], allowedOrigins: ["https://app.example.com"] };
    expect(checkOrigin({ host: "mcp.example.com", origin: "https://app.example.com" }, policy).ok).toBe(true);
    expect(checkOrigin({ host: "mcp.example.com", origin: "https://mcp.example.com" }, policy).ok).toBe(true);
    expect(checkOrigin({ host: "mcp.example.com", origin: "http://app.example.com" }, policy).ok).toBe(false);
    expect(checkOrigin({ host: "localhost" }, policy).ok).toBe(false);
  });
});
