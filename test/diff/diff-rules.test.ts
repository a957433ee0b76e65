import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { descriptionFlags } from "../../generator/diff/compare-nodes.ts";
import { diffModels, type Change, type DiffReport } from "../../generator/diff/index.ts";
import { renderMarkdown } from "../../generator/diff/render-markdown.ts";
import { normalise } from "../../generator/load/normalise.ts";
import { buildModel } from "../../generator/model/build.ts";
import { loadFacts } from "../../generator/model/facts.ts";
import type { ProtocolModel } from "../../generator/model/protocol-model.ts";
import { PACKAGE_FACTS } from "../../generator/project/project.ts";

/**
 * One synthetic schema (test/fixtures/diff/base.json: tools/call and tools/list client→server,
 * sampling/createMessage server→client, one notification each way) and one mutation per rule.
 */
type Defs = Record<string, any>;
const BASE = JSON.parse(readFileSync(new URL("../fixtures/diff/base.json", import.meta.url), "utf8")) as {
  definitions: Defs;
};
const facts = loadFacts(PACKAGE_FACTS);
const ref = (name: string) => ({ $ref: `#/definitions/${name}` });

function model(name: string, mutate: (defs: Defs) => void = () => {}): ProtocolModel {
  const doc = structuredClone(BASE);
  mutate(doc.definitions);
  return buildModel(name, normalise(`${name}.json`, doc, "0".repeat(64)), facts);
}
const base = model("base");
const changed = (mutate: (defs: Defs) => void) => diffModels(base, model("changed", mutate));
function only(diff: DiffReport, id: Change["id"], subject: string, path: string): Change {
  const found = diff.changes.filter((c) => c.id === id && c.subject === subject && c.path === path);
  expect(
    found,
    `${id} ${subject} ${path} in ${JSON.stringify(diff.changes.map((c) => [c.id, c.subject, c.path]))}`,
  ).toHaveLength(1);
  return found[0]!;
}
const severity = (c: Change) => [c.severity.client, c.severity.server];
const requestParams = (defs: Defs, def: string) => defs[def].properties.params;

describe("diff severities on synthetic schemas", () => {
  it("reports nothing when nothing changed", () => {
    expect(diffModels(base, model("same")).changes).toEqual([]);
  });

  it("a new required request param breaks clients (and servers when the server sends the request)", () => {
    const toServer = changed((d) => {
      requestParams(d, "CallToolRequest").properties.task = { type: "string" };
      requestParams(d, "CallToolRequest").required.push("task");
    });
    expect(severity(only(toServer, "property-added", "CallToolRequest", "params.task"))).toEqual([
      "breaking",
      "compatible",
    ]);
    const toClient = changed((d) => {
      requestParams(d, "CreateMessageRequest").properties.temperature = { type: "number" };
      requestParams(d, "CreateMessageRequest").required.push("temperature");
    });
    expect(severity(only(toClient, "property-added", "CreateMessageRequest", "params.temperature"))).toEqual([
      "compatible",
      "breaking",
    ]);
  });

  it("a removed required result field breaks clients (servers for a server→client request); a removed optional one breaks nobody", () => {
    const removedRequired = changed((d) => {
      delete d.CallToolResult.properties.content;
      d.CallToolResult.required = [];
    });
    expect(severity(only(removedRequired, "property-removed", "CallToolResult", "content"))).toEqual([
      "breaking",
      "compatible",
    ]);
    // Old readers already handle an optional field's absence (tsc accepts the new type where the old one is read).
    expect(
      severity(
        only(
          changed((d) => delete d.CallToolResult.properties.isError),
          "property-removed",
          "CallToolResult",
          "isError",
        ),
      ),
    ).toEqual(["compatible", "compatible"]);
    const samplingResult = changed((d) => {
      delete d.CreateMessageResult.properties.model;
      d.CreateMessageResult.required = ["content", "role"];
    });
    expect(severity(only(samplingResult, "property-removed", "CreateMessageResult", "model"))).toEqual([
      "compatible",
      "breaking",
    ]);
  });

  it("a new required result field breaks servers; an added optional field breaks nobody", () => {
    const required = changed((d) => {
      d.CallToolResult.properties.structured = { type: "object" };
      d.CallToolResult.required.push("structured");
    });
    expect(severity(only(required, "property-added", "CallToolResult", "structured"))).toEqual([
      "compatible",
      "breaking",
    ]);
    const optional = changed((d) => (d.Tool.properties.title = { type: "string" }));
    expect(severity(only(optional, "property-added", "Tool", "title"))).toEqual(["compatible", "compatible"]);
    expect(optional.changes).toHaveLength(1);
  });

  it("a tighter bound, pattern or format breaks the writer; a looser one breaks the reader", () => {
    const capped = changed((d) => (d.CallToolResult.properties.content.maxItems = 10));
    const cap = only(capped, "constraint-changed", "CallToolResult", "content");
    expect(severity(cap)).toEqual(["compatible", "breaking"]);
    expect([cap.before, cap.after]).toEqual(["maxItems: none", "maxItems: 10"]);
    const pattern = changed((d) => (requestParams(d, "CallToolRequest").properties.name.pattern = "^[a-z]+$"));
    expect(severity(only(pattern, "constraint-changed", "CallToolRequest", "params.name"))).toEqual([
      "breaking",
      "compatible",
    ]);
    const withMinimum = (min: number) => (d: Defs) =>
      (requestParams(d, "CallToolRequest").properties.name.minLength = min);
    const looser = diffModels(model("old", withMinimum(3)), model("new", withMinimum(1)));
    expect(severity(only(looser, "constraint-changed", "CallToolRequest", "params.name"))).toEqual([
      "compatible",
      "breaking",
    ]);
    const mirrored = diffModels(model("new", withMinimum(1)), model("old", withMinimum(3)));
    expect(severity(only(mirrored, "constraint-changed", "CallToolRequest", "params.name"))).toEqual([
      "breaking",
      "compatible",
    ]);
  });

  it("a field becoming required breaks its writer; becoming optional breaks its reader", () => {
    const required = changed((d) => (requestParams(d, "ListToolsRequest").required = ["cursor"]));
    expect(severity(only(required, "property-became-required", "ListToolsRequest", "params.cursor"))).toEqual([
      "breaking",
      "compatible",
    ]);
    const optional = changed((d) => (d.CallToolResult.required = []));
    expect(severity(only(optional, "property-became-optional", "CallToolResult", "content"))).toEqual([
      "breaking",
      "compatible",
    ]);
    const paramsRequired = changed((d) => (d.ListToolsRequest.required = ["method", "params"]));
    expect(severity(only(paramsRequired, "property-became-required", "ListToolsRequest", "params"))).toEqual([
      "breaking",
      "compatible",
    ]);
  });

  it("a wider type breaks readers, a narrower one writers, an unrelated one both (integer→number, enum values)", () => {
    const wider = only(
      changed((d) => (requestParams(d, "CreateMessageRequest").properties.maxTokens.type = "number")),
      "type-changed",
      "CreateMessageRequest",
      "params.maxTokens",
    );
    expect([wider.before, wider.after, ...severity(wider)]).toEqual(["integer", "number", "breaking", "compatible"]);
    const narrower = only(
      changed((d) => (d.CreateMessageResult.properties.role.enum = ["assistant"])),
      "type-changed",
      "CreateMessageResult",
      "role",
    );
    expect(severity(narrower)).toEqual(["breaking", "compatible"]);
    const other = only(
      changed((d) => (d.Tool.properties.name = { type: "boolean" })),
      "type-changed",
      "Tool",
      "name",
    );
    expect(severity(other)).toEqual(["breaking", "breaking"]);
    const constant = only(
      changed((d) => (d.TextContent.properties.type.const = "plain")),
      "type-changed",
      "TextContent",
      "type",
    );
    expect([constant.before, constant.after]).toEqual(['"text"', '"plain"']);
  });

  it("a new union member breaks readers; a removed one breaks writers", () => {
    const added = changed((d) => {
      d.ImageContent = { type: "object", properties: { data: { type: "string" } }, required: ["data"] };
      d.CallToolResult.properties.content.items = { anyOf: [ref("TextContent"), ref("ImageContent")] };
    });
    const member = only(added, "union-member-added", "CallToolResult", "content[]");
    expect([member.after, ...severity(member)]).toEqual(["ImageContent", "breaking", "compatible"]);
    const removed = diffModels(
      model("wide", (d) => {
        d.ImageContent = { type: "object", properties: { data: { type: "string" } }, required: ["data"] };
        d.CallToolResult.properties.content.items = { anyOf: [ref("TextContent"), ref("ImageContent")] };
      }),
      base,
    );
    expect(severity(only(removed, "union-member-removed", "CallToolResult", "content[]"))).toEqual([
      "compatible",
      "breaking",
    ]);
  });

  it("a removed request breaks its caller, a removed notification its receiver; added methods break nobody", () => {
    const noList = changed((d) => {
      d.ClientRequest.anyOf = [ref("CallToolRequest")];
      delete d.ListToolsRequest;
      delete d.ListToolsResult;
    });
    expect(severity(only(noList, "method-removed", "tools/list", ""))).toEqual(["breaking", "compatible"]);
    const noSampling = changed((d) => (d.ServerRequest.anyOf = [ref("ListToolsRequest")]));
    expect(severity(only(noSampling, "method-direction-changed", "tools/list", ""))).toEqual([
      "compatible",
      "compatible",
    ]);
    expect(severity(only(noSampling, "method-removed", "sampling/createMessage", ""))).toEqual([
      "compatible",
      "breaking",
    ]);
    const noInitialized = changed((d) => {
      d.ClientNotification.anyOf = [ref("ToolListChangedNotification")];
      delete d.InitializedNotification;
    });
    expect(severity(only(noInitialized, "method-removed", "notifications/initialized", ""))).toEqual([
      "compatible",
      "breaking",
    ]);
    const turned = only(noInitialized, "method-direction-changed", "notifications/tools/list_changed", "");
    expect([turned.before, turned.after]).toEqual(["server→client", "client→server, server→client"]);
    const ping = changed((d) => {
      d.PingRequest = {
        type: "object",
        properties: { method: { const: "ping", type: "string" } },
        required: ["method"],
      };
      d.EmptyResult = { type: "object", properties: {} };
      d.ClientRequest.anyOf.push(ref("PingRequest"));
    });
    expect(severity(only(ping, "method-added", "ping", ""))).toEqual(["compatible", "compatible"]);
  });

  it("a direction lost by a request breaks the side that called it that way", () => {
    const both = model("both", (d) => d.ServerRequest.anyOf.push(ref("ListToolsRequest")));
    const lost = only(diffModels(both, base), "method-direction-changed", "tools/list", "");
    expect(severity(lost)).toEqual(["compatible", "breaking"]);
  });

  it("moving params into a *Params definition is not a change of the request", () => {
    const moved = changed((d) => {
      d.CallToolRequestParams = requestParams(d, "CallToolRequest");
      d.CallToolRequest.properties.params = ref("CallToolRequestParams");
    });
    expect(moved.changes.map((c) => `${c.id} ${c.locations.map((l) => `${l.id} ${l.subject}`).join()}`)).toEqual([
      "definition-extracted definition-added CallToolRequestParams",
    ]);
    expect(severity(moved.changes[0]!)).toEqual(["compatible", "compatible"]);
  });

  it("a renamed definition is one rename, and refs to it under the new name are no change", () => {
    const renamed = diffModels(
      base,
      model("renamed", (d) => {
        const text = JSON.stringify(d).replaceAll("#/definitions/TextContent", "#/definitions/TextBlock");
        const next = JSON.parse(text) as Defs;
        next.TextBlock = next.TextContent;
        delete next.TextContent;
        for (const key of Object.keys(d)) delete d[key];
        Object.assign(d, next);
      }),
    );
    expect(renamed.changes.map((c) => `${c.id} ${c.before}→${c.after}`)).toEqual([
      "definition-renamed TextContent→TextBlock",
    ]);
  });

  it("a name renamed away and reused for a new union is a rename and an addition, not members coming", () => {
    const image = { type: "object", properties: { data: { type: "string" } }, required: ["data"] };
    const reused = model("reused", (d) => {
      const next = JSON.parse(
        JSON.stringify(d).replaceAll("#/definitions/TextContent", "#/definitions/TextBlock"),
      ) as Defs;
      for (const key of Object.keys(d)) delete d[key];
      Object.assign(d, next, {
        TextBlock: next.TextContent,
        ImageContent: image,
        TextContent: { anyOf: [ref("TextBlock"), ref("ImageContent")] },
      });
    });
    const entries = (diff: DiffReport) => diff.changes.map((c) => `${c.id} ${c.subject} ${severity(c).join("/")}`);
    expect(entries(diffModels(base, reused))).toEqual([
      "definition-added ImageContent compatible/compatible",
      "definition-renamed TextBlock compatible/compatible",
      "definition-added TextContent compatible/compatible",
    ]);
    expect(only(diffModels(base, reused), "definition-added", "TextContent", "").message).toBe(
      "definition `TextContent` added, under the old name of `TextBlock`",
    );
    expect(entries(diffModels(reused, base))).toEqual([
      "definition-removed ImageContent compatible/compatible",
      "definition-removed TextContent compatible/compatible",
      "definition-renamed TextContent compatible/compatible",
    ]);
  });

  it("a definition turned into a union that its users now spell out is that definition's change, said as such", () => {
    const image = { type: "object", properties: { data: { type: "string" } }, required: ["data"] };
    const old = model("old", (d) => {
      d.ImageContent = image;
      d.CallToolResult.properties.content.items = { anyOf: [ref("ImageContent"), ref("TextContent")] };
    });
    const next = model("next", (d) => {
      d.ImageContent = image;
      // The old shape lives on with one more optional property (`EnumSchema` → `LegacyTitledEnumSchema`).
      d.PlainText = { ...d.TextContent, properties: { ...d.TextContent.properties, lang: { type: "string" } } };
      d.RichText = { type: "object", properties: { html: { type: "string" } }, required: ["html"] };
      d.TextContent = { anyOf: [ref("PlainText"), ref("RichText")] };
      d.CallToolResult.properties.content.items = {
        anyOf: [ref("ImageContent"), ref("PlainText"), ref("RichText")],
      };
    });
    const entries = (diff: DiffReport) =>
      diff.changes.map(
        (c) => `${c.id} ${c.subject}.${c.path} [${c.locations.map((l) => `${l.id} ${l.subject}`).join(", ")}]`,
      );
    expect(entries(diffModels(old, next))).toEqual([
      "type-changed TextContent. [type-changed TextContent, definition-added PlainText]",
      "union-member-added TextContent. [union-member-added TextContent, definition-added RichText]",
      "property-added TextContent.lang [property-added TextContent]",
    ]);
    expect(only(diffModels(old, next), "type-changed", "TextContent", "").message).toBe(
      "`TextContent` turned from an object into a union; its old shape is the member `PlainText`",
    );
    expect(entries(diffModels(next, old))).toEqual([
      "type-changed TextContent. [type-changed TextContent, definition-removed PlainText]",
      "union-member-removed TextContent. [union-member-removed TextContent, definition-removed RichText]",
      "property-removed TextContent.lang [property-removed TextContent]",
    ]);
  });

  it("reports deprecations and error codes without breaking anyone", () => {
    const deprecated = changed((d) => (d.Tool.properties.description.deprecated = true));
    expect(severity(only(deprecated, "deprecated", "Tool", "description"))).toEqual(["compatible", "compatible"]);
    const code = changed((d) => {
      d.ToolNotFoundError = {
        type: "object",
        properties: { code: { const: -32050, type: "integer" }, message: { type: "string" } },
        required: ["code", "message"],
      };
    });
    expect(severity(only(code, "error-code-added", "-32050", ""))).toEqual(["compatible", "compatible"]);
  });

  it("a reserved _meta key removed breaks its writers only where the new release's checked _meta refuses it", () => {
    // A key named only in prose (no definition), as 2025-11-25's related-task: an open key unless the checked `_meta` refuses it.
    const trace = {
      name: "trace",
      key: "io.example/trace",
      scopes: ["request"],
      requiredIn: [],
      definition: null,
      definitionIn: {},
    } as const;
    const old = { ...base, metaKeys: [...base.metaKeys, trace] };
    const rule = (labels: string[]) => ({ labels, position: "second" as const, source: "s" });
    const removed = (now: ProtocolModel) =>
      only(diffModels(old, now), "meta-key-removed", "io.example/trace", "request");
    // Both sides send requests here (tools/call, sampling/createMessage), so both write the key.
    const refused = removed({ ...base, reservedMetaPrefix: rule(["example"]) });
    expect(severity(refused)).toEqual(["breaking", "breaking"]);
    expect(refused.message).toContain("checked `_meta` refuses it");
    for (const now of [
      { ...base, reservedMetaPrefix: rule(["example"]), formerMetaKeys: ["io.example/trace"] },
      { ...base, reservedMetaPrefix: rule(["acme"]) },
      base,
    ]) {
      const kept = removed(now);
      expect(severity(kept)).toEqual(["compatible", "compatible"]);
      expect(kept.message).toContain("still compiles");
    }
  });
});

/** One row per rule that folds findings into entries or decides by wire semantics. */
describe("every change once, wire semantics decide", () => {
  const entries = (diff: DiffReport) =>
    diff.changes.map(
      (c) => `${c.id} ${c.subject} ${c.path} [${c.locations.map((l) => `${l.id} ${l.subject}.${l.path}`).join(", ")}]`,
    );
  const toolSchema = {
    type: "object",
    properties: { type: { const: "object", type: "string" }, properties: { type: "object", additionalProperties: {} } },
    required: ["type"],
  };

  const rows: {
    rule: string;
    mutate: (d: Defs) => void;
    want: string[];
    severities?: [string, string][];
    level?: string;
  }[] = [
    {
      rule: "collapse: the same required field added to two results is one entry",
      mutate: (d) => {
        for (const r of ["CallToolResult", "ListToolsResult"]) {
          d[r].properties.resultType = { type: "string" };
          d[r].required.push("resultType");
        }
      },
      want: [
        "property-added CallToolResult resultType [property-added CallToolResult.resultType, property-added ListToolsResult.resultType]",
      ],
      severities: [["compatible", "breaking"]],
    },
    {
      rule: "collapse: a reserved _meta key declared in two notifications is the key's entry",
      mutate: (d) => {
        for (const n of ["InitializedNotification", "ToolListChangedNotification"])
          d[n].properties.params.properties._meta.properties = { "io.example/trace": { type: "string" } };
      },
      want: [
        "meta-key-added io.example/trace notification [meta-key-added io.example/trace.notification, property-added InitializedNotification.params._meta.io.example/trace, property-added ToolListChangedNotification.params._meta.io.example/trace]",
      ],
    },
    {
      rule: "move: a property removed from one message and added alike to another moved",
      mutate: (d) => {
        requestParams(d, "CallToolRequest").properties._meta = structuredClone(
          d.InitializedNotification.properties.params.properties._meta,
        );
        delete d.InitializedNotification.properties.params.properties._meta;
      },
      want: [
        "property-moved InitializedNotification params._meta [property-removed InitializedNotification.params._meta, property-added CallToolRequest.params._meta]",
      ],
      severities: [["compatible", "compatible"]],
    },
    {
      rule: "wire equality: an index signature appearing is a types-only change",
      mutate: (d) => (d.Tool.additionalProperties = {}),
      want: ["index-signature-changed Tool  [type-changed Tool.]"],
      severities: [["compatible", "compatible"]],
      level: "types",
    },
    {
      rule: "wire equality: additionalProperties {} and true accept the same JSON",
      mutate: (d) => (requestParams(d, "CallToolRequest").properties.arguments.additionalProperties = true),
      want: [],
    },
    {
      rule: "loosening: a structured object turned open is loosened, its dropped keys are not removals",
      // Not Tool.inputSchema: the bindings keep that JSON Schema object open already (facts.openObjects).
      mutate: (d) =>
        (d.ListToolsRequest.properties.params = { type: "object", properties: {}, additionalProperties: {} }),
      want: [
        "loosened ListToolsRequest params [loosened ListToolsRequest.params, type-changed ListToolsRequest.params, property-removed ListToolsRequest.params.cursor]",
      ],
      severities: [["compatible", "breaking"]],
    },
    {
      rule: "description flags: gaining deprecated, MUST and an x-* keyword is a description-level change",
      mutate: (d) => (d.Tool.properties.name.description = "Deprecated: clients MUST show `x-ui-label` instead."),
      want: ["description-changed Tool name [description-changed Tool.name]"],
      severities: [["compatible", "compatible"]],
      level: "description",
    },
    {
      rule: "fold references: a new definition that an added property refers to is part of that addition",
      mutate: (d) => {
        d.ToolExecution = { type: "object", properties: { taskSupport: { type: "string" } } };
        d.Tool.properties.execution = ref("ToolExecution");
      },
      want: ["property-added Tool execution [property-added Tool.execution, definition-added ToolExecution.]"],
    },
    {
      rule: "description flags: an x-* keyword appearing on a node is a description-level change, not a shape change",
      mutate: (d) => (d.Tool.properties.name["x-mcp-header"] = "Tool-Name"),
      want: ["description-changed Tool name [description-changed Tool.name]"],
      severities: [["compatible", "compatible"]],
      level: "description",
    },
    {
      rule: "fold into methods: a union member and the definitions of an added method are that method's entry",
      mutate: (d) => {
        d.PingRequest = {
          type: "object",
          properties: { method: { const: "ping", type: "string" } },
          required: ["method"],
        };
        d.PingResult = { type: "object", properties: {} };
        d.ClientRequest.anyOf.push(ref("PingRequest"));
      },
      want: [
        "method-added ping  [method-added ping., union-member-added ClientRequest., definition-added PingRequest., definition-added PingResult.]",
      ],
    },
  ];

  it.each(rows)("$rule", ({ mutate, want, severities, level }) => {
    const diff = diffModels(
      model("withTool", (d) => (d.Tool.properties.inputSchema = structuredClone(toolSchema))),
      model("changed", (d) => {
        d.Tool.properties.inputSchema = structuredClone(toolSchema);
        mutate(d);
      }),
    );
    expect(entries(diff)).toEqual(want);
    if (severities) expect(diff.changes.map(severity)).toEqual(severities);
    if (level) expect(diff.changes.map((c) => c.level)).toEqual([level]);
  });

  it("flags what a description says: deprecation, RFC 2119 keywords, x-* keywords", () => {
    expect(
      [...descriptionFlags("Deprecated: clients MUST NOT send `x-mcp-header` values; they MAY retry.")].sort(),
    ).toEqual(["MAY", "MUST NOT", "deprecated", "x-mcp-header"]);
    expect([...descriptionFlags("a must, may or should in prose is not normative; max-x is no keyword")]).toEqual([]);
  });
});

/**
 * JSON-RPC batches, as the model reads them (`envelope.batches`: an array member of the message union),
 * on the base schema given an envelope: four message definitions and their union.
 */
describe("JSON-RPC batches coming and going", () => {
  const envelope = (d: Defs) => {
    const object = (...required: string[]) => ({
      type: "object",
      properties: Object.fromEntries(required.map((k) => [k, { type: "string" }])),
      required,
    });
    d.JSONRPCRequest = object("jsonrpc", "id", "method");
    d.JSONRPCNotification = object("jsonrpc", "method");
    d.JSONRPCResponse = object("jsonrpc", "id", "result");
    d.JSONRPCError = object("jsonrpc", "id", "error");
    d.JSONRPCMessage = { anyOf: ["JSONRPCRequest", "JSONRPCNotification", "JSONRPCResponse", "JSONRPCError"].map(ref) };
  };
  const arrayOf = (...names: string[]) => ({ type: "array", items: { anyOf: names.map(ref) } });
  // As 2025-03-26 writes them: inline arrays in the union, and definitions of the same shape beside it.
  const batching = (d: Defs) => {
    envelope(d);
    d.JSONRPCMessage.anyOf.push(
      arrayOf("JSONRPCRequest", "JSONRPCNotification"),
      arrayOf("JSONRPCResponse", "JSONRPCError"),
    );
    d.JSONRPCBatchRequest = arrayOf("JSONRPCRequest", "JSONRPCNotification");
    d.JSONRPCBatchResponse = arrayOf("JSONRPCResponse", "JSONRPCError");
  };
  const single = model("single", envelope);
  const batches = model("batches", batching);
  const entries = (diff: DiffReport) =>
    diff.changes.map((c) => `${c.id} ${c.subject} [${c.locations.map((l) => `${l.id} ${l.subject}`).join(", ")}]`);

  it.each([
    {
      given: "batches removed",
      from: batches,
      to: single,
      want: [
        "batches-removed batches [batches-removed batches, definition-removed JSONRPCBatchRequest, definition-removed JSONRPCBatchResponse, union-member-removed JSONRPCMessage, union-member-removed JSONRPCMessage]",
      ],
      state: ["allowed", "not allowed"],
    },
    {
      given: "batches added",
      from: single,
      to: batches,
      want: [
        "batches-added batches [batches-added batches, definition-added JSONRPCBatchRequest, definition-added JSONRPCBatchResponse, union-member-added JSONRPCMessage, union-member-added JSONRPCMessage]",
      ],
      state: ["not allowed", "allowed"],
    },
  ])(
    "$given: one protocol entry holding the union members and the definitions that spell them out",
    ({ from, to, want, state }) => {
      expect([from.envelope.batches, to.envelope.batches]).toEqual(state.map((s) => s === "allowed"));
      const diff = diffModels(from, to);
      expect(entries(diff)).toEqual(want);
      const entry = diff.changes[0]!;
      expect([entry.subjectKind, entry.level, entry.before, entry.after, entry.oldPointer, entry.newPointer]).toEqual([
        "protocol",
        "wire",
        ...state,
        "/definitions/JSONRPCMessage",
        "/definitions/JSONRPCMessage",
      ]);
      // Messages go both ways: each side sends batches (hurt when they go) and receives them (hurt when they come).
      expect(severity(entry)).toEqual(["breaking", "breaking"]);
      expect(entry.message).toContain("`JSONRPCBatchRequest`, `JSONRPCBatchResponse`");
    },
  );

  it("a batch member given by reference brings its definition into the entry, whatever its name", () => {
    const byRef = model("byRef", (d) => {
      envelope(d);
      d.Several = arrayOf("JSONRPCRequest");
      d.JSONRPCMessage.anyOf.push(ref("Several"));
    });
    expect(entries(diffModels(single, byRef))).toEqual([
      "batches-added batches [batches-added batches, union-member-added JSONRPCMessage, definition-added Several]",
    ]);
  });

  it("a definition named like a batch, outside the message union, is no batch", () => {
    const named = model("named", (d) => {
      envelope(d);
      d.JSONRPCBatchRequest = arrayOf("JSONRPCRequest", "JSONRPCNotification");
    });
    expect(named.envelope.batches).toBe(false);
    expect(entries(diffModels(single, named))).toEqual([
      "definition-added JSONRPCBatchRequest [definition-added JSONRPCBatchRequest]",
    ]);
  });

  it("the Markdown lists it under its own summary topic and defines a batch", () => {
    const text = renderMarkdown(diffModels(batches, single));
    expect(text).toContain("- **JSON-RPC batches** (1): 🔴🔴 JSON-RPC batches removed");
    expect(text).toContain("**Batch**: a JSON array of JSON-RPC messages sent as one");
    expect(text).toMatch(
      /<summary><b>Protocol<\/b>: 1 \(1 breaking\)<\/summary>\n\n- 🔴🔴 JSON-RPC batches removed.* <sub>5 places<\/sub>/,
    );
    expect(renderMarkdown(diffModels(single, batches), { breakingOnly: true })).toContain(
      "**JSON-RPC batches**\n\n- 🔴🔴 JSON-RPC batches allowed",
    );
  });
});
