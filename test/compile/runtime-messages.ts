// The message types of runtime/core/messages.ts, instantiated as a release's envelope.ts does (test/runtime/core/messages.test.ts):
// each @ts-expect-error row must stay a compile error, everything else must compile.
import type {
  ErrorEnvelopeOf,
  ParamsField,
  ResultEnvelope,
  UnknownMethodMessage,
  ValidatedOf,
} from "../../generator/runtime/core/messages.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

// params: absent where the method has none, optional where the schema says so, else required.
export const none: Equal<ParamsField<undefined>, unknown> = true;
export const optional: Equal<ParamsField<{ n: number } | undefined>, { params?: { n: number } }> = true;
export const required: Equal<ParamsField<{ n: number }>, { params: { n: number } }> = true;
export const optionalLeftOut: ParamsField<{ n: number } | undefined> = {};
// @ts-expect-error required params left out
export const requiredLeftOut: ParamsField<{ n: number }> = {};
// @ts-expect-error params of the wrong type
export const wrongParams: ParamsField<{ n: number }> = { params: { n: "1" } };

// Results: any id but null.
export const result: ResultEnvelope = { jsonrpc: "2.0", id: "a", result: {} };
export const typedResult: ResultEnvelope<{ tools: string[] }> = { jsonrpc: "2.0", id: 1, result: { tools: [] } };
// @ts-expect-error a result's id is never null
export const nullIdResult: ResultEnvelope = { jsonrpc: "2.0", id: null, result: {} };
// @ts-expect-error the result's own type
export const wrongResult: ResultEnvelope<{ tools: string[] }> = { jsonrpc: "2.0", id: 1, result: { tools: [1] } };

// Errors: id null when it could not be read; left out only where the release's schema allows it.
const body = { code: -32600, message: "Invalid Request" };
export const nullId: ErrorEnvelopeOf<false> = { jsonrpc: "2.0", id: null, error: body };
export const noIdWhereOptional: ErrorEnvelopeOf<true> = { jsonrpc: "2.0", error: body };
// @ts-expect-error id left out where the schema requires it
export const noId: ErrorEnvelopeOf<false> = { jsonrpc: "2.0", error: body };
// @ts-expect-error an error needs a message
export const noMessage: ErrorEnvelopeOf<true> = { jsonrpc: "2.0", id: 1, error: { code: 1 } };

// What parse returns, narrowed by kind.
type Request = { jsonrpc: "2.0"; id: number; method: "ping"; params?: object };
type Notification = { jsonrpc: "2.0"; method: "notifications/initialized" };
type Message = ValidatedOf<Request, Notification, ErrorEnvelopeOf<false>>;
export function methodOf(message: Message): string | undefined {
  switch (message.kind) {
    case "request": {
      const method: "ping" = message.method;
      return method;
    }
    case "notification": {
      const method: "notifications/initialized" = message.method;
      return method;
    }
    case "result":
      return typeof message.result;
    case "error":
      return message.error.message;
  }
}
export function idOf(message: Message): unknown {
  // @ts-expect-error only requests and responses have an id
  return message.id;
}

// A method the release does not define: any name, with the request's id.
export const unknownRequest: UnknownMethodMessage = { kind: "request", jsonrpc: "2.0", id: 1, method: "x/y" };
export const unknownNotification: UnknownMethodMessage = { kind: "notification", jsonrpc: "2.0", method: "x/y" };
// @ts-expect-error a request without its id
export const unknownWithoutId: UnknownMethodMessage = { kind: "request", jsonrpc: "2.0", method: "x/y" };
