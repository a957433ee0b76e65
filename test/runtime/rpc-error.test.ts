import { describe, expect, it } from "vitest";
import { RpcError } from "../../generator/runtime/rpc-error.ts";

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
