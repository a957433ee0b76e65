// A server played by hand for the client transport tests: a fake `fetch` (a function from request to
// `Response`, no sockets) that records every request, and the replies such a server gives.
import { v2025_11_25, v2026_07_28, type HttpTransportOptions } from "../../generated/index.ts";

export const CLIENT_INFO = { name: "test-client", version: "1.0.0" };
export const URL_ = "http://127.0.0.1:1/mcp";

export type Fetch = NonNullable<HttpTransportOptions["fetch"]>;

export interface Seen {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: { method?: string; id?: number | string; params?: Record<string, unknown> } | undefined;
  readonly signal: AbortSignal;
}

/** A fake server: `answer` maps each request to a Response; every request is recorded. */
export function fakeFetch(answer: (seen: Seen, index: number) => Response | Promise<Response>): {
  fetch: Fetch;
  seen: Seen[];
} {
  const seen: Seen[] = [];
  const fetch: Fetch = async (url, init) => {
    const entry: Seen = {
      url,
      method: init.method,
      headers: init.headers,
      body: init.body === undefined ? undefined : JSON.parse(init.body),
      signal: init.signal,
    };
    seen.push(entry);
    return answer(entry, seen.length - 1);
  };
  return { fetch, seen };
}

export const json = (value: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json", ...headers } });

export const sse = (body: string | Uint8Array[] | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Response(
    typeof body === "string" || body instanceof ReadableStream
      ? body
      : new ReadableStream({ start: (c) => (body.forEach((b) => c.enqueue(b)), c.close()) }),
    {
      status: 200,
      headers: { "content-type": "text/event-stream", ...headers },
    },
  );

export const result = (id: unknown, value: object) => ({ jsonrpc: "2.0", id, result: value });

export const INITIALIZED = (version: string) => ({
  protocolVersion: version,
  capabilities: { tools: {} },
  serverInfo: { name: "s", version: "1" },
});

export const RELEASES = () => [v2026_07_28.clientRelease(), v2025_11_25.clientRelease()] as const;

/** One tools/call on a session of either release, narrowed as a caller would. */
export function callTool(
  session: v2026_07_28.Session | v2025_11_25.Session,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<unknown> {
  const params = { name: "t", arguments: {} };
  return session.version === "2026-07-28"
    ? session.request("tools/call", params, options)
    : session.request("tools/call", params, options);
}
