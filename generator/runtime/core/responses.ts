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

/** A result's `resultType`; absent means complete, as the spec requires for results from older servers. */
export function resultTypeIn(result: unknown, facts: ResultTypeFacts): string {
  const value = isObject(result) ? result[facts.key] : undefined;
  return typeof value === "string" ? value : facts.complete;
}

/** Whether the server asks for more input before it can finish; never where no result can. */
export function isInputRequiredIn(result: unknown, facts: ResultTypeFacts): boolean {
  return facts.inputRequired !== null && resultTypeIn(result, facts) === facts.inputRequired;
}
