// Bench consumer (type-check cost): 20 typed requests and a handler table on the generated
// bindings of 2026-07-28. bench/consumers/sdk.ts is the same program on the official SDK. The table
// goes inline to createServerDispatcher, as a real server's does (the SDK's goes through
// setRequestHandler): its parameters are typed by context and its results' `_meta` checked.
import {
  createServerDispatcher,
  request,
  type ClientCapabilities,
  type InputRequiredResult,
  type RequestEnvelope,
  type RequestMethod,
  type ResultOf,
} from "../../generated/2026-07-28/index.js";

declare function send<M extends RequestMethod>(envelope: RequestEnvelope<M>): Promise<ResultOf<M>>;
/** tools/call, prompts/get and resources/read may answer input_required; a client resolves that first. */
declare function finished<R>(result: R | InputRequiredResult): R;

const clientCapabilities: ClientCapabilities = {};
let nextId = 0;
const opts = () => ({ id: ++nextId, clientCapabilities });

export async function requests(): Promise<unknown[]> {
  const tools = await send(request("tools/list", {}, opts()));
  const call = finished(
    await send(request("tools/call", { name: tools.tools[0]?.name ?? "echo", arguments: { text: "hi" } }, opts())),
  );
  const prompts = await send(request("prompts/list", {}, opts()));
  const prompt = finished(
    await send(request("prompts/get", { name: prompts.prompts[0]?.name ?? "p", arguments: { a: "1" } }, opts())),
  );
  const resources = await send(request("resources/list", {}, opts()));
  const read = finished(
    await send(request("resources/read", { uri: resources.resources[0]?.uri ?? "file:///a" }, opts())),
  );
  const templates = await send(request("resources/templates/list", {}, opts()));
  const complete = await send(
    request(
      "completion/complete",
      { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "x" } },
      opts(),
    ),
  );
  const tools2 = await send(request("tools/list", { cursor: tools.nextCursor ?? "" }, opts()));
  const call2 = finished(await send(request("tools/call", { name: "add", arguments: { a: 1, b: 2 } }, opts())));
  const prompts2 = await send(request("prompts/list", { cursor: "c" }, opts()));
  const prompt2 = finished(await send(request("prompts/get", { name: "q" }, opts())));
  const resources2 = await send(request("resources/list", { cursor: "c" }, opts()));
  const read2 = finished(await send(request("resources/read", { uri: "file:///b" }, opts())));
  const templates2 = await send(request("resources/templates/list", { cursor: "c" }, opts()));
  const complete2 = await send(
    request(
      "completion/complete",
      { ref: { type: "ref/resource", uri: "file:///{x}" }, argument: { name: "x", value: "y" } },
      opts(),
    ),
  );
  const call3 = finished(await send(request("tools/call", { name: "now" }, opts())));
  const prompt3 = finished(await send(request("prompts/get", { name: "r", arguments: {} }, opts())));
  const read3 = finished(await send(request("resources/read", { uri: "file:///c" }, opts())));
  const tools3 = await send(request("tools/list", {}, opts()));
  return [
    call.content.length,
    prompt.messages.length,
    read.contents.length,
    templates.resourceTemplates.length,
    complete.completion.values,
    tools2.tools,
    call2.isError,
    prompts2.prompts,
    prompt2.messages,
    resources2.resources,
    read2.contents,
    templates2.nextCursor,
    complete2.completion.total,
    call3.structuredContent,
    prompt3.description,
    read3.contents,
    tools3.tools,
  ];
}

const cache = { ttlMs: 0, cacheScope: "public", resultType: "complete" } as const;

export const dispatcher = createServerDispatcher({
  "tools/list": () => ({ ...cache, tools: [{ name: "echo", inputSchema: { type: "object" } }] }),
  "tools/call": (params) => ({
    resultType: "complete",
    content: [{ type: "text", text: JSON.stringify(params.arguments ?? {}) }],
  }),
  "prompts/list": () => ({ ...cache, prompts: [{ name: "p" }] }),
  "prompts/get": (params) => ({
    resultType: "complete",
    messages: [{ role: "user", content: { type: "text", text: params.name } }],
  }),
  "resources/list": () => ({ ...cache, resources: [{ name: "a", uri: "file:///a" }] }),
  "resources/read": (params) => ({ ...cache, contents: [{ uri: params.uri, text: "" }] }),
  "resources/templates/list": () => ({ ...cache, resourceTemplates: [{ name: "t", uriTemplate: "file:///{x}" }] }),
  "completion/complete": async () => ({ resultType: "complete", completion: { values: ["a"] } }),
});
