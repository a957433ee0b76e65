// The handler types of runtime/core/handlers.ts over a small made-up table, as a release's dispatch.ts instantiates them
// (test/runtime/core/handlers.test.ts): each @ts-expect-error row must stay a compile error, everything else must compile.
import type {
  Answer,
  CapabilityCheck,
  DefaultedResult,
  HandlerContext,
  NotificationHandlers,
  Notify,
  ProgressParams,
  ReadonlyAnswer,
} from "../../generator/runtime/core/handlers.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

interface Sends {
  "notifications/message": { params: { level: string; data?: unknown } };
  "notifications/progress": { params: { progressToken: string | number; progress: number; _meta?: object } };
  // Optional params, as the releases' tables write them.
  "notifications/changed": { params: { _meta?: object } | undefined };
}

declare const notify: Notify<Sends>;
notify("notifications/message", { level: "info" });
notify("notifications/changed");
notify("notifications/changed", {});
// @ts-expect-error required params left out
notify("notifications/message");
// @ts-expect-error a notification this side does not send
notify("notifications/unknown", {});
// @ts-expect-error params of another notification
notify("notifications/message", { progress: 1 });

// ctx.progress takes the progress params without the token (the dispatcher adds it) and without _meta.
export const progress: Equal<
  ProgressParams<Sends, "notifications/progress", "progressToken">,
  { progress: number }
> = true;
export const noProgress: Equal<ProgressParams<Sends, "notifications/none", "progressToken">, never> = true;

// _meta is there where the params type requires it (the dispatcher refuses the request before), else optional.
type Ctx<P> = HandlerContext<"m", P, Sends, { progress: number }, { user: string }>;
export const requiredMeta: Equal<Ctx<{ _meta: { k: 1 } }>["_meta"], { k: 1 }> = true;
export const optionalMeta: Equal<Ctx<{ _meta?: { k: 1 } } | undefined>["_meta"], { k: 1 } | undefined> = true;
export function useContext(ctx: Ctx<undefined>): string {
  ctx.notify("notifications/message", { level: "debug" });
  ctx.progress?.({ progress: 0.5 });
  // @ts-expect-error the token is the dispatcher's to add
  ctx.progress?.({ progress: 0.5, progressToken: 1 });
  const method: "m" = ctx.method;
  return method + ctx.context.user + String(ctx.signal.aborted);
}

declare const check: CapabilityCheck<{ sampling?: object; roots?: { listChanged?: boolean } }>;
check.requireClientCapability("sampling");
check.requireClientCapability({ roots: { listChanged: true } });
// @ts-expect-error a capability the table does not know
check.requireClientCapability("telepathy");

// A result whose key may be left out where the default is one of its values.
type Result = { resultType: "complete" | "input_required"; value: number };
export const defaulted: DefaultedResult<Result, "resultType", "complete"> = { value: 1 };
export const given: DefaultedResult<Result, "resultType", "complete"> = { value: 1, resultType: "input_required" };
// @ts-expect-error the default is no value of the key: it stays required
export const notDefaulted: DefaultedResult<Result, "resultType", "other"> = { value: 1 };
// @ts-expect-error the rest of the result is still required
export const missingValue: DefaultedResult<Result, "resultType", "complete"> = {};
export const noKey: Equal<DefaultedResult<Result, never, never>, Result> = true;

// Readonly data fits what a handler answers, in a promise or not.
const items = ["a", "b"] as const;
export const readonlyAnswer: ReadonlyAnswer<{ items: string[] }> = { items };
export const defaultedAnswer: ReadonlyAnswer<Result, "resultType", "complete"> = { value: 2 };
export const later: Answer<ReadonlyAnswer<{ items: string[] }>> = Promise.resolve({ items });
// @ts-expect-error a readonly answer is still typed
export const wrongAnswer: ReadonlyAnswer<{ items: string[] }> = { items: [1] };

// Notification handlers: each optional, typed by the table, no other key.
interface Received {
  "notifications/initialized": { params: { _meta?: { k?: string } } | undefined };
  "notifications/cancelled": { params: { requestId: string | number; reason?: string } };
}
export const handlers: NotificationHandlers<Received, { user: string }> = {
  "notifications/cancelled": (params, ctx) => {
    const id: string | number = params.requestId;
    const method: "notifications/cancelled" = ctx.method;
    void [id, method, ctx.context.user];
  },
};
export const none: NotificationHandlers<Received, null> = {};
export const wrongHandler: NotificationHandlers<Received, null> = {
  // @ts-expect-error the params are the table's
  "notifications/cancelled": (params: { requestId: boolean }) => void params,
};
export const unknownHandler: NotificationHandlers<Received, null> = {
  // @ts-expect-error a notification the other side does not send
  "notifications/unknown": () => undefined,
};
