import { describe, expect, it } from "vitest";
import * as modern from "../../../generated/2026-07-28/index.js";
import { answerInputRequests, type InputSpec } from "../../../generator/runtime/core/input-requests.ts";
import { RpcError } from "../../../generator/runtime/core/rpc-error.ts";

// What the 2026-07-28 emitter writes: the input methods, their params definitions and the release's validator.
const PARAMS: Record<string, modern.DefinitionName> = {
  "elicitation/create": "ElicitRequestParams",
  "roots/list": "RequestParams",
  "sampling/createMessage": "CreateMessageRequestParams",
};
const SPEC: InputSpec = {
  version: "2026-07-28",
  inputs: modern.INPUT_REQUEST_METHODS,
  codes: { methodNotFound: -32601, invalidParams: -32602, internalError: -32603 },
  inputParams: PARAMS,
  validateDefinition: (definition, value) => modern.validate(definition as modern.DefinitionName, value),
};
const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const elicit = {
  method: "elicitation/create",
  params: {
    _meta: meta,
    mode: "form",
    message: "Name?",
    requestedSchema: { type: "object", properties: { name: { type: "string" } } },
  },
};
const roots = { method: "roots/list", params: { _meta: meta } };

describe("answerInputRequests", () => {
  it("answers each key with its handler's result, keyed as the server asked, with the caller's context", async () => {
    const seen: unknown[] = [];
    const answers = await answerInputRequests(
      SPEC,
      {
        "elicitation/create": (_p: unknown, ctx: { key: string; context: unknown }) => {
          seen.push([ctx.key, ctx.context]);
          return { action: "accept", content: { name: "Ada" } };
        },
        "roots/list": () => ({ roots: [{ uri: "file:///tmp" }] }),
      },
      { ask: elicit, where: roots },
      "session-1",
    );
    expect(answers).toEqual({
      inputResponses: {
        ask: { action: "accept", content: { name: "Ada" } },
        where: { roots: [{ uri: "file:///tmp" }] },
      },
      errors: {},
    });
    expect(seen).toEqual([["ask", "session-1"]]);
  });

  it("a key named __proto__ stays a key of the answers, for results and errors alike", async () => {
    const answers = await answerInputRequests(
      SPEC,
      { "roots/list": () => ({ roots: [] }) },
      JSON.parse(`{"__proto__": ${JSON.stringify(roots)}, "b": {"method": "nope"}}`),
      undefined,
    );
    expect(Object.keys(answers.inputResponses)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(answers.inputResponses)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(answers))).toEqual(
      JSON.parse(
        '{"inputResponses": {"__proto__": {"roots": []}}, "errors": {"b": {"code": -32601, "message": "Method not found"}}}',
      ),
    );
  });

  it("no handler → -32601, bad params → -32602, RpcError → its error, other throws → -32603 (onError sees them)", async () => {
    const reported: unknown[] = [];
    const answers = await answerInputRequests(
      SPEC,
      {
        "elicitation/create": () => {
          throw new RpcError(-1, "declined by policy");
        },
        "sampling/createMessage": () => {
          throw new Error("secret");
        },
      },
      {
        a: roots,
        b: elicit,
        c: { method: "sampling/createMessage", params: { _meta: meta, messages: [], maxTokens: 5 } },
        d: { method: "elicitation/create", params: { _meta: meta } },
        e: { method: "tools/call", params: {} },
        f: "not a request",
      },
      undefined,
      { onError: (e) => reported.push(e) },
    );
    expect(answers.inputResponses).toEqual({});
    expect(answers.errors).toMatchObject({
      a: { code: -32601 },
      b: { code: -1, message: "declined by policy" },
      c: { code: -32603, message: "Internal error" },
      d: { code: -32602 },
      e: { code: -32601 },
      f: { code: -32601 },
    });
    expect(JSON.stringify(answers)).not.toContain("secret");
    expect(reported).toHaveLength(1);
  });

  it("anything that is not an object of requests gets an empty answer", async () => {
    for (const value of [null, [], "x", 3])
      expect(await answerInputRequests(SPEC, {}, value, undefined)).toEqual({ inputResponses: {}, errors: {} });
  });
});
