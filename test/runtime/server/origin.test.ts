import { describe, expect, it } from "vitest";
import { checkOrigin } from "../../../generator/runtime/server/origin.ts";

describe("checkOrigin", () => {
  it.each([
    ["loopback Host, no Origin", { host: "127.0.0.1:3000" }, true],
    ["localhost Host, no port", { host: "localhost" }, true],
    ["IPv6 loopback Host", { host: "[::1]:8080" }, true],
    ["upper-case Host", { host: "LOCALHOST:1" }, true],
    ["same-origin page", { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" }, true],
    ["another loopback name, same port", { host: "127.0.0.1:3000", origin: "http://localhost:3000" }, true],
    ["https loopback Origin, default ports", { host: "localhost", origin: "https://127.0.0.1" }, true],
    ["upper-case Origin", { host: "localhost:3000", origin: "HTTP://LOCALHOST:3000" }, true],
    // Another port is another web app (RFC 6454): a dev server on :5173 must not drive the MCP server on :3000.
    ["loopback Origin on another port", { host: "127.0.0.1:3000", origin: "http://localhost:5173" }, false],
    ["loopback Origin with a port, Host without", { host: "localhost", origin: "http://localhost:8080" }, false],
    ["loopback Origin without a port, Host with", { host: "localhost:3000", origin: "http://localhost" }, false],
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
    // Each would pass a pattern that lost its end anchor: an allowed name and port, then more.
    ["Origin with a longer port", { host: "localhost:3000", origin: "http://localhost:3000.evil.example.com" }, false],
    ["Origin with user info", { host: "localhost:3000", origin: "http://localhost:3000@evil.example.com" }, false],
    ["Origin with a path", { host: "localhost:3000", origin: "http://localhost:3000/x" }, false],
    ["Host with a non-numeric port", { host: "localhost:evil" }, false],
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

  it("compares a listed origin whole: scheme, host and port", () => {
    const policy = { allowedOrigins: ["http://localhost:5173", "https://App.example.com"] };
    const from = (origin: string) => checkOrigin({ host: "localhost:3000", origin }, policy).ok;
    expect(from("http://localhost:5173")).toBe(true);
    expect(from("https://app.example.com")).toBe(true);
    expect(from("http://localhost:5174")).toBe(false);
    expect(from("https://localhost:5173")).toBe(false);
    expect(from("https://app.example.com:8443")).toBe(false);
    expect(from("https://app.example.com.evil.example")).toBe(false);
    expect(from("https://app.example.com/")).toBe(false);
  });

  it("takes any port for a listed origin only where the entry says :*", () => {
    const policy = { allowedOrigins: ["http://localhost:*"] };
    const from = (origin: string) => checkOrigin({ host: "localhost:3000", origin }, policy).ok;
    expect(from("http://localhost:5173")).toBe(true);
    expect(from("http://localhost")).toBe(true);
    expect(from("https://localhost:5173")).toBe(false);
    expect(from("http://127.0.0.1:5173")).toBe(false);
  });
});
