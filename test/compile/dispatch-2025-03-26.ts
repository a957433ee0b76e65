// 2025-03-26 has JSON-RPC batches: its dispatchers' `handle` may answer with an array; other releases' never does. Checked by tsc.
import {
  createClientDispatcher,
  createServerDispatcher,
  type BatchDispatcher,
  type DispatchResponse,
} from "../../generated/2025-03-26/index.js";
import {
  createServerDispatcher as createLaterServerDispatcher,
  type Dispatcher,
} from "../../generated/2025-06-18/index.js";

export const server: BatchDispatcher<undefined> = createServerDispatcher({ "tools/list": () => ({ tools: [] }) });
export const client: BatchDispatcher<undefined> = createClientDispatcher({ "roots/list": () => ({ roots: [] }) });

export async function answers(body: unknown): Promise<readonly DispatchResponse[]> {
  const answer = await server.handle(body);
  // @ts-expect-error a batch is answered with an array, so the answer is not always one response
  const one: DispatchResponse | undefined = answer;
  void one;
  return answer === undefined ? [] : Array.isArray(answer) ? answer : [answer];
}

// A release without batches keeps its single-response type.
export const later: Dispatcher<undefined> = createLaterServerDispatcher({ "tools/list": () => ({ tools: [] }) });
export async function single(body: unknown): Promise<DispatchResponse | undefined> {
  return later.handle(body);
}
