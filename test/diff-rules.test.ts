import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { diffModels, type Change, type DiffReport } from "../generator/diff/index.ts";
import { normalise } from "../generator/load/normalise.ts";
import { buildModel } from "../generator/model/build.ts";
import { loadFacts } from "../generator/model/facts.ts";
import type { ProtocolModel } from "../generator/model/protocol-model.ts";
import { defaultPaths } from "../generator/project.ts";

/**
 * One synthetic schema (test/fixtures/diff/base.json: tools/call and tools/list client→server,
 * sampling/createMessage server→client, one notification each way) and one mutation per rule.
 */
type Defs = Record<string, any>;
const BASE = JSON.parse(readFileSync(new URL("./fixtures/diff/base.json", import.meta.url), "utf8")) as { definitions: Defs };
const facts = loadFacts(defaultPaths().factsFile);
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
  expect(found, `${id} ${subject} ${path} in ${JSON.stringify(diff.changes.map((c) => [c.id, c.subject, c.path]))}`).toHaveLength(1);
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
    expect(severity(only(toServer, "property-added", "CallToolRequest", "params.task"))).toEqual(["breaking", "compatible"]);
    const toClient = changed((d) => {
      requestParams(d, "CreateMessageRequest").properties.temperature = { type: "number" };
      requestParams(d, "CreateMessageRequest").required.push("temperature");
    });
    expect(severity(only(toClient, "property-added", "CreateMessageRequest", "params.temperature"))).toEqual(["compatible", "breaking"]);
  });

  it("a removed result field breaks clients (servers for a server→client request)", () => {
    expect(
      severity(
        only(
          changed((d) => delete d.CallToolResult.properties.isError),
          "property-removed",
          "CallToolResult",
          "isError",
        ),
      ),
    ).toEqual(["breaking", "compatible"]);
    const samplingResult = changed((d) => {
      delete d.CreateMessageResult.properties.model;
      d.CreateMessageResult.required = ["content", "role"];
    });
    expect(severity(only(samplingResult, "property-removed", "CreateMessageResult", "model"))).toEqual(["compatible", "breaking"]);
  });

  it("a new required result field breaks servers; an added optional field breaks nobody", () => {
    const required = changed((d) => {
      d.CallToolResult.properties.structured = { type: "object" };
      d.CallToolResult.required.push("structured");
    });
    expect(severity(only(required, "property-added", "CallToolResult", "structured"))).toEqual(["compatible", "breaking"]);
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
    expect(severity(only(pattern, "constraint-changed", "CallToolRequest", "params.name"))).toEqual(["breaking", "compatible"]);
    const withMinimum = (min: number) => (d: Defs) => (requestParams(d, "CallToolRequest").properties.name.minLength = min);
    const looser = diffModels(model("old", withMinimum(3)), model("new", withMinimum(1)));
    expect(severity(only(looser, "constraint-changed", "CallToolRequest", "params.name"))).toEqual(["compatible", "breaking"]);
    const mirrored = diffModels(model("new", withMinimum(1)), model("old", withMinimum(3)));
    expect(severity(only(mirrored, "constraint-changed", "CallToolRequest", "params.name"))).toEqual(["breaking", "compatible"]);
  });

  it("a field becoming required breaks its writer; becoming optional breaks its reader", () => {
    const required = changed((d) => (requestParams(d, "ListToolsRequest").required = ["cursor"]));
    expect(severity(only(required, "property-became-required", "ListToolsRequest", "params.cursor"))).toEqual(["breaking", "compatible"]);
    const optional = changed((d) => (d.CallToolResult.required = []));
    expect(severity(only(optional, "property-became-optional", "CallToolResult", "content"))).toEqual(["breaking", "compatible"]);
    const paramsRequired = changed((d) => (d.ListToolsRequest.required = ["method", "params"]));
    expect(severity(only(paramsRequired, "property-became-required", "ListToolsRequest", "params"))).toEqual(["breaking", "compatible"]);
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
    expect(severity(only(removed, "union-member-removed", "CallToolResult", "content[]"))).toEqual(["compatible", "breaking"]);
  });

  it("a removed request breaks its caller, a removed notification its receiver; added methods break nobody", () => {
    const noList = changed((d) => {
      d.ClientRequest.anyOf = [ref("CallToolRequest")];
      delete d.ListToolsRequest;
      delete d.ListToolsResult;
    });
    expect(severity(only(noList, "method-removed", "tools/list", ""))).toEqual(["breaking", "compatible"]);
    const noSampling = changed((d) => (d.ServerRequest.anyOf = [ref("ListToolsRequest")]));
    expect(severity(only(noSampling, "method-direction-changed", "tools/list", ""))).toEqual(["compatible", "compatible"]);
    expect(severity(only(noSampling, "method-removed", "sampling/createMessage", ""))).toEqual(["compatible", "breaking"]);
    const noInitialized = changed((d) => {
      d.ClientNotification.anyOf = [ref("ToolListChangedNotification")];
      delete d.InitializedNotification;
    });
    expect(severity(only(noInitialized, "method-removed", "notifications/initialized", ""))).toEqual(["compatible", "breaking"]);
    const turned = only(noInitialized, "method-direction-changed", "notifications/tools/list_changed", "");
    expect([turned.before, turned.after]).toEqual(["server→client", "client→server, server→client"]);
    const ping = changed((d) => {
      d.PingRequest = { type: "object", properties: { method: { const: "ping", type: "string" } }, required: ["method"] };
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
    expect(moved.changes.map((c) => `${c.id} ${c.subject}`)).toEqual(["definition-added CallToolRequestParams"]);
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
    expect(renamed.changes.map((c) => `${c.id} ${c.before}→${c.after}`)).toEqual(["definition-renamed TextContent→TextBlock"]);
  });

  it("reports deprecations and error codes without breaking anyone", () => {
    const deprecated = changed((d) => (d.Tool.properties.description.deprecated = true));
    expect(severity(only(deprecated, "deprecated", "Tool", "description"))).toEqual(["compatible", "compatible"]);
    const code = changed((d) => {
      d.ToolNotFoundError = { type: "object", properties: { code: { const: -32050, type: "integer" }, message: { type: "string" } }, required: ["code", "message"] };
    });
    expect(severity(only(code, "error-code-added", "-32050", ""))).toEqual(["compatible", "compatible"]);
  });
});
