import { describe, expect, it } from "vitest";
import { passGate, passPermit, type Authorize, type Permit } from "../../../generator/runtime/server/request-gate.ts";

const exchange = {
  method: "POST",
  path: "/mcp?x=1",
  headers: { authorization: "Bearer t" },
  body: () => Promise.resolve(""),
  signal: new AbortController().signal,
};

describe("passGate", () => {
  it("without authorize every request passes, with no identity", async () => {
    expect(await passGate(undefined, exchange, () => undefined)).toEqual({ ok: true, identity: undefined });
  });

  it("shows authorize the method, path and headers, and passes the identity it returns (sync or async)", async () => {
    const seen: unknown[] = [];
    const authorize: Authorize = (request) => {
      seen.push(request);
      return Promise.resolve({ subject: "alice", tenant: "t1" } as { subject: string });
    };
    expect(await passGate(authorize, exchange, () => undefined)).toEqual({
      ok: true,
      identity: { subject: "alice", tenant: "t1" },
    });
    expect(seen).toEqual([{ method: "POST", path: "/mcp?x=1", headers: { authorization: "Bearer t" } }]);
    expect(
      await passGate(
        () => ({ subject: "bob" }),
        exchange,
        () => undefined,
      ),
    ).toMatchObject({ ok: true });
  });

  it("sends a Response it returns as the reply, headers and body included", async () => {
    const refusal = new Response('{"error":"no"}', { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
    const result = await passGate(
      () => refusal,
      exchange,
      () => undefined,
    );
    expect(result).toEqual({
      ok: false,
      reply: {
        status: 401,
        headers: { "www-authenticate": "Bearer", "content-type": "text/plain;charset=UTF-8" },
        body: '{"error":"no"}',
      },
    });
  });

  it.each([
    [
      "throws",
      () => {
        throw new Error("secret-token");
      },
    ],
    ["rejects", () => Promise.reject(new Error("secret-token"))],
    ["returns no subject", () => ({ name: "x" }) as never],
    ["returns null", () => null as never],
  ])("a gate that %s refuses with a bare 500 and reports why", async (_, authorize) => {
    const errors: unknown[] = [];
    const result = await passGate(authorize, exchange, (error) => errors.push(error));
    expect(result.ok).toBe(false);
    if (result.ok || !("body" in result.reply)) throw new Error("expected a refusal with a body");
    expect(result.reply.status).toBe(500);
    expect(result.reply.body).not.toContain("secret");
    expect(errors).toHaveLength(1);
  });
});

describe("passPermit", () => {
  const calls = [
    { method: "tools/list", params: undefined },
    { method: "tools/call", params: { name: "deploy" } },
  ];

  it("lets a body through when permit refuses none of its requests, showing it each with the identity", async () => {
    const seen: unknown[] = [];
    const permit: Permit = (identity, call) => void seen.push([identity, call]);
    expect(await passPermit(permit, { subject: "alice" }, calls, exchange, () => undefined)).toBeUndefined();
    expect(seen).toEqual(calls.map((call) => [{ subject: "alice" }, call]));
  });

  it("answers the whole body with the first refusal", async () => {
    const permit: Permit = (_identity, call) =>
      call.method === "tools/call"
        ? new Response(null, { status: 403, headers: { "www-authenticate": "Bearer" } })
        : undefined;
    expect(await passPermit(permit, { subject: "alice" }, calls, exchange, () => undefined)).toEqual({
      status: 403,
      headers: { "www-authenticate": "Bearer" },
      body: undefined,
    });
  });

  it("refuses with a bare 500 and reports when permit throws", async () => {
    const errors: unknown[] = [];
    const reply = await passPermit(
      () => {
        throw new Error("secret-token");
      },
      undefined,
      calls,
      exchange,
      (error) => errors.push(error),
    );
    expect(reply?.status).toBe(500);
    expect(JSON.stringify(reply)).not.toContain("secret");
    expect(errors).toHaveLength(1);
  });
});
