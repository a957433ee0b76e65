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

/** A result's `resultType`; absent means `"complete"`, as the spec requires for results from older servers. */
export function resultType(result: unknown): string {
  const value = isObject(result) ? result["resultType"] : undefined;
  return typeof value === "string" ? value : "complete";
}

/** Whether the server asks for more input before it can finish (`resultType: "input_required"`). */
export function isInputRequired(result: unknown): boolean {
  return resultType(result) === "input_required";
}
