// Reading a response a peer sent, whatever its release.
import { isObject, own, type JsonObject } from "./json.js";

/** The `result` of a response, or `undefined` for an error response or anything else. */
export function responseResult(response: object): JsonObject | undefined {
  const result = own(response, "result") ? (response as JsonObject)["result"] : undefined;
  return isObject(result) ? result : undefined;
}

/** The `error` of a response as `{ code, message, data }`, or `undefined` when there is none. */
export function responseError(
  response: object,
): { code: number; message: string; data: unknown } | undefined {
  const error = own(response, "error") ? (response as JsonObject)["error"] : undefined;
  if (!isObject(error) || typeof error["code"] !== "number" || typeof error["message"] !== "string")
    return undefined;
  return { code: error["code"], message: error["message"], data: error["data"] };
}

/**
 * A stateless release's `resultType` facts, from its model: the key, the value meaning done (which an absent key also
 * means), and the value that asks the client for more input (null where no result does).
 */
export interface ResultTypeFacts {
  readonly key: string;
  readonly complete: string;
  readonly inputRequired: string | null;
}

/**
 * A result's `resultType`; absent means complete, as the spec requires for results from older servers. Without facts
 * (no stateless release was generated) the key is unknown, so this throws a RangeError rather than guess.
 */
export function resultTypeIn(result: unknown, facts: ResultTypeFacts | null): string {
  if (facts === null)
    throw new RangeError("no stateless release was generated: the resultType key is unknown");
  const value = isObject(result) ? result[facts.key] : undefined;
  return typeof value === "string" ? value : facts.complete;
}

/** Whether the server asks for more input before it can finish; never without facts saying how it would. */
export function isInputRequiredIn(result: unknown, facts: ResultTypeFacts | null): boolean {
  return (
    facts !== null &&
    facts.inputRequired !== null &&
    resultTypeIn(result, facts) === facts.inputRequired
  );
}
