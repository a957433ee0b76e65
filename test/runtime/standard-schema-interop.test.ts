import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { initTRPC, TRPCError } from "@trpc/server";
import { afterAll, describe, expect, expectTypeOf, it } from "vitest";
import { clientRelease, connect, httpTransport } from "../../generated/2026-07-28/index.js";
import type { CallToolRequestParams, Tool } from "../../generated/2026-07-28/types.js";
import { standardSchema } from "../../generated/2026-07-28/validate.js";
import type { JsonValue } from "../../generator/load/schema-node.ts";
import { render } from "../../generator/output/generate-output.ts";
import { PACKAGE_ROOT } from "../../generator/project/project.ts";
import type { StandardSchema } from "../../generator/runtime/validation/standard-schema.ts";
import { readSnapshot } from "../../generator/tools/snapshot.ts";
import { toolSet } from "../../generator/tools/tool-set.ts";
import { officialSchema } from "../support/official-schema.ts";
import { realModel } from "../support/real-models.ts";
import { mutate, rng, sample } from "../support/schema-values.ts";
import { formatDiagnostics, STRICT_OPTIONS, typecheck } from "../support/typecheck.ts";
import ts from "typescript";

/**
 * The generated validators in other libraries' hands, through the Standard Schema interface alone: a server module's
 * tool validators registered with the official SDK v2's `registerTool`, and a release's protocol validators as tRPC
 * procedure inputs.
 */
const CORPUS = join(PACKAGE_ROOT, "test", "fixtures", "tools", "corpus.json");
// Inside the checkout, so the typed use below resolves the SDK from its node_modules.
mkdirSync(join(PACKAGE_ROOT, "test", ".tmp"), { recursive: true });
const dir = mkdtempSync(join(PACKAGE_ROOT, "test", ".tmp", "standard-schema-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

for (const file of await render(["2026-07-28", "2025-11-25"].map(realModel), { typeCheckOutput: true }, undefined, [
  toolSet(CORPUS, readSnapshot(CORPUS)),
])) {
  mkdirSync(join(dir, "gen", file.path, ".."), { recursive: true });
  writeFileSync(join(dir, "gen", file.path), file.content);
}
writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');

interface CorpusModule {
  argumentsSchema(name: string): StandardSchema<{ from: { x: number; y: number } }>;
  structuredSchema(name: string): StandardSchema<{ distance: number }>;
  callTool(session: object, name: string, args: object): Promise<{ structuredContent?: unknown }>;
}
const corpus = (await import(join(dir, "gen", "servers", "corpus.ts"))) as CorpusModule;

/** An SDK v2 server with one tool registered from the generated module, reached in-process by the shipped client. */
async function sdkSession(handler: (args: { from: { x: number; y: number } }) => { distance: unknown }) {
  const calls: unknown[] = [];
  const mcp = createMcpHandler(() => {
    const server = new McpServer({ name: "sdk-v2", version: "2.0.0" });
    server.registerTool(
      "defs-and-refs",
      {
        description: "a distance",
        inputSchema: corpus.argumentsSchema("defs-and-refs"),
        outputSchema: corpus.structuredSchema("defs-and-refs"),
      },
      (args) => {
        calls.push(args);
        return { content: [], structuredContent: handler(args) };
      },
    );
    server.registerTool("draft07-definitions", { inputSchema: corpus.argumentsSchema("draft07-definitions") }, () => ({
      content: [],
    }));
    return server;
  });
  const session = await connect(
    httpTransport("http://sdk.test/mcp", {
      fetch: (url, init) => mcp.fetch(new Request(url, init as RequestInit)),
    }),
    { releases: [clientRelease()], clientInfo: { name: "test", version: "1" } },
  );
  return { session, calls, close: () => session.close().then(() => mcp.close()) };
}

describe("a server module's tool validators in the official SDK v2's registerTool", () => {
  it("are listed with the JSON Schema they check, and serve a valid call: the handler gets the arguments, the result checked", async () => {
    const { session, calls, close } = await sdkSession((args) => ({ distance: args.from.x }));
    try {
      const listed = (await session.request("tools/list", {})) as { tools: Tool[] };
      const target = { target: "draft-2020-12" } as const;
      expect(listed.tools).toMatchObject([
        {
          name: "defs-and-refs",
          inputSchema: corpus.argumentsSchema("defs-and-refs")["~standard"].jsonSchema.input(target),
          outputSchema: corpus.structuredSchema("defs-and-refs")["~standard"].jsonSchema.output(target),
        },
        {
          name: "draft07-definitions",
          inputSchema: corpus.argumentsSchema("draft07-definitions")["~standard"].jsonSchema.input(target),
        },
      ]);
      // A 2020-12 tool is listed as its server published it, descriptions and all; a draft-07 one as 2020-12 rebuilt.
      const published = readSnapshot(CORPUS).tools.find((t) => t.name === "defs-and-refs")!;
      expect(listed.tools[0]!.inputSchema).toEqual(published.inputSchema);
      expect(listed.tools[0]!.inputSchema).toMatchObject({ properties: { to: { description: "where it ends" } } });
      expect(listed.tools[1]!.inputSchema).toMatchObject({
        $schema: "https://json-schema.org/draft/2020-12/schema",
        properties: { tags: { items: { $ref: "#/$defs/Draft07Definitions_Tag" } } },
        $defs: { Draft07Definitions_Tag: { type: "string", minLength: 1, maxLength: 8 } },
      });
      const result = await corpus.callTool(session, "defs-and-refs", { from: { x: 3, y: 4 } });
      expect(result.structuredContent).toEqual({ distance: 3 });
      expect(calls).toEqual([{ from: { x: 3, y: 4 } }]);
    } finally {
      await close();
    }
  });

  it("refuse invalid arguments before the handler runs, naming the path; a handler's bad structured result is refused too", async () => {
    const { session, calls, close } = await sdkSession((args) => ({ distance: args.from.x > 0 ? 1 : "far" }));
    try {
      // SDK v2 answers a refused call as an error result (isError) carrying its issues' paths and messages.
      const refusal = async (args: object) => {
        const result = (await session.request("tools/call", { name: "defs-and-refs", arguments: args as never })) as {
          isError?: boolean;
          content: { text: string }[];
        };
        expect(result.isError).toBe(true);
        return result.content[0]!.text;
      };
      expect(await refusal({ from: { x: "1", y: 2 } })).toBe(
        'Input validation error: Invalid arguments for tool defs-and-refs: from.x: expected number, got "1"',
      );
      expect(await refusal({})).toContain("from: expected DefsAndRefs_Point, got missing");
      expect(calls).toEqual([]);
      expect(await refusal({ from: { x: -1, y: 2 } })).toContain('distance: expected number, got "far"');
      const tags = await session.request("tools/call", { name: "draft07-definitions", arguments: { tags: [] } });
      expect(tags).toMatchObject({
        isError: true,
        content: [{ text: expect.stringContaining("tags: expected at least 1 item") }],
      });
    } finally {
      await close();
    }
  });

  it("type the handler's arguments with the generated types (checked by tsc in the user's place)", () => {
    const use = join(dir, "use.ts");
    writeFileSync(
      use,
      [
        `import { McpServer } from "@modelcontextprotocol/server";`,
        `import { argumentsSchema, structuredSchema } from "./gen/servers/corpus.js";`,
        `const server = new McpServer({ name: "typed", version: "1" });`,
        `server.registerTool(`,
        `  "defs-and-refs",`,
        `  { inputSchema: argumentsSchema("defs-and-refs"), outputSchema: structuredSchema("defs-and-refs") },`,
        `  (args) => {`,
        `    const x: number = args.from.x;`,
        `    // @ts-expect-error no such argument`,
        `    void args.nope;`,
        `    return { content: [], structuredContent: { distance: x } };`,
        `  },`,
        `);`,
        `// @ts-expect-error the tool has no outputSchema`,
        `structuredSchema("draft07-definitions");`,
      ].join("\n"),
    );
    const diagnostics = typecheck([use], {
      ...STRICT_OPTIONS,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
    });
    expect(formatDiagnostics(diagnostics)).toBe("");
  }, 120_000);
});

describe("a release's protocol validators as tRPC procedure inputs", () => {
  const t = initTRPC.create();
  const router = t.router({
    callTool: t.procedure.input(standardSchema("CallToolRequestParams")).query(({ input }) => {
      expectTypeOf(input).toEqualTypeOf<CallToolRequestParams>();
      return input.name;
    }),
    tool: t.procedure.input(standardSchema("Tool")).query(({ input }) => input.name),
  });
  const caller = t.createCallerFactory(router)({});
  const model = realModel("2026-07-28");
  const ajv = officialSchema("2026-07-28");

  it.each(["CallToolRequestParams", "Tool"] as const)(
    "%s: tRPC accepts what Ajv on the release's schema.json accepts, and refuses the rest as BAD_REQUEST",
    async (definition) => {
      const procedure = definition === "Tool" ? caller.tool : caller.callTool;
      const node = model.validated.definitions.get(definition)!;
      let accepted = 0;
      const runs = 400;
      for (let seed = 0; seed < runs; seed++) {
        const rand = rng(seed * 31 + 7);
        const built = sample(model.validated, node, rand);
        const value: JsonValue = seed % 2 === 0 ? built : mutate(built, rand);
        const fits = ajv(definition, value) === null;
        const answer = await procedure(value as never).then(
          (name) => name,
          (err: unknown) => err,
        );
        if (fits) {
          accepted++;
          expect(answer, JSON.stringify(value)).toBe((value as { name: string }).name);
        } else {
          expect(answer, JSON.stringify(value)).toBeInstanceOf(TRPCError);
          expect((answer as TRPCError).code).toBe("BAD_REQUEST");
        }
      }
      expect(accepted).toBeGreaterThan(runs / 5);
      expect(accepted).toBeLessThan(runs - runs / 5);
    },
    60_000,
  );
});
