import { describe, expect, it } from "vitest";
import { BASE_CODES, type HttpReply } from "../../../generator/runtime/server/http-exchange.ts";
import { corsFacts } from "../../../generator/runtime/server/cors.ts";
import { postPlan, routeOf, toSessionEra, type RouteFacts } from "../../../generator/runtime/server/http-routing.ts";

const facts: RouteFacts = {
  path: "/mcp",
  checkOrigin: true,
  policy: {},
  sessions: true,
  codes: BASE_CODES,
  cors: corsFacts({}, "GET, POST, DELETE", []),
};
const exchange = (method: string, path: string, headers: Record<string, string> = { host: "localhost" }) => ({
  method,
  path,
  headers,
  body: () => Promise.resolve(""),
  signal: new AbortController().signal,
});
const status = (reply: unknown) => (reply as HttpReply).status;

describe("routeOf", () => {
  it.each([
    ["POST", "/mcp", "POST"],
    ["GET", "/mcp?x=1", "GET"],
    ["DELETE", "/mcp", "DELETE"],
  ])("%s %s routes as %s", (method, path, verb) => {
    expect(routeOf(exchange(method, path), facts)).toBe(verb);
  });

  it("refuses another path (404), another method (405 naming what is allowed) and a foreign Host (403)", () => {
    expect(status(routeOf(exchange("POST", "/other"), facts))).toBe(404);
    const put = routeOf(exchange("PUT", "/mcp"), facts) as HttpReply;
    expect([put.status, put.headers["allow"]]).toEqual([405, "GET, POST, DELETE"]);
    expect((routeOf(exchange("PUT", "/mcp"), { ...facts, sessions: false }) as HttpReply).headers["allow"]).toBe(
      "POST",
    );
    expect(status(routeOf(exchange("POST", "/mcp", { host: "evil.example" }), facts))).toBe(403);
    expect(routeOf(exchange("POST", "/mcp", { host: "evil.example" }), { ...facts, checkOrigin: false })).toBe("POST");
    expect(routeOf(exchange("POST", "/anything"), { ...facts, path: undefined })).toBe("POST");
  });

  it("answers OPTIONS (a CORS preflight) itself, once Host, Origin and path pass", () => {
    const own = { host: "localhost:3000", origin: "http://localhost:3000" };
    const preflight = routeOf(exchange("OPTIONS", "/mcp", own), facts) as HttpReply;
    expect([preflight.status, preflight.headers["access-control-allow-origin"]]).toEqual([204, own.origin]);
    expect(status(routeOf(exchange("OPTIONS", "/mcp", { ...own, origin: "http://evil.example" }), facts))).toBe(403);
    expect(status(routeOf(exchange("OPTIONS", "/other", own), facts))).toBe(404);
  });
});

describe("postPlan", () => {
  it.each([
    [{ "content-type": "application/json" }, { json: true, sse: true }],
    [
      { "content-type": "application/json; charset=utf-8", accept: "text/event-stream" },
      { json: false, sse: true },
    ],
    [
      { "content-type": "application/json", accept: "application/json" },
      { json: true, sse: false },
    ],
  ])("%j → %j", (headers, plan) => {
    expect(postPlan(headers, BASE_CODES)).toEqual(plan);
  });

  it("refuses another content type (415) and an Accept it cannot answer (406)", () => {
    expect(status(postPlan({ "content-type": "text/plain" }, BASE_CODES))).toBe(415);
    expect(status(postPlan({ "content-type": "application/json", accept: "text/html" }, BASE_CODES))).toBe(406);
  });
});

describe("toSessionEra", () => {
  const versions = ["2025-11-25", "2025-06-18"];
  it.each([
    ["a session id", { "mcp-session-id": "x" }, false, true],
    ["a session version", { "mcp-protocol-version": "2025-06-18" }, false, true],
    ["a stateless version", { "mcp-protocol-version": "2026-07-28" }, true, false],
    ["an initialize without a version", {}, true, true],
    ["anything else without a version", {}, false, false],
  ])("%s", (_, headers, initialize, want) => {
    expect(toSessionEra(versions, headers, () => initialize)).toBe(want);
  });

  it("nothing goes to a session era that is not served", () => {
    expect(toSessionEra(undefined, { "mcp-session-id": "x" }, () => true)).toBe(false);
  });
});
