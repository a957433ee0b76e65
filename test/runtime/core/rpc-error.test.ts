import { describe, expect, it } from "vitest";
import { RpcError, rpcErrorOf, type ReleaseRpcError } from "../../../generator/runtime/core/rpc-error.ts";

describe("RpcError.custom, the visible escape for an application's own code", () => {
  it("builds the same class as the constructor, with the code, message and data given", () => {
    const error = RpcError.custom(12345, "quota", { retryAfter: 3 });
    expect(error).toBeInstanceOf(RpcError);
    expect([error.name, error.code, error.message, error.data]).toEqual([
      "RpcError",
      12345,
      "quota",
      { retryAfter: 3 },
    ]);
  });
});

describe("RpcError", () => {
  it("is an Error a handler throws, with the code, message and data the answer carries", () => {
    const error = new RpcError(-32602, "Invalid params", { pointer: "/x" });
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.code, error.message, error.data]).toEqual([
      "RpcError",
      -32602,
      "Invalid params",
      { pointer: "/x" },
    ]);
    expect(new RpcError(-32601, "Method not found").data).toBeUndefined();
  });

  it("rpcErrorOf turns an error response's body into the RpcError a call rejects with", () => {
    const error = rpcErrorOf({ code: -32022, message: "Unsupported protocol version", data: { supported: ["x"] } });
    expect(error).toBeInstanceOf(RpcError);
    expect([error.code, error.message, error.data]).toEqual([
      -32022,
      "Unsupported protocol version",
      { supported: ["x"] },
    ]);
  });

  it("a release's typed face is the same class: instanceof holds across both, and new takes only the release's codes", () => {
    const Release: ReleaseRpcError<-32602 | -32601> = RpcError;
    const error = new Release(-32601, "Method not found");
    expect(error).toBeInstanceOf(RpcError);
    expect(Release.custom(7, "mine")).toBeInstanceOf(Release);
    // @ts-expect-error a code the release does not list goes through custom
    expect(new Release(7, "mine").code).toBe(7);
  });
});
