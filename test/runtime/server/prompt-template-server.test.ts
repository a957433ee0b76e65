// runtime/server/prompt-template-server.ts from outside: a snapshot's prompts and resource templates served as a
// generated servers/<name>.ts serves them, handler by handler.
import { describe, expect, it } from "vitest";
import { RpcError } from "../../../generator/runtime/core/rpc-error.ts";
import {
  promptServer,
  templateServer,
  type PromptsSpec,
  type TemplatesSpec,
} from "../../../generator/runtime/server/prompt-template-server.ts";

const ctx = { id: 1 };
const CACHE = { ttl: "ttlMs", scope: "cacheScope" };

describe("promptServer", () => {
  const listed = [
    { name: "greet", arguments: [{ name: "name", required: true }, { name: "tone" }] },
    { name: "plain" },
  ];
  const list = () => listed.map((p) => structuredClone(p));
  const SPEC: PromptsSpec = {
    prompts: { greet: { required: ["name"] }, plain: { required: [] } },
    cache: null,
  };
  const calls: unknown[][] = [];
  const handlers = {
    greet: (args: never, c: unknown) => (
      calls.push([args, c]),
      { messages: [{ role: "user", content: { type: "text", text: `hi ${(args as { name: string }).name}` } }] }
    ),
    plain: () => ({ messages: [] }),
  };

  it("routes prompts/get by name to the handler with the arguments and the request's context", async () => {
    calls.length = 0;
    const server = promptServer(SPEC, list, handlers);
    await expect(
      server["prompts/get"]({ name: "greet", arguments: { name: "Ada", tone: "warm" } }, ctx),
    ).resolves.toEqual({
      messages: [{ role: "user", content: { type: "text", text: "hi Ada" } }],
    });
    expect(calls).toEqual([[{ name: "Ada", tone: "warm" }, ctx]]);
    await expect(server["prompts/get"]({ name: "plain" }, ctx)).resolves.toEqual({ messages: [] });
  });

  it.each([
    { name: "a prompt the server does not have", params: { name: "nope" } },
    { name: "a name from Object.prototype", params: { name: "toString" } },
    { name: "a name that is no string", params: { name: 5 } },
  ])("$name is -32602 Unknown prompt", async ({ params }) => {
    const server = promptServer(SPEC, list, handlers);
    const error = await server["prompts/get"](params, ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining("Unknown prompt") });
  });

  it("a prompt in the snapshot without a handler is -32602 Unknown prompt too", async () => {
    const server = promptServer(SPEC, list, { plain: handlers.plain });
    await expect(server["prompts/get"]({ name: "greet", arguments: { name: "Ada" } }, ctx)).rejects.toMatchObject({
      code: -32602,
      message: 'Unknown prompt: "greet"',
    });
  });

  it.each([
    { name: "a required argument missing", args: { tone: "warm" } },
    { name: "no arguments at all", args: undefined },
  ])("$name is -32602 naming the prompt and every missing argument, before the handler runs", async ({ args }) => {
    let ran = false;
    const twoRequired: PromptsSpec = { ...SPEC, prompts: { greet: { required: ["name", "place"] } } };
    const server = promptServer(twoRequired, list, { greet: () => ((ran = true), { messages: [] }) });
    const error = await server["prompts/get"]({ name: "greet", ...(args && { arguments: args }) }, ctx).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: -32602,
      message: "Missing required arguments for prompt greet: name, place",
      data: { missing: ["name", "place"] },
    });
    expect(ran).toBe(false);
  });

  it.each([
    {
      name: "an argument that is no string",
      args: { name: 7 },
      message: "Invalid arguments for prompt greet: name must be strings",
    },
    {
      name: "arguments that are no object",
      args: ["Ada"],
      message: expect.stringContaining("expected an object of strings"),
    },
  ])("$name is -32602, never a throw from inside", async ({ args, message }) => {
    const server = promptServer(SPEC, list, handlers);
    const error = await server["prompts/get"]({ name: "greet", arguments: args }, ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32602, message });
  });

  it("prompts/list answers with the list given, and a stateless release's cache members", () => {
    expect(promptServer(SPEC, list, handlers)["prompts/list"](undefined, ctx)).toEqual({ prompts: listed });
    const cached = promptServer({ ...SPEC, cache: CACHE }, list, handlers, { listTtlMs: 1000 });
    expect(cached["prompts/list"](undefined, ctx)).toEqual({ prompts: listed, ttlMs: 1000, cacheScope: "public" });
  });
});

describe("templateServer", () => {
  const listed = [
    { name: "file", uriTemplate: "file:///{+path}" },
    { name: "search", uriTemplate: "demo://search{?q,lang}" },
    { name: "user", uriTemplate: "demo://users/{id}" },
  ];
  const list = () => listed.map((t) => ({ ...t }));
  const SPEC: TemplatesSpec = {
    templates: Object.fromEntries(listed.map((t) => [t.name, t.uriTemplate])),
    notFound: -32602,
    cache: null,
  };
  const seen: unknown[][] = [];
  const read = (name: string) => (uri: string, variables: never, c: unknown) => (
    seen.push([name, uri, variables, c]),
    { contents: [{ uri, text: name }] }
  );
  const handlers = { file: read("file"), search: read("search"), user: read("user") };

  it.each([
    ["demo://users/42", "user", { id: "42" }],
    ["demo://users/a%20b", "user", { id: "a b" }],
    ["file:///a/b.txt", "file", { path: "a/b.txt" }],
    ["demo://search?lang=en&q=cats", "search", { q: "cats", lang: "en" }],
    ["demo://search", "search", {}],
  ])("resources/read of %s goes to %s's handler with the URI and the variables read back", async (uri, name, vars) => {
    seen.length = 0;
    await expect(templateServer(SPEC, list, handlers)["resources/read"]({ uri }, ctx)).resolves.toEqual({
      contents: [{ uri, text: name }],
    });
    expect(seen).toEqual([[name, uri, vars, ctx]]);
  });

  it.each(["demo://users/1/2", "demo://other", "https://example.com/"])(
    "a URI no template covers (%s) is the release's resource-not-found error, the URI as data",
    async (uri) => {
      for (const notFound of [-32602, -32002]) {
        const server = templateServer({ ...SPEC, notFound }, list, handlers);
        const error = await server["resources/read"]({ uri }, ctx).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RpcError);
        expect(error).toMatchObject({ code: notFound, message: "Resource not found", data: { uri } });
      }
    },
  );

  it("a template without a handler covers nothing", async () => {
    const server = templateServer(SPEC, list, { file: handlers.file });
    await expect(server["resources/read"]({ uri: "demo://users/1" }, ctx)).rejects.toMatchObject({
      message: "Resource not found",
    });
  });

  it("a uri that is no string is -32602, never a throw from inside", async () => {
    const server = templateServer(SPEC, list, handlers);
    const error = await server["resources/read"]({ uri: 5 }, ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32602, message: "Invalid uri: expected a string, got 5" });
  });

  it("the first template in the file's order that covers the URI answers it", async () => {
    const both: TemplatesSpec = { ...SPEC, templates: { any: "demo://{+rest}", user: "demo://users/{id}" } };
    const server = templateServer(both, list, { any: read("any"), user: read("user") });
    await expect(server["resources/read"]({ uri: "demo://users/1" }, ctx)).resolves.toEqual({
      contents: [{ uri: "demo://users/1", text: "any" }],
    });
  });

  it("a template the matcher cannot read back is refused when the table is made, not on a request", () => {
    const level4: TemplatesSpec = { ...SPEC, templates: { tree: "repo://{owner}/contents{/path*}" } };
    expect(() => templateServer(level4, list, { tree: read("tree") })).toThrow(SyntaxError);
  });

  it("a stateless release's read is private and its list public by default, the handler's own cache members kept", async () => {
    const cached = templateServer({ ...SPEC, cache: CACHE }, list, {
      ...handlers,
      user: () => ({ contents: [], ttlMs: 5 }),
    });
    await expect(cached["resources/read"]({ uri: "file:///x" }, ctx)).resolves.toEqual({
      contents: [{ uri: "file:///x", text: "file" }],
      ttlMs: 300_000,
      cacheScope: "private",
    });
    await expect(cached["resources/read"]({ uri: "demo://users/1" }, ctx)).resolves.toEqual({
      contents: [],
      ttlMs: 5,
      cacheScope: "private",
    });
    expect(cached["resources/templates/list"](undefined, ctx)).toEqual({
      resourceTemplates: listed,
      ttlMs: 300_000,
      cacheScope: "public",
    });
    expect(templateServer(SPEC, list, handlers)["resources/templates/list"](undefined, ctx)).toEqual({
      resourceTemplates: listed,
    });
  });
});
