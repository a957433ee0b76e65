import { describe, expect, it } from "vitest";
import {
  isInputRequiredIn,
  responseError,
  responseResult,
  resultTypeIn,
  type ResultTypeFacts,
} from "../../../generator/runtime/core/responses.ts";

/** The resultType facts a 2026-07-28 model hands the runtime, and made-up ones that show the runtime reads them. */
const RESULT_TYPE: ResultTypeFacts = { key: "resultType", complete: "complete", inputRequired: "input_required" };
const OTHER: ResultTypeFacts = { key: "kind", complete: "done", inputRequired: "more" };

describe("reading responses", () => {
  it("reads results and errors of any release", () => {
    expect(responseResult({ result: { a: 1 } })).toEqual({ a: 1 });
    expect(responseResult({ error: {} })).toBeUndefined();
    expect(responseError({ error: { code: 1, message: "m" } })).toEqual({ code: 1, message: "m", data: undefined });
    expect(responseError({ error: { code: "1", message: "m" } })).toBeUndefined();
    expect(resultTypeIn({}, RESULT_TYPE)).toBe("complete");
    expect(isInputRequiredIn({ resultType: "input_required" }, RESULT_TYPE)).toBe(true);
  });

  it.each([
    { given: {}, facts: OTHER, type: "done", input: false },
    { given: { kind: "more" }, facts: OTHER, type: "more", input: true },
    { given: { resultType: "input_required" }, facts: OTHER, type: "done", input: false },
    { given: { kind: 5 }, facts: OTHER, type: "done", input: false },
    { given: { kind: "more" }, facts: { ...OTHER, inputRequired: null }, type: "more", input: false },
  ])(
    "resultTypeIn($given) is $type, isInputRequiredIn is $input, by the facts given",
    ({ given, facts, type, input }) => {
      expect(resultTypeIn(given, facts)).toBe(type);
      expect(isInputRequiredIn(given, facts)).toBe(input);
    },
  );
});

describe("reading what a peer sent", () => {
  it.each([
    { name: "an array result", given: { result: [1] } },
    { name: "a null result", given: { result: null } },
    { name: "a result inherited, not sent", given: Object.create({ result: { a: 1 } }) as object },
  ])("responseResult of $name is undefined", ({ given }) => {
    expect(responseResult(given)).toBeUndefined();
  });

  it.each([
    { name: "no message", given: { error: { code: 1 } } },
    { name: "a string for an error", given: { error: "boom" } },
    { name: "an error inherited, not sent", given: Object.create({ error: { code: 1, message: "m" } }) as object },
  ])("responseError of $name is undefined", ({ given }) => {
    expect(responseError(given)).toBeUndefined();
  });

  it("responseError keeps data and nothing else of the error object", () => {
    expect(
      responseError({ error: { code: -32602, message: "bad", data: { pointer: "/a" }, stack: "secret" } }),
    ).toEqual({
      code: -32602,
      message: "bad",
      data: { pointer: "/a" },
    });
  });
});
