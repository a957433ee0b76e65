import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSchema } from "../../generator/load/load-schema.ts";
import { readLock } from "../../generator/load/lock.ts";
import { buildModel } from "../../generator/model/build.ts";
import { loadFacts } from "../../generator/model/facts.ts";
import type { MethodModel, ProtocolModel } from "../../generator/model/protocol-model.ts";
import { traceContextKeys } from "../../generator/model/runtime-data.ts";
import { PACKAGE_FACTS, PACKAGE_LOCK } from "../../generator/project/project.ts";
import { FIXTURES, REAL_SCHEMA_DIR } from "../support/tmp-project.ts";

const facts = loadFacts(PACKAGE_FACTS);
const lock = readLock([PACKAGE_LOCK]);

const models = new Map<string, ProtocolModel>();
function model(version: string): ProtocolModel {
  let m = models.get(version);
  if (!m) {
    const file = join(REAL_SCHEMA_DIR, version, "schema.json");
    m = buildModel(version, loadSchema(file, lock.versions.get(version)!.sha256), facts);
    models.set(version, m);
  }
  return m;
}

function method(m: ProtocolModel, name: string): MethodModel {
  const found = m.methods.find((x) => x.name === name);
  if (!found) throw new Error(`${m.version} has no method ${name}`);
  return found;
}

const count = (m: ProtocolModel, kind: string, direction: string) =>
  m.methods.filter((x) => x.kind === kind && x.directions.includes(direction as never)).length;

// c→s requests / s→c requests (input requests for the modern release) / c→s notifications /
// s→c notifications / distinct methods, definitions, era: from the spec releases themselves.
const EXPECTED = [
  { version: "2024-11-05", counts: [13, 3, 4, 7, 24], definitions: 79, era: "legacy" },
  { version: "2025-03-26", counts: [13, 3, 4, 7, 24], definitions: 83, era: "legacy" },
  { version: "2025-06-18", counts: [13, 4, 4, 7, 25], definitions: 91, era: "legacy" },
  { version: "2025-11-25", counts: [17, 8, 5, 9, 31], definitions: 145, era: "legacy" },
  { version: "2026-07-28", counts: [10, 3, 1, 8, 21], definitions: 155, era: "modern" },
] as const;
const LEGACY = EXPECTED.filter((e) => e.era === "legacy").map((e) => e.version);

describe("the lock", () => {
  it("pins exactly the five releases", () => {
    expect([...lock.versions.keys()].sort()).toEqual(EXPECTED.map((e) => e.version));
  });
});

describe.each(EXPECTED)("model of $version", ({ version, counts, definitions, era }) => {
  it("has the release's method counts per direction, definitions and era", () => {
    const m = model(version);
    const serverToClient =
      era === "modern" ? count(m, "input", "server-to-client") : count(m, "request", "server-to-client");
    expect([
      count(m, "request", "client-to-server"),
      serverToClient,
      count(m, "notification", "client-to-server"),
      count(m, "notification", "server-to-client"),
      m.methods.length,
    ]).toEqual(counts);
    expect(m.definitions.size).toBe(definitions);
    expect(m.era).toBe(era);
    expect(new Set(m.methods.map((x) => x.name)).size).toBe(m.methods.length);
  });

  it("pairs requests with their results", () => {
    const m = model(version);
    const toolsCall = method(m, "tools/call");
    expect(toolsCall.results[0]).toBe("CallToolResult");
    expect(toolsCall.kind).toBe("request");
    expect(toolsCall.directions).toEqual(["client-to-server"]);
    expect(method(m, "tools/list").results).toEqual(["ListToolsResult"]);
    expect(method(m, "prompts/get").results[0]).toBe("GetPromptResult");
    expect(method(m, "resources/read").results[0]).toBe("ReadResourceResult");
    expect(method(m, "completion/complete").results).toEqual(["CompleteResult"]);
    for (const r of m.methods.flatMap((x) => x.results)) expect(m.definitions.has(r), r).toBe(true);
    for (const x of m.methods) expect(x.results.length > 0, x.name).toBe(x.kind !== "notification");
    if (era === "legacy") {
      expect(method(m, "initialize").results).toEqual(["InitializeResult"]);
      expect(method(m, "ping").results).toEqual(["EmptyResult"]);
      expect(method(m, "ping").directions).toEqual(["client-to-server", "server-to-client"]);
      expect(method(m, "resources/subscribe").results).toEqual(["EmptyResult"]);
      expect(method(m, "resources/unsubscribe").results).toEqual(["EmptyResult"]);
      expect(method(m, "logging/setLevel").results).toEqual(["EmptyResult"]);
      expect(method(m, "roots/list")).toMatchObject({
        kind: "request",
        directions: ["server-to-client"],
        results: ["ListRootsResult"],
      });
      expect(method(m, "sampling/createMessage").results[0]).toBe("CreateMessageResult");
      expect(method(m, "notifications/initialized").directions).toEqual(["client-to-server"]);
    }
    expect(method(m, "notifications/cancelled")).toMatchObject({ kind: "notification", results: [] });
  });

  it("classifies the era from the schema's own methods", () => {
    const m = model(version);
    expect(m.eraEvidence.hasDiscover).toBe(era === "modern");
    expect(m.eraEvidence.hasInitialize).toBe(era === "legacy");
  });
});

describe("release-specific pairings", () => {
  it("2026-07-28: tools/call, prompts/get and resources/read may answer input_required", () => {
    const m = model("2026-07-28");
    expect(method(m, "tools/call").results).toEqual(["CallToolResult", "InputRequiredResult"]);
    expect(method(m, "prompts/get").results).toEqual(["GetPromptResult", "InputRequiredResult"]);
    expect(method(m, "resources/read").results).toEqual(["ReadResourceResult", "InputRequiredResult"]);
    expect(method(m, "tools/list").results).toEqual(["ListToolsResult"]);
    expect(method(m, "server/discover").results).toEqual(["DiscoverResult"]);
    expect(m.methods.some((x) => x.name === "initialize" || x.name === "ping")).toBe(false);
  });

  it("cacheable results' members come from CacheableResult, where a release has one", () => {
    expect(model("2026-07-28").cacheMembers).toEqual({ ttl: "ttlMs", scope: "cacheScope" });
    expect(model("2025-11-25").cacheMembers).toBeNull();
  });

  it("2026-07-28: sampling, elicitation and roots are embedded input requests, not wire requests", () => {
    const m = model("2026-07-28");
    for (const [name, result] of [
      ["sampling/createMessage", "CreateMessageResult"],
      ["elicitation/create", "ElicitResult"],
      ["roots/list", "ListRootsResult"],
    ] as const) {
      expect(method(m, name)).toMatchObject({ kind: "input", directions: ["server-to-client"], results: [result] });
    }
    expect(m.methods.filter((x) => x.kind === "request" && x.directions.includes("server-to-client"))).toEqual([]);
    expect(method(m, "sampling/createMessage").deprecated).toBe(true);
    expect(method(m, "notifications/message").deprecated).toBe(true);
    expect(method(m, "tools/call").deprecated).toBe(false);
  });

  it.each(EXPECTED.map((e) => e.version))(
    "%s: the input_required result and its members come from the schema, null where the release has none",
    (version) => {
      const want =
        version === "2026-07-28"
          ? {
              definition: "InputRequiredResult",
              resultType: "input_required",
              requests: "inputRequests",
              responses: "inputResponses",
              state: "requestState",
              methods: ["prompts/get", "resources/read", "tools/call"],
            }
          : null;
      expect(model(version).inputRequired).toEqual(want);
    },
  );

  it("2025-11-25: task-augmentable requests may answer CreateTaskResult", () => {
    const m = model("2025-11-25");
    expect(method(m, "tools/call").results).toEqual(["CallToolResult", "CreateTaskResult"]);
    expect(method(m, "sampling/createMessage").results).toEqual(["CreateMessageResult", "CreateTaskResult"]);
    expect(method(m, "elicitation/create").results).toEqual(["ElicitResult", "CreateTaskResult"]);
    expect(method(m, "tools/list").results).toEqual(["ListToolsResult"]);
    expect(method(m, "tasks/get")).toMatchObject({
      directions: ["client-to-server", "server-to-client"],
      results: ["GetTaskResult"],
    });
  });

  it("2025-06-18 added elicitation/create as a server→client request", () => {
    expect(model("2025-03-26").methods.some((x) => x.name === "elicitation/create")).toBe(false);
    expect(method(model("2025-06-18"), "elicitation/create")).toMatchObject({
      kind: "request",
      directions: ["server-to-client"],
      results: ["ElicitResult"],
    });
  });

  it("older releases leave the JSON-RPC envelope out of message definitions, newer ones spell it out", () => {
    expect(method(model("2025-06-18"), "tools/call").envelopeInSchema).toBe(false);
    expect(method(model("2025-11-25"), "tools/call").envelopeInSchema).toBe(true);
    expect(method(model("2026-07-28"), "tools/call").envelopeInSchema).toBe(true);
  });

  it("names each request's response definition where the schema pairs them (modern only)", () => {
    expect(method(model("2026-07-28"), "tools/call").response).toBe("CallToolResultResponse");
    expect(method(model("2026-07-28"), "subscriptions/listen").response).toBe("SubscriptionsListenResultResponse");
    expect(method(model("2026-07-28"), "notifications/message").response).toBeNull();
    expect(method(model("2025-11-25"), "tools/call").response).toBeNull();
  });

  it("lists the message unions each release defines", () => {
    const names = (v: string) => model(v).messageUnions.map((u) => `${u.name}:${u.role}:${u.direction ?? "both"}`);
    expect(names("2025-11-25")).toEqual([
      "ClientRequest:request:client-to-server",
      "ServerRequest:request:server-to-client",
      "ClientNotification:notification:client-to-server",
      "ServerNotification:notification:server-to-client",
      "ClientResult:result:client-to-server",
      "ServerResult:result:server-to-client",
      "JSONRPCMessage:message:both",
    ]);
    expect(names("2026-07-28")).toContain("InputRequest:input:server-to-client");
    expect(names("2026-07-28")).not.toContain("ServerRequest:request:server-to-client");
  });

  it("lists deprecations with their source, properties and reserved keys included (2026-07-28's TypeScript source)", () => {
    const of = (v: string) => model(v).deprecations.map((d) => `${d.kind} ${d.name}`);
    for (const d of [
      "definition ToolUseContent",
      "property ClientCapabilities.roots",
      "property ServerCapabilities.logging",
      "meta-key io.modelcontextprotocol/logLevel",
      "method sampling/createMessage",
    ]) {
      expect(of("2026-07-28")).toContain(d);
    }
    expect(of("2025-11-25")).toEqual([]);
    const includeContext = model("2026-07-28").deprecations.find(
      (d) => d.name === "CreateMessageRequestParams.includeContext",
    )!;
    expect(includeContext.values).toEqual(["thisServer", "allServers"]);
    expect(includeContext.source).toMatch(/\/schema\/2026-07-28\/schema\.ts$/);
  });

  it("names -32002's replacement, each meta key's definition per scope, and the schema page", () => {
    expect(model("2025-11-25").errorCodes.find((e) => e.code === -32002)!.replacedBy?.code).toBe(-32602);
    const subscription = model("2026-07-28").metaKeys.find((k) => k.key === "io.modelcontextprotocol/subscriptionId")!;
    expect(subscription.definitionIn).toEqual({
      notification: "NotificationMetaObject",
      result: "SubscriptionsListenResultMetaObject",
    });
    expect(model("2026-07-28").schemaPage).toBe("https://modelcontextprotocol.io/specification/2026-07-28/schema");
    expect(model("2024-11-05").schemaPage).toBeNull();
  });

  it.each([
    ["2024-11-05", ["initialize"]],
    ["2025-11-25", ["initialize"]],
    ["2026-07-28", []],
  ])(
    "%s: the requests a cancellation must not name are %j (schema/facts.json, kept where the release has them)",
    (version, notCancellable) => {
      expect(model(version).dispatch.cancel?.notCancellable).toEqual(notCancellable);
    },
  );

  it("names the response envelopes and whether an error may omit its id", () => {
    expect(model("2025-06-18").envelope).toEqual({
      resultResponse: "JSONRPCResponse",
      errorResponse: "JSONRPCError",
      errorIdOptional: false,
      batches: false,
      batchMembers: [],
    });
    expect(model("2025-11-25").envelope).toEqual({
      resultResponse: "JSONRPCResultResponse",
      errorResponse: "JSONRPCErrorResponse",
      errorIdOptional: true,
      batches: false,
      batchMembers: [],
    });
    expect(model("2026-07-28").envelope.errorIdOptional).toBe(true);
  });

  it.each([
    ["2024-11-05", false],
    ["2025-03-26", true],
    ["2025-06-18", false],
    ["2025-11-25", false],
    ["2026-07-28", false],
  ])("%s: batches is %s, read from the message union's array members", (version, batches) => {
    expect(model(version).envelope.batches).toBe(batches);
    // The union's array members as it writes them (inline in 2025-03-26), for the diff to point at.
    expect(model(version).envelope.batchMembers.map((m) => m.pointer)).toEqual(
      batches ? ["/definitions/JSONRPCMessage/anyOf/2", "/definitions/JSONRPCMessage/anyOf/5"] : [],
    );
    // Where batches exist, initialize must never be part of one (the 2025-03-26 lifecycle page, schema/facts.json), and
    // the transports take a batch body (its transports page).
    expect(model(version).dispatch.batch).toEqual(
      batches
        ? {
            notBatchable: ["initialize"],
            transportSource:
              "https://modelcontextprotocol.io/specification/2025-03-26/basic/transports#sending-messages-to-the-server",
          }
        : null,
    );
  });

  it("a batch member given by reference counts too, whatever its name", () => {
    const base = model("2025-06-18").schema;
    const definitions = new Map(base.definitions);
    const message = definitions.get("JSONRPCMessage")!;
    definitions.set("Several", {
      pointer: "/definitions/Several",
      type: ["array"],
      items: { pointer: "/definitions/Several/items", ref: "JSONRPCRequest" },
    });
    definitions.set("JSONRPCMessage", {
      ...message,
      anyOf: [...message.anyOf!, { pointer: "/definitions/JSONRPCMessage/anyOf/4", ref: "Several" }],
    });
    expect(buildModel("2025-06-18", { ...base, definitions }, facts).envelope.batches).toBe(true);
  });
});

describe("open enums (facts.openEnums)", () => {
  it("2026-07-28: ResultType lists its known values, every result's resultType names it, the schema keeps a plain string", () => {
    const m = model("2026-07-28");
    expect(m.definitions.get("ResultType")!.schema.known).toEqual(["complete", "input_required"]);
    const resultType = (name: string) =>
      m.definitions.get(name)!.schema.properties!.find((p) => p.name === "resultType")!.schema;
    expect([
      resultType("Result").ref,
      resultType("CallToolResult").ref,
      resultType("InputRequiredResult").const,
    ]).toEqual(["ResultType", "ResultType", "input_required"]);
    expect(m.schema.definitions.get("ResultType")!.known).toBeUndefined();
    expect(m.dispatch.resultTypeDefault).toEqual({
      property: "resultType",
      value: "complete",
      definition: "ResultType",
    });
  });
});

describe("HTTP header names per release", () => {
  it.each([
    ["2024-11-05", {}],
    ["2025-03-26", { lastEventId: "Last-Event-ID", sessionId: "Mcp-Session-Id" }],
    [
      "2025-06-18",
      { lastEventId: "Last-Event-ID", protocolVersion: "MCP-Protocol-Version", sessionId: "Mcp-Session-Id" },
    ],
    [
      "2025-11-25",
      { lastEventId: "Last-Event-ID", protocolVersion: "MCP-Protocol-Version", sessionId: "Mcp-Session-Id" },
    ],
    ["2026-07-28", { method: "Mcp-Method", name: "Mcp-Name", protocolVersion: "MCP-Protocol-Version" }],
  ])("%s: %j, each with its spec page", (version, want) => {
    const headers = model(version).httpHeaders;
    expect(Object.fromEntries(headers.map((h) => [h.name, h.header]))).toEqual(want);
    expect(headers.every((h) => h.source.startsWith("https://modelcontextprotocol.io/specification/"))).toBe(true);
  });
});

describe("how bad tool arguments are answered (facts.toolArgumentErrors)", () => {
  it.each([
    ["2024-11-05", "invalidParams"],
    ["2025-03-26", "invalidParams"],
    ["2025-06-18", "invalidParams"],
    ["2025-11-25", "toolError"],
    ["2026-07-28", "toolError"],
  ] as const)("%s: %s", (version, answer) => {
    expect(model(version).invalidToolArguments).toBe(answer);
  });
});

describe("resource-server rules per release (facts.resourceServerAuth)", () => {
  const S = "https://modelcontextprotocol.io/specification";
  it.each([
    ["2024-11-05", [false, false, false, []], []],
    ["2025-03-26", [false, false, false, []], []],
    ["2025-06-18", [true, false, false, []], [`${S}/2025-06-18/basic/authorization#authorization-server-location`]],
    [
      "2025-11-25",
      [true, true, true, []],
      [
        `${S}/2025-06-18/basic/authorization#authorization-server-location`,
        `${S}/2025-11-25/basic/authorization#protected-resource-metadata-discovery-requirements`,
        `${S}/2025-11-25/basic/authorization#runtime-insufficient-scope-errors`,
      ],
    ],
    ["2026-07-28", [true, true, false, ["offline_access"]], 3],
  ] as const)(
    "%s: resource_metadata, scope in a 401, granted scopes in a 403, withheld scopes",
    (version, want, sources) => {
      const rules = model(version).resourceServerAuth;
      expect([
        rules.resourceMetadataInChallenge,
        rules.scopeInChallenge,
        rules.grantedScopesInChallenge,
        rules.withheldScopes,
      ]).toEqual(want);
      expect(rules.toolCallMethod).toBe("tools/call");
      if (typeof sources === "number") expect(rules.sources).toHaveLength(sources);
      else expect(rules.sources).toEqual(sources);
    },
  );

  it("refuses a rule it does not know, naming its pointer", () => {
    const dir = mkdtempSync(join(tmpdir(), "facts-"));
    try {
      const raw = JSON.parse(readFileSync(PACKAGE_FACTS, "utf8")) as { resourceServerAuth: { rule: string }[] };
      raw.resourceServerAuth[0]!.rule = "audienceOptional";
      const file = join(dir, "facts.json");
      writeFileSync(file, JSON.stringify(raw));
      expect(() => loadFacts(file)).toThrow("/resourceServerAuth/0/rule");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("type corrections (facts.typeCorrections)", () => {
  it.each(["2025-06-18", "2025-11-25", "2026-07-28"])(
    "%s: ElicitResult.content takes numbers in the types and in what the validators check; the schema keeps integer",
    (version) => {
      const m = model(version);
      const kinds = (definitions: ProtocolModel["schema"]["definitions"]) =>
        JSON.stringify(
          definitions.get("ElicitResult")!.properties!.find((p) => p.name === "content")!.schema.additionalProperties,
        );
      expect(kinds(m.validated.definitions)).toContain('["boolean","number","string"]');
      expect(JSON.stringify(m.definitions.get("ElicitResult")!.schema)).toContain('["boolean","number","string"]');
      expect(kinds(m.schema.definitions)).toContain('"integer"');
    },
  );

  it("a correction whose path does not resolve is an error naming the pointer", () => {
    const file = join(REAL_SCHEMA_DIR, "2025-11-25", "schema.json");
    const wrong = {
      ...facts,
      typeCorrections: [
        {
          versions: "*" as const,
          definition: "ElicitResult",
          path: ["properties", "contents", "additionalProperties"],
          was: ["integer" as const],
          type: ["number" as const],
          source: "test",
        },
      ],
    };
    expect(() => buildModel("2025-11-25", loadSchema(file, lock.versions.get("2025-11-25")!.sha256), wrong)).toThrow(
      "/$defs/ElicitResult/properties/contents/additionalProperties: expected a node for the type correction of ElicitResult (",
    );
  });
});

describe("open objects (facts.openObjects)", () => {
  it.each(EXPECTED.map((e) => e.version))(
    "%s: Tool.inputSchema is open in the types, and outputSchema where the release has it; the schema keeps its own",
    (version) => {
      const m = model(version);
      const open = (definition: ReturnType<typeof model>["schema"]["definitions"]) => (key: string) =>
        definition.get("Tool")!.properties!.find((p) => p.name === key)?.schema.additionalProperties !== undefined;
      const types = new Map([...m.definitions].map(([name, d]) => [name, d.schema]));
      const hasOutput = m.definitions.get("Tool")!.schema.properties!.some((p) => p.name === "outputSchema");
      expect([open(types)("inputSchema"), open(types)("outputSchema")]).toEqual([true, hasOutput]);
      expect(open(m.schema.definitions)("inputSchema")).toBe(version === "2026-07-28");
    },
  );

  it.each(["annotations", "nope"])(
    "Tool.%s in the facts, a reference or no property, leaves the definition as it is",
    (key) => {
      const file = join(REAL_SCHEMA_DIR, "2025-11-25", "schema.json");
      const only = { ...facts, openObjects: [{ versions: "*" as const, properties: [`Tool.${key}`], source: "test" }] };
      const built = buildModel("2025-11-25", loadSchema(file, lock.versions.get("2025-11-25")!.sha256), only);
      const properties = (m: ProtocolModel) =>
        m.definitions
          .get("Tool")!
          .schema.properties!.filter((p) => p.name !== "inputSchema" && p.name !== "outputSchema");
      expect(properties(built)).toEqual(properties(model("2025-11-25")));
    },
  );
});

describe("error codes", () => {
  const codes = (v: string) => new Map(model(v).errorCodes.map((e) => [e.code, e]));

  it.each(EXPECTED.map((e) => e.version))("%s has the JSON-RPC codes, sendable", (v) => {
    const c = codes(v);
    for (const [code, name] of [
      [-32700, "ParseError"],
      [-32600, "InvalidRequest"],
      [-32601, "MethodNotFound"],
      [-32602, "InvalidParams"],
      [-32603, "InternalError"],
    ] as const) {
      expect(c.get(code)).toMatchObject({ name, send: true });
    }
    const sorted = [...model(v).errorCodes].map((e) => e.code);
    expect(sorted).toEqual([...sorted].sort((a, b) => b - a));
  });

  it("-32002 ResourceNotFound is legacy only and accepted, never sent", () => {
    for (const v of LEGACY) expect(codes(v).get(-32002)).toMatchObject({ name: "ResourceNotFound", send: false });
    expect(codes("2026-07-28").has(-32002)).toBe(false);
  });

  it("-32042 URLElicitationRequired exists only in 2025-11-25", () => {
    for (const { version } of EXPECTED) expect(codes(version).has(-32042), version).toBe(version === "2025-11-25");
    expect(codes("2025-11-25").get(-32042)).toMatchObject({ name: "URLElicitationRequired", send: true });
  });

  it("-32020/-32021/-32022 are modern only", () => {
    const modern = codes("2026-07-28");
    expect(modern.get(-32020)?.name).toBe("HeaderMismatch");
    expect(modern.get(-32021)?.name).toBe("MissingRequiredClientCapability");
    expect(modern.get(-32022)?.name).toBe("UnsupportedProtocolVersion");
    for (const v of LEGACY)
      for (const code of [-32020, -32021, -32022]) expect(codes(v).has(code), `${v} ${code}`).toBe(false);
    expect(model("2026-07-28").modernSignalCodes).toEqual([-32020, -32021, -32022]);
  });

  it("the reserved ranges come with every release", () => {
    const ranges = model("2025-06-18").errorRanges;
    expect(ranges).toContainEqual(
      expect.objectContaining({ name: "legacy", from: -32019, to: -32000, allocate: false }),
    );
    expect(ranges).toContainEqual(expect.objectContaining({ name: "mcp", from: -32099, to: -32020, allocate: true }));
  });
});

describe("reserved _meta keys", () => {
  it("2026-07-28 names the modern keys and says where each is required", () => {
    const keys = new Map(model("2026-07-28").metaKeys.map((k) => [k.name, k]));
    expect(keys.get("protocolVersion")).toMatchObject({
      key: "io.modelcontextprotocol/protocolVersion",
      requiredIn: ["request"],
    });
    expect(keys.get("clientCapabilities")).toMatchObject({
      key: "io.modelcontextprotocol/clientCapabilities",
      requiredIn: ["request"],
    });
    expect(keys.get("clientInfo")).toMatchObject({ key: "io.modelcontextprotocol/clientInfo", requiredIn: [] });
    expect(keys.get("serverInfo")?.scopes).toEqual(["result"]);
    expect(keys.get("progressToken")).toMatchObject({ key: "progressToken", scopes: ["request"], requiredIn: [] });
    expect(model("2026-07-28").eraEvidence.requestMetaRequired).toBe(true);
  });

  it("2026-07-28 reserves W3C trace context's keys, unprefixed (facts: no schema definition names them)", () => {
    const keys = new Map(model("2026-07-28").metaKeys.map((k) => [k.name, k]));
    for (const name of ["traceparent", "tracestate", "baggage"])
      expect(keys.get(name)).toMatchObject({ key: name, scopes: ["notification", "request"], requiredIn: [] });
    expect(traceContextKeys(model("2026-07-28"))).toEqual({
      traceparent: "traceparent",
      tracestate: "tracestate",
      baggage: "baggage",
    });
    for (const v of LEGACY) expect(traceContextKeys(model(v))).toBeNull();
  });

  it.each(LEGACY.filter((v) => v !== "2025-11-25"))("%s has only progressToken, optional", (v) => {
    expect(model(v).metaKeys).toEqual([
      expect.objectContaining({ name: "progressToken", key: "progressToken", requiredIn: [] }),
    ]);
  });

  it("2025-11-25 also has its tasks' related-task key (a fact: the schema names it only in a description)", () => {
    expect(model("2025-11-25").metaKeys).toEqual([
      expect.objectContaining({ name: "progressToken", key: "progressToken", requiredIn: [] }),
      expect.objectContaining({
        name: "relatedTask",
        key: "io.modelcontextprotocol/related-task",
        scopes: ["notification", "request", "result"],
        requiredIn: [],
      }),
    ]);
  });

  it.each([
    ["2024-11-05", []],
    ["2025-03-26", []],
    ["2025-06-18", []],
    ["2025-11-25", []],
    ["2026-07-28", ["io.modelcontextprotocol/related-task"]],
  ])("%s keeps the keys only earlier releases reserved as former keys: %j", (v, former) => {
    expect(model(v).formerMetaKeys).toEqual(former);
  });

  it.each([
    ["2024-11-05", null],
    ["2025-03-26", null],
    ["2025-06-18", "penultimate"],
    ["2025-11-25", "second"],
    ["2026-07-28", "second"],
  ])("%s reserves _meta prefixes by the %s label", (v, position) => {
    const rule = model(v).reservedMetaPrefix;
    expect(rule && { labels: rule.labels, position: rule.position }).toEqual(
      position === null ? null : { labels: ["modelcontextprotocol", "mcp"], position },
    );
  });
});

describe("era detection on a release nobody has heard of", () => {
  const future = (fixture: string) => buildModel("2031-01-01", loadSchema(join(FIXTURES, fixture)), facts);
  const synthetic = (text: string) => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-bindgen-model-"));
    try {
      writeFileSync(join(dir, "schema.json"), text);
      return buildModel("2031-01-01", loadSchema(join(dir, "schema.json")), facts);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it("server/discover and no initialize ⇒ modern, with modern-only facts applied", () => {
    const m = future("modern-minimal.json");
    expect(m.era).toBe("modern");
    expect(m.errorCodes.map((e) => e.code)).toContain(-32022);
    expect(m.errorCodes.map((e) => e.code)).not.toContain(-32002);
    expect(m.methods.find((x) => x.name === "elicitation/create")).toMatchObject({
      kind: "input",
      results: ["ElicitResult"],
    });
    expect(m.methods.find((x) => x.name === "tools/call")?.results).toEqual(["CallToolResult", "InputRequiredResult"]);
    expect(m.metaKeys.find((k) => k.name === "protocolVersion")?.requiredIn).toEqual(["request"]);
  });

  it("the input_required members are read by shape, not by name", () => {
    const renamed = readFileSync(join(FIXTURES, "modern-minimal.json"), "utf8")
      .replaceAll("InputRequiredResult", "AskResult")
      .replaceAll('"input_required"', '"more_please"')
      .replaceAll("inputRequests", "asks")
      .replaceAll("inputResponses", "answers")
      .replaceAll("requestState", "cursor");
    expect(synthetic(renamed).inputRequired).toEqual({
      definition: "AskResult",
      resultType: "more_please",
      requests: "asks",
      responses: "answers",
      state: "cursor",
      methods: ["tools/call"],
    });
  });

  it("an input_required result whose state the retried params do not declare is refused with its pointer", () => {
    const text = readFileSync(join(FIXTURES, "modern-minimal.json"), "utf8").replace(
      '"requestState": { "type": "string" }\n      },\n      "required": ["_meta", "name"]',
      '"other": { "type": "string" }\n      },\n      "required": ["_meta", "name"]',
    );
    expect(text).not.toBe(readFileSync(join(FIXTURES, "modern-minimal.json"), "utf8"));
    expect(() => synthetic(text)).toThrow(
      /#\/\$defs\/InputRequiredResult: expected one string member the params of tools\/call declare too \(found 0\)/,
    );
  });

  it("initialize present ⇒ legacy, whatever the date", () => {
    const m = future("legacy-minimal.json");
    expect(m.era).toBe("legacy");
    expect(m.errorCodes.find((e) => e.code === -32002)).toMatchObject({ send: false });
    expect(m.methods.map((x) => [x.name, x.results])).toEqual([
      ["initialize", ["InitializeResult"]],
      ["notifications/initialized", []],
      ["notifications/progress", []],
      ["ping", ["EmptyResult"]],
      ["tools/call", ["CallToolResult"]],
    ]);
  });

  it("a real legacy release renamed to a future date stays legacy, and the real modern one stays modern", () => {
    expect(buildModel("2099-12-31", model("2025-11-25").schema, facts).era).toBe("legacy");
    expect(buildModel("2000-01-01", model("2026-07-28").schema, facts).era).toBe("modern");
  });
});

describe("client authorization facts (schema/facts.json clientAuth)", () => {
  it("none before protected resource metadata; each later release its own discovery, registration and scope rules", () => {
    expect(model("2024-11-05").clientAuth).toBeNull();
    expect(model("2025-03-26").clientAuth).toBeNull();
    expect(model("2025-06-18").clientAuth).toMatchObject({
      resourceMetadata: ["challenge"],
      serverMetadata: ["oauth-insert"],
      requireS256: false,
      registration: ["preregistered", "dynamic"],
    });
    expect(model("2025-11-25").clientAuth).toMatchObject({
      resourceMetadata: ["challenge", "path", "root"],
      serverMetadata: ["oauth-insert", "oidc-insert", "oidc-append"],
      requireS256: true,
      registration: ["preregistered", "metadata-document", "dynamic"],
      applicationType: false,
      stepUpUnion: false,
      offlineAccess: false,
    });
    expect(model("2026-07-28").clientAuth).toMatchObject({
      release: "2026-07-28",
      applicationType: true,
      stepUpUnion: true,
      offlineAccess: true,
      source: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/client-registration",
    });
  });

  it("a rule the model does not know fails with its pointer", () => {
    const dir = mkdtempSync(join(tmpdir(), "facts-"));
    try {
      const raw = JSON.parse(readFileSync(PACKAGE_FACTS, "utf8")) as { clientAuth: { rules: { rule: string }[] } };
      raw.clientAuth.rules[0]!.rule = "resourceMetadta";
      writeFileSync(join(dir, "facts.json"), JSON.stringify(raw));
      expect(() => loadFacts(join(dir, "facts.json"))).toThrow(/\/clientAuth\/rules\/0\/rule/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
