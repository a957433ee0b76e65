// The JSON-RPC 2.0 layer: the one envelope checker that both `parse` and the validators use,
// `parse`/`encode` on text, and the shapes builders start from. Nothing here knows a release.
import { describeValue, isObject, own, type JsonObject } from "./json.js";

export type RequestIdValue = string | number;

/** A request id: a string or an integer (JSON-RPC 2.0 section 4; its null only answers an unreadable id). */
export function isRequestId(value: unknown): value is RequestIdValue {
  return typeof value === "string" || (typeof value === "number" && Number.isInteger(value));
}

/** Why a value was refused: an RFC 6901 pointer into it, what was expected there, and what was found. */
export interface ValidationIssue {
  /** RFC 6901 pointer into the value that was checked. */
  readonly pointer: string;
  readonly expected: string;
  readonly got: string;
}

/**
 * Why a text is not a message: -32700 when it is not JSON, -32600 when it is JSON but not a JSON-RPC 2.0 message,
 * -32602 for params by position; with `validate`, also -32601 (unknown method) and -32602 (params that do not fit the schema).
 */
export type ParseFailure = {
  ok: false;
  error: { code: -32700 | -32600 | -32601 | -32602; message: string };
  /**
   * The id of the refused request, for the error response (JSON-RPC 2.0 section 5). Absent when none
   * could be read (not JSON, not an object, no string or integer id) and when the text was a
   * notification or a response, which get no answer.
   */
  id?: RequestIdValue;
};

export type ParseOutcome<M> = { ok: true; message: M } | ParseFailure;

/** A checked message before any release types it: only JSON-RPC's members, plus the `kind` that tells them apart. */
export type WireMessage =
  | { kind: "request"; jsonrpc: "2.0"; id: RequestIdValue; method: string; params?: JsonObject }
  | { kind: "notification"; jsonrpc: "2.0"; method: string; params?: JsonObject }
  | { kind: "result"; jsonrpc: "2.0"; id: RequestIdValue; result: JsonObject }
  | {
      kind: "error";
      jsonrpc: "2.0";
      id?: RequestIdValue | null;
      error: { code: number; message: string; data?: unknown };
    };

/**
 * The envelope checker's verdict. `inParams` marks a request or notification that JSON-RPC 2.0 accepts but MCP does not:
 * params by position (an array; §4.2 allows it, MCP's schema wants an object) or an own `params: undefined`, which `parse`, validation and the
 * dispatchers answer with -32602 (invalid params). Params that are no structured value at all break the envelope (-32600).
 */
export type EnvelopeCheck =
  | { readonly ok: true; readonly message: WireMessage }
  | { readonly ok: false; readonly inParams: boolean; readonly issue: ValidationIssue };

function refuse(pointer: string, expected: string, got: string, inParams = false): EnvelopeCheck {
  return { ok: false, inParams, issue: { pointer, expected, got } };
}

/**
 * Sorts a parsed JSON value into the four JSON-RPC message kinds, copying only the members JSON-RPC defines
 * into fresh literals: no input key is ever assigned onto an object, so `__proto__` in the input stays inert data.
 */
export function checkEnvelope(value: unknown): EnvelopeCheck {
  // A message is one object: a release with batches (2025-03-26) splits an array in its dispatcher first.
  if (!isObject(value)) return refuse("", "a JSON-RPC 2.0 message object", describeValue(value));
  const jsonrpc = own(value, "jsonrpc") ? value["jsonrpc"] : undefined;
  if (jsonrpc !== "2.0") return refuse("/jsonrpc", '"2.0"', describeValue(jsonrpc));
  const id = value["id"];
  const hasId = own(value, "id");
  const hasResult = own(value, "result");
  const hasError = own(value, "error");
  // JSON-RPC 2.0 (section 5) answers with a null id when the request's id could not be read;
  // anything else with a null id (a request, a result) is refused, and ids are never fractional.
  const nullId = id === null && hasError && !hasResult && !own(value, "method");
  if (hasId && !nullId && !isRequestId(id))
    return refuse("/id", "string | integer", describeValue(id));
  if (own(value, "method")) {
    const method = value["method"];
    if (typeof method !== "string") return refuse("/method", "string", describeValue(method));
    if (hasResult || hasError)
      return refuse(
        hasResult ? "/result" : "/error",
        "no result or error beside a method",
        "present",
      );
    // Literals of one shape per kind (no spreads): this runs on every message, before any validation.
    if (!own(value, "params"))
      return {
        ok: true,
        message: hasId
          ? { kind: "request", jsonrpc: "2.0", id: id as RequestIdValue, method }
          : { kind: "notification", jsonrpc: "2.0", method },
      };
    const params = value["params"];
    // Params by position (an array) and an own `params: undefined` (a JS value, never JSON) are the params' fault
    // (-32602) whatever the method; any other non-object makes the envelope invalid (-32600).
    if (!isObject(params))
      return refuse(
        "/params",
        "an object",
        describeValue(params),
        params === undefined || Array.isArray(params),
      );
    return {
      ok: true,
      message: hasId
        ? { kind: "request", jsonrpc: "2.0", id: id as RequestIdValue, method, params }
        : { kind: "notification", jsonrpc: "2.0", method, params },
    };
  }
  if (hasResult === hasError)
    return refuse(
      "",
      "exactly one of method, result and error",
      hasResult ? "result and error" : "none",
    );
  if (hasResult) {
    const result = value["result"];
    if (!hasId) return refuse("/id", "string | integer", "missing");
    if (!isObject(result)) return refuse("/result", "an object", describeValue(result));
    return {
      ok: true,
      message: { kind: "result", jsonrpc: "2.0", id: id as RequestIdValue, result },
    };
  }
  const error = value["error"];
  if (!isObject(error))
    return refuse(
      "/error",
      "an object with an integer code and a string message",
      describeValue(error),
    );
  const code = error["code"];
  if (!Number.isInteger(code)) return refuse("/error/code", "integer", describeValue(code));
  const text = error["message"];
  if (typeof text !== "string") return refuse("/error/message", "string", describeValue(text));
  const body: { code: number; message: string; data?: unknown } = own(error, "data")
    ? { code: code as number, message: text, data: error["data"] }
    : { code: code as number, message: text };
  return {
    ok: true,
    message: hasId
      ? { kind: "error", jsonrpc: "2.0", id: id as RequestIdValue | null, error: body }
      : { kind: "error", jsonrpc: "2.0", error: body },
  };
}

/** Whether a refused message gets an error response, and with which request id. */
export type RefusalAnswer =
  { readonly answer: false } | { readonly answer: true; readonly id: RequestIdValue | undefined };

/**
 * How JSON-RPC 2.0 answers a value the envelope checker refused: a response gets no answer (two peers
 * would bounce errors at each other forever), nor does a notification, however malformed (section
 * 4.1); anything else gets an error, with the request's id when one can be read (section 5).
 * `parse` and the dispatchers both go by it.
 */
export function refusalAnswer(value: unknown): RefusalAnswer {
  if (!isObject(value)) return { answer: true, id: undefined };
  const hasMethod = own(value, "method");
  if (!hasMethod && (own(value, "result") || own(value, "error"))) return { answer: false };
  if (!own(value, "id"))
    return value["jsonrpc"] === "2.0" && hasMethod && typeof value["method"] === "string"
      ? { answer: false }
      : { answer: true, id: undefined };
  const id = value["id"];
  return { answer: true, id: isRequestId(id) ? id : undefined };
}

/** The one wording of a refusal, shared by `parse` with and without validation; `id` is the request's, when known. */
export function parseFailure(
  code: -32600 | -32601 | -32602,
  issue: ValidationIssue | undefined,
  id?: RequestIdValue,
): ParseFailure {
  const error = {
    code,
    message: issue
      ? `${issue.pointer || "/"}: expected ${issue.expected}, got ${issue.got}`
      : "invalid message",
  };
  return id === undefined ? { ok: false, error } : { ok: false, error, id };
}

/** JSON text → checked message. Never throws: JSON.parse errors (including a RangeError on absurd input) become -32700. */
export function parseText(text: unknown): ParseOutcome<WireMessage> {
  if (typeof text !== "string")
    return { ok: false, error: { code: -32700, message: "not a string" } };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: { code: -32700, message: "not JSON" } };
  }
  const checked = checkEnvelope(value);
  // Valid JSON nests at most half its length deep, so short texts (nearly every message) skip the walk.
  if (checked.ok)
    return text.length > 2 * MAX_NESTING ? (nestingFailure(checked.message) ?? checked) : checked;
  const refused = refusalAnswer(value);
  return parseFailure(
    checked.inParams ? -32602 : -32600,
    checked.issue,
    refused.answer ? refused.id : undefined,
  );
}

/**
 * The deepest a message may nest, the message object counting as 1 (serde_json's default limit too).
 * JSON.parse takes any depth, but what comes after recurses (JSON.stringify, validators, handlers) and
 * overflows the stack a few thousand levels down, where the request's id is no longer at hand.
 */
export const MAX_NESTING = 128;

/**
 * The refusal of a checked message that nests deeper than `MAX_NESTING`: -32602 with the id for a
 * request (the depth can only be in its params), -32600 for a response; undefined when it nests less.
 */
export function nestingFailure(message: WireMessage): ParseFailure | undefined {
  const member = message.kind === "result" || message.kind === "error" ? message.kind : "params";
  const value: unknown = (message as { readonly [key: string]: unknown })[member];
  if (!nestsDeeper(value, MAX_NESTING - 1)) return undefined;
  return parseFailure(
    member === "params" ? -32602 : -32600,
    { pointer: `/${member}`, expected: `at most ${MAX_NESTING} levels of nesting`, got: "more" },
    message.kind === "request" ? message.id : undefined,
  );
}

/**
 * Whether `value` has objects or arrays more than `levels` deep. It recurses at most `levels + 1`
 * calls deep, whatever the value's depth, and allocates nothing (it runs on most messages).
 */
function nestsDeeper(value: unknown, levels: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (levels <= 0) return true;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) if (nestsDeeper(item, levels - 1)) return true;
    return false;
  }
  for (const key in value) if (nestsDeeper((value as JsonObject)[key], levels - 1)) return true;
  return false;
}

const MEMBERS = ["jsonrpc", "id", "method", "params", "result", "error"] as const;

/** Only JSON-RPC's members, so the `kind` that `parse` adds never reaches the wire. */
export function wire(message: object): JsonObject {
  const source = message as JsonObject;
  const out: JsonObject = {};
  for (const key of MEMBERS)
    if (own(source, key) && source[key] !== undefined) out[key] = source[key];
  return out;
}

/** Message → JSON text; the inverse of `parse`. Throws a RangeError only for values nested too deep for JSON.stringify. */
export function encodeMessage(message: object): string {
  return JSON.stringify(wire(message));
}

/** What a release's `validateMessage` answers, as `parseMessage` needs it. */
export type MessageCheck =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly code: -32600 | -32601 | -32602;
      readonly errors: readonly ValidationIssue[];
    };

/**
 * `parse` for every release: the envelope checker, then, when given, the release's `validate`
 * (method and params). The first issue becomes the message of the refusal.
 */
export function parseMessage(
  text: unknown,
  validate?: (message: WireMessage) => MessageCheck,
): ParseOutcome<WireMessage> {
  const outcome = parseText(text);
  if (!outcome.ok || validate === undefined) return outcome;
  const checked = validate(outcome.message);
  if (checked.ok) return outcome;
  const message = outcome.message;
  return parseFailure(
    checked.code,
    checked.errors[0],
    message.kind === "request" ? message.id : undefined,
  );
}
