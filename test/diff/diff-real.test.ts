import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { Finding } from "../../generator/diff/change.ts";
import { consolidate } from "../../generator/diff/consolidate.ts";
import {
  diffModels,
  findChanges,
  MIRROR_ID,
  type Change,
  type DiffReport,
  type Location,
  type Side,
} from "../../generator/diff/index.ts";
import { renderMarkdown } from "../../generator/diff/render-markdown.ts";
import type { ProtocolModel } from "../../generator/model/protocol-model.ts";
import { checkoutModels } from "../support/checkout.ts";

let models: ProtocolModel[];
const diffs = new Map<string, DiffReport>();

function diff(a: string, b: string): DiffReport {
  const key = `${a}>${b}`;
  if (!diffs.has(key))
    diffs.set(
      key,
      diffModels(
        models.find((m) => m.version === a)!,
        models.find((m) => m.version === b)!,
      ),
    );
  return diffs.get(key)!;
}
/** Every place a change was found: collapsed entries keep them all in `locations`. */
const places = (d: DiffReport): Location[] => d.changes.flatMap((c) => c.locations);
const subjects = (d: DiffReport, id: Change["id"]) =>
  places(d)
    .filter((c) => c.id === id)
    .map((c) => c.subject)
    .sort();
const count = (d: DiffReport, id: Change["id"]) => places(d).filter((c) => c.id === id).length;
const find = (d: DiffReport, id: Change["id"], subject: string, path = "") => {
  const found = places(d).filter((c) => c.id === id && c.subject === subject && c.path === path);
  expect(found, `${id} ${subject} ${path}`).toHaveLength(1);
  return found[0]!;
};

beforeAll(async () => {
  models = (await checkoutModels()).reverse();
});

const PAIRS = [
  ["2024-11-05", "2025-03-26"],
  ["2025-03-26", "2025-06-18"],
  ["2025-06-18", "2025-11-25"],
  ["2025-11-25", "2026-07-28"],
] as const;

describe("diff on the real consecutive releases", () => {
  it("finds the methods added and removed by each release", () => {
    expect(subjects(diff(...PAIRS[0]), "method-added")).toEqual([]);
    expect(subjects(diff(...PAIRS[0]), "method-removed")).toEqual([]);

    const june = diff(...PAIRS[1]);
    expect(subjects(june, "method-added")).toEqual(["elicitation/create"]);
    expect(find(june, "method-added", "elicitation/create").after).toBe("request server→client → ElicitResult");
    expect(subjects(june, "method-removed")).toEqual([]);

    const november = diff(...PAIRS[2]);
    expect(subjects(november, "method-added")).toEqual([
      "notifications/elicitation/complete",
      "notifications/tasks/status",
      "tasks/cancel",
      "tasks/get",
      "tasks/list",
      "tasks/result",
    ]);
    for (const m of ["tasks/cancel", "tasks/get", "tasks/list", "tasks/result"]) {
      expect(find(november, "method-added", m).after).toMatch(/^request client→server, server→client /);
    }
    expect(subjects(november, "method-removed")).toEqual([]);

    const modern = diff(...PAIRS[3]);
    expect(subjects(modern, "method-added")).toEqual([
      "notifications/subscriptions/acknowledged",
      "server/discover",
      "subscriptions/listen",
    ]);
    expect(subjects(modern, "method-removed")).toEqual([
      "initialize",
      "logging/setLevel",
      "notifications/elicitation/complete",
      "notifications/initialized",
      "notifications/roots/list_changed",
      "notifications/tasks/status",
      "ping",
      "resources/subscribe",
      "resources/unsubscribe",
      "tasks/cancel",
      "tasks/get",
      "tasks/list",
      "tasks/result",
    ]);
  });

  it("reports 2026-07-28 as the move from legacy to modern, with embedded input requests as a kind change", () => {
    const modern = diff(...PAIRS[3]);
    const era = find(modern, "era-changed", "era");
    expect([era.before, era.after]).toEqual(["legacy", "modern"]);
    expect(era.severity).toEqual({ client: "breaking", server: "breaking" });
    expect(subjects(modern, "method-kind-changed")).toEqual([
      "elicitation/create",
      "roots/list",
      "sampling/createMessage",
    ]);
    expect(find(modern, "method-kind-changed", "roots/list").after).toBe("input");
    expect(count(diff(...PAIRS[2]), "era-changed")).toBe(0);
  });

  it("reports JSON-RPC batches coming with 2025-03-26 and going with 2025-06-18, read from the message union", () => {
    const batches = PAIRS.map(([a, b]) =>
      diff(a, b).changes.filter((c) => c.subjectKind === "protocol" && c.subject === "batches"),
    );
    expect(batches.map((found) => found.map((c) => c.id))).toEqual([["batches-added"], ["batches-removed"], [], []]);
    const removed = batches[1]![0]!;
    expect([removed.before, removed.after, removed.oldPointer, removed.newPointer]).toEqual([
      "allowed",
      "not allowed",
      "/definitions/JSONRPCMessage",
      "/definitions/JSONRPCMessage",
    ]);
    expect(removed.severity).toEqual({ client: "breaking", server: "breaking" });
    // The removed definitions and union members are still there, as places of the one entry.
    expect(removed.locations.map((l) => `${l.id} ${l.subject} ${l.oldPointer}`)).toEqual([
      "batches-removed batches /definitions/JSONRPCMessage",
      "definition-removed JSONRPCBatchRequest /definitions/JSONRPCBatchRequest",
      "definition-removed JSONRPCBatchResponse /definitions/JSONRPCBatchResponse",
      "union-member-removed JSONRPCMessage /definitions/JSONRPCMessage/anyOf/2",
      "union-member-removed JSONRPCMessage /definitions/JSONRPCMessage/anyOf/5",
    ]);
    expect(diff(...PAIRS[1]).changes.filter((c) => c.subjectKind === "definition" && /Batch/.test(c.subject))).toEqual(
      [],
    );
  });

  // 2025-11-25 renamed `JSONRPCResponse` and reused the name for a new union: it counts as added and removed.
  it("counts definitions added and removed (before rename detection) as 5/1, 11/3, 56/2, 42/32", () => {
    const counts = PAIRS.map((p) => {
      const d = diff(p[0], p[1]);
      const renamed = count(d, "definition-renamed");
      return [count(d, "definition-added") + renamed, count(d, "definition-removed") + renamed];
    });
    expect(counts).toEqual([
      [5, 1],
      [11, 3],
      [56, 2],
      [42, 32],
    ]);
  });

  it("detects the renames, and nothing else as one", () => {
    const renames = PAIRS.map(([a, b]) =>
      diff(a, b)
        .changes.filter((c) => c.id === "definition-renamed")
        .map((c) => `${c.before}→${c.after}`),
    );
    expect(renames).toEqual([
      ["Annotated→Annotations"],
      ["ResourceReference→ResourceTemplateReference"],
      ["JSONRPCError→JSONRPCErrorResponse", "JSONRPCResponse→JSONRPCResultResponse"],
      [],
    ]);
    // A rename is not also an addition and a removal, and the renamed shape's real differences still show.
    const november = diff(...PAIRS[2]);
    expect(subjects(november, "definition-removed")).toEqual([]);
    expect(find(november, "property-became-optional", "JSONRPCErrorResponse", "id").severity).toEqual({
      client: "breaking",
      server: "breaking",
    });
  });

  it("looks through *Params definitions: params moved out of the request are not removals", () => {
    const november = diff(...PAIRS[2]);
    const messages = new Set(models.flatMap((m) => m.methods.map((x) => x.definition)));
    expect(places(november).filter((c) => c.id === "property-removed" && messages.has(c.subject))).toEqual([]);
    const callTool = places(november)
      .filter((c) => c.subject === "CallToolRequest")
      .map((c) => `${c.id} ${c.path}`)
      .sort();
    expect(callTool).toEqual(["property-added params._meta", "property-added params.task"]);
    expect(find(november, "property-added", "CallToolRequest", "params.task").newPointer).toBe(
      "/$defs/CallToolRequestParams/properties/task",
    );
  });

  it("rates real changes by the side that writes and the side that reads", () => {
    const modern = diff(...PAIRS[3]);
    // A new required result field breaks servers; a new required request param breaks clients.
    expect(find(modern, "property-added", "ListToolsResult", "ttlMs").severity).toEqual({
      client: "compatible",
      server: "breaking",
    });
    expect(find(modern, "property-became-required", "CallToolRequestParams", "_meta").severity).toEqual({
      client: "breaking",
      server: "compatible",
    });
    expect(find(modern, "meta-key-added", "io.modelcontextprotocol/protocolVersion", "request").after).toBe("required");
    // A result alternative a caller must now handle breaks the caller (the client for tools/call).
    expect(find(modern, "method-result-changed", "prompts/get").severity).toEqual({
      client: "breaking",
      server: "compatible",
    });
    // Losing a request breaks whoever calls it; losing a notification breaks whoever waited for it.
    expect(find(modern, "method-removed", "logging/setLevel").severity).toEqual({
      client: "breaking",
      server: "compatible",
    });
    expect(find(modern, "method-removed", "notifications/initialized").severity).toEqual({
      client: "compatible",
      server: "breaking",
    });
    expect(find(modern, "error-code-added", "-32022").after).toBe("UnsupportedProtocolVersion");
    expect(find(modern, "deprecated", "sampling/createMessage").severity).toEqual({
      client: "compatible",
      server: "compatible",
    });
  });

  it("reports nothing for a release compared with itself", () => {
    for (const m of models) expect(diffModels(m, m).changes, m.version).toEqual([]);
  });

  it("makes `diff a b` and `diff b a` mirror images, place by place", () => {
    const key = (c: Location) => `${c.id} ${c.path} ${c.oldPointer} ${c.newPointer} ${c.before} ${c.after}`;
    const mirrored = (c: Location) =>
      `${MIRROR_ID[c.id]} ${c.path} ${c.newPointer} ${c.oldPointer} ${c.after} ${c.before}`;
    // A loosening read backwards is a closed object with new properties, which is reported as such.
    const directional = (c: Location) => c.id !== "loosened";
    for (const [a, b] of PAIRS) {
      const forward = places(diff(a, b)).filter(directional).map(mirrored).sort();
      const backward = places(diff(b, a)).filter(directional).map(key).sort();
      expect(backward, `${b} → ${a}`).toEqual(forward);
    }
  });

  it("finds each place once, with nothing deduplicated afterwards (a type turned `unknown` loses no index signature besides)", () => {
    for (const [a, b] of [...PAIRS, ...PAIRS.map(([x, y]) => [y, x] as const)]) {
      const keys = places(diff(a, b)).map((l) =>
        JSON.stringify([l.id, l.subject, l.path, l.oldPointer, l.newPointer, l.before, l.after]),
      );
      expect(
        keys.filter((k, i) => keys.indexOf(k) !== i),
        `${a} → ${b}`,
      ).toEqual([]);
    }
  });

  it("groups findings by their structured causes, never by the prose of their messages", () => {
    for (const [a, b] of PAIRS) {
      const [older, newer] = [models.find((m) => m.version === a)!, models.find((m) => m.version === b)!];
      const findings = findChanges(older, newer);
      const grouping = (list: readonly Finding[]) =>
        consolidate(list, older, newer)
          .map((e) =>
            e.locations.map((l) => `${l.id} ${l.subject} ${l.path} ${l.oldPointer} ${l.newPointer}`).join("; "),
          )
          .sort();
      expect(grouping(findings.map((f) => ({ ...f, message: "" }))), `${a} → ${b}`).toEqual(grouping(findings));
    }
  });

  it("is deterministic and sorted", () => {
    const again = diffModels(models[3]!, models[4]!);
    expect(JSON.stringify(again)).toBe(JSON.stringify(diff(...PAIRS[3])));
    const kinds = again.changes.map((c) => c.subjectKind);
    expect(kinds.indexOf("protocol")).toBe(0);
    expect(kinds.lastIndexOf("method")).toBeLessThan(kinds.indexOf("definition"));
  });
});

/** The changes the diff reported before it collapsed them (test/fixtures/diff/previous/*.tsv): id, subject, path, severity. */
function previous(
  a: string,
  b: string,
): { id: string; subject: string; path: string; severity: Record<Side, string> }[] {
  const text = readFileSync(new URL(`../fixtures/diff/previous/${a}_${b}.tsv`, import.meta.url), "utf8");
  const word: Record<string, string> = { b: "breaking", c: "compatible", n: "none" };
  return text
    .split("\n")
    .filter((l) => l !== "" && !l.startsWith("#"))
    .map((l) => {
      const [id, subject, path, sev] = l.split("\t") as [string, string, string, string];
      return { id, subject, path, severity: { client: word[sev[0]!]!, server: word[sev[1]!]! } };
    });
}

/** Entries that say outright that the wire did not change. */
const WIRE_NEUTRAL = new Set<Change["id"]>(["property-moved", "definition-extracted", "index-signature-changed"]);

/**
 * Breaking before, not breaking now, each for a reason the issue names: a required key that only
 * a new method's result carries breaks no existing code (the pointer bug of issue 16).
 */
const NO_LONGER_BREAKING = new Set(["meta-key-added io.modelcontextprotocol/subscriptionId result"]);

/**
 * Changes reported before that another place now says (issue 26): a member of a union that now spells out the members
 * of a definition turned into a union is that definition's change (`EnumSchema`); a name renamed away and reused
 * (`JSONRPCResponse`) is a rename plus a new definition, not members coming and going.
 */
const SUPERSEDED: ReadonlyMap<string, string> = new Map([
  ["union-member-added PrimitiveSchemaDefinition ", "union-member-added EnumSchema "],
  ["union-member-removed PrimitiveSchemaDefinition ", "type-changed EnumSchema "],
  ["union-member-added JSONRPCMessage ", "definition-renamed JSONRPCResultResponse "],
  ["union-member-removed JSONRPCMessage ", "definition-renamed JSONRPCResultResponse "],
  ["definition-added JSONRPCResultResponse ", "definition-renamed JSONRPCResultResponse "],
  ["union-member-added JSONRPCResponse ", "definition-added JSONRPCResponse "],
]);

/**
 * Breaking claims of before that were false: tsc accepts the old `EnumSchema` as the new `PrimitiveSchemaDefinition`,
 * and the other compared the two unrelated definitions of a reused name (every old `JSONRPCMessage` fits the new one).
 */
const REFUTED = new Set(["union-member-removed PrimitiveSchemaDefinition ", "union-member-added JSONRPCResponse "]);

describe("every change once, nothing lost", () => {
  it.each(PAIRS)("%s → %s: every change reported before is an entry or a location", (a, b) => {
    const d = diff(a, b);
    const known = new Set([...d.changes, ...places(d)].map((c) => `${c.id} ${c.subject} ${c.path}`));
    const missing = previous(a, b)
      .map((p) => `${p.id} ${p.subject} ${p.path}`)
      .filter((key) => !known.has(key) && !known.has(SUPERSEDED.get(key) ?? ""));
    expect(missing).toEqual([]);
  });

  it("says the superseded changes elsewhere only: no false claim about PrimitiveSchemaDefinition or JSONRPCResponse", () => {
    const d = diff(...PAIRS[2]);
    const known = new Set(places(d).map((c) => `${c.id} ${c.subject} ${c.path}`));
    expect([...SUPERSEDED.keys()].filter((key) => known.has(key))).toEqual([]);
    expect(find(d, "type-changed", "EnumSchema").message).toBe(
      "`EnumSchema` turned from an object into a union; its old shape is the member `LegacyTitledEnumSchema`",
    );
    expect(find(d, "definition-renamed", "JSONRPCResultResponse").before).toBe("JSONRPCResponse");
    expect(find(d, "definition-added", "JSONRPCResponse").severity).toEqual({
      client: "compatible",
      server: "compatible",
    });
  });

  it.each(PAIRS)("%s → %s: what broke the wire before still breaks it", (a, b) => {
    const d = diff(a, b);
    const entryOf = new Map<string, Change>();
    const locationOf = new Map<string, Location>();
    for (const c of d.changes) {
      for (const l of c.locations) {
        entryOf.set(`${l.id} ${l.subject} ${l.path}`, c);
        locationOf.set(`${l.id} ${l.subject} ${l.path}`, l);
      }
    }
    // An optional property removed breaks no reader: tsc accepts the new type wherever the old one was read.
    const optionalRemoved = (key: string) => /^optional property .* removed$/.test(locationOf.get(key)?.message ?? "");
    const lost: string[] = [];
    for (const p of previous(a, b)) {
      const key = `${p.id} ${p.subject} ${p.path}`;
      const entry = entryOf.get(key) ?? entryOf.get(SUPERSEDED.get(key)!)!;
      if (WIRE_NEUTRAL.has(entry.id) || NO_LONGER_BREAKING.has(key) || REFUTED.has(key) || optionalRemoved(key))
        continue;
      for (const side of ["client", "server"] as const) {
        if (p.severity[side] === "breaking" && entry.severity[side] !== "breaking") lost.push(`${key} (${side})`);
      }
    }
    expect(lost).toEqual([]);
  });

  it("collapses 2025-11-25 → 2026-07-28 from 271 lines to one entry per change", () => {
    const d = diff(...PAIRS[3]);
    expect(previous(...PAIRS[3])).toHaveLength(269);
    expect(d.summary.total).toBeLessThan(120);
    // The reserved keys: one entry each, listing every params definition that declares them.
    const version = d.changes.filter(
      (c) => c.id === "meta-key-added" && c.subject === "io.modelcontextprotocol/protocolVersion",
    );
    expect(version).toHaveLength(1);
    expect(version[0]!.locations.map((l) => l.subject)).toContain("CallToolRequestParams");
    expect(
      d.changes.filter((c) => c.locations.some((l) => l.subject === "CallToolRequestParams" && l.path === "_meta")),
    ).toHaveLength(1);
    // resultType once, with every result it lands in and the ResultType definition they refer to.
    const resultType = d.changes.filter((c) => c.path === "resultType");
    expect(resultType).toHaveLength(1);
    expect(resultType[0]!.locations).toHaveLength(11);
    expect(resultType[0]!.locations.map((l) => `${l.id} ${l.subject}`)).toContain("definition-added ResultType");
    // Union members of message unions belong to the methods they add.
    expect(
      d.changes.filter(
        (c) => c.id.startsWith("union-member") && ["ClientRequest", "ServerResult", "ClientResult"].includes(c.subject),
      ),
    ).toEqual([]);
    expect(
      d.changes.find((c) => c.id === "method-added" && c.subject === "server/discover")!.locations.map((l) => l.id),
    ).toContain("union-member-added");
  });

  it("reports the Tool schema keywords that turned `unknown` as widened, rated as structuredContent turning `unknown` is", () => {
    const d = diff(...PAIRS[3]);
    const tool = d.changes.filter((c) => c.subject === "Tool" && /^(?:in|out)putSchema/.test(c.path));
    expect(tool.find((c) => c.id === "description-changed")!.message).toContain("`x-mcp-header`");
    // Both releases' bindings keep the schemas open (facts.openObjects): a typed key that goes is typed `unknown` by
    // the index signature now, which breaks code reading it (clients read tools) and no code writing it.
    const widened = tool.filter((c) => c.id === "property-removed");
    expect(widened.map((c) => c.path).sort()).toEqual([
      "inputSchema.properties",
      "inputSchema.required",
      "outputSchema.properties",
      "outputSchema.required",
      "outputSchema.type",
    ]);
    for (const c of widened) {
      expect(c.message).toMatch(/^type of `Tool\.\w+Schema\.\w+` widened \(`[^`]+` → `any`\)/);
      expect(c.severity).toEqual({ client: "breaking", server: "compatible" });
    }
    const structured = d.changes.find((c) => c.subject === "CallToolResult" && c.path === "structuredContent")!;
    expect(structured.message).toMatch(/^type of `CallToolResult\.structuredContent` widened/);
    expect(structured.locations[0]!.severity).toEqual({ client: "breaking", server: "compatible" });
  });

  it("keeps wire-neutral churn out of the wire changes", () => {
    // Every `_meta` is open in the bindings of every release, so its index signature is no change at all.
    for (const [a, b] of PAIRS) {
      const signatures = places(diff(a, b)).filter(
        (l) => /index signature/.test(l.message) && /(?:^|\.)_meta$/.test(l.path),
      );
      expect(signatures, `${a} → ${b}`).toEqual([]);
    }
    const november = diff(...PAIRS[2]);
    const moved = november.changes.filter((c) => c.id === "property-moved" && c.path === "params._meta");
    expect(moved.map((c) => c.subject).sort()).toEqual(["JSONRPCNotification", "JSONRPCRequest"]);
    expect(moved.every((c) => c.severity.client === "compatible" && c.severity.server === "compatible")).toBe(true);
    expect(november.changes.find((c) => c.id === "dialect-changed")).toMatchObject({
      before: "draft-07",
      after: "2020-12",
      level: "description",
    });
  });

  it("names deprecations with their source, and the replacement of -32002", () => {
    const d = diff(...PAIRS[3]);
    const deprecated = places(d)
      .filter((l) => l.id === "deprecated")
      .map((l) => (l.path === "" ? l.subject : `${l.subject}.${l.path}`));
    for (const name of [
      "ToolUseContent",
      "ToolResultContent",
      "ClientCapabilities.roots",
      "ClientCapabilities.sampling",
      "ServerCapabilities.logging",
      "io.modelcontextprotocol/logLevel",
      "CreateMessageRequestParams.includeContext",
    ]) {
      expect(deprecated, name).toContain(name);
    }
    expect(d.changes.filter((c) => c.id === "deprecated").every((c) => c.source !== null)).toBe(true);
    const gone = d.changes.find((c) => c.id === "error-code-removed" && c.subject === "-32002")!;
    expect(gone.message).toContain("-32602 (InvalidParams)");
    expect(gone.source).toBe(
      "https://modelcontextprotocol.io/specification/2026-07-28/server/resources#error-handling",
    );
  });

  it("gives each entry its cause as data, and the Markdown summary reads causes, never messages", () => {
    const d = diff(...PAIRS[3]);
    const gone = d.changes.find((c) => c.id === "error-code-removed" && c.subject === "-32002")!;
    expect(gone.cause).toEqual({ replacedBy: -32602 });
    const version = d.changes.find(
      (c) => c.id === "meta-key-added" && c.subject === "io.modelcontextprotocol/protocolVersion",
    );
    expect(version!.cause).toEqual({ required: true });
    const summary = (r: DiffReport) =>
      renderMarkdown(r)
        .split("\n")
        .filter((l) => /^- \*\*(New required fields|Error codes)\*\*|^\*\*Input request\*\*/.test(l));
    const unsaid = {
      ...d,
      changes: d.changes.map((c) => ({
        ...c,
        message: "",
        locations: c.locations.map((l) => ({ ...l, message: "" })),
      })),
    };
    expect(summary(unsaid)).toEqual(summary(d));
    expect(summary(d)).toHaveLength(3);
    expect(summary(d).join("\n")).toContain("`-32002` → `-32602`");
  });

  it("names value-level deprecations as values, and puts undeprecations in their own section", () => {
    const includeContext = find(diff(...PAIRS[3]), "deprecated", "CreateMessageRequestParams", "includeContext");
    expect(includeContext.after).toBe('"thisServer" | "allServers"');
    expect(includeContext.message).toBe(
      'the values "thisServer" | "allServers" of `CreateMessageRequestParams.includeContext` are now deprecated (the property is not)',
    );
    const forward = renderMarkdown(diff(...PAIRS[3]));
    expect(forward).toContain('`CreateMessageRequestParams.includeContext: "thisServer" | "allServers"`');
    expect(forward).not.toContain("**No longer deprecated**");
    const backward = renderMarkdown(diff(PAIRS[3][1], PAIRS[3][0]));
    expect(backward).toMatch(/^- \*\*No longer deprecated\*\* \(4\): .*`ToolUseContent`/m);
    expect(backward).not.toMatch(/^- \*\*Deprecations\*\*/m);
  });

  it("points each change at its own definition (the subscriptionId and EnumSchema.default pointer bugs)", () => {
    const subscription = find(diff(...PAIRS[3]), "meta-key-added", "io.modelcontextprotocol/subscriptionId", "result");
    expect(subscription.newPointer).toBe("/$defs/SubscriptionsListenResultMetaObject");
    expect(subscription.severity).toEqual({ client: "compatible", server: "compatible" });
    const enumDefault = find(diff(...PAIRS[2]), "property-added", "EnumSchema", "default");
    expect(enumDefault.newPointer).toBe("/$defs/LegacyTitledEnumSchema/properties/default");
    expect(enumDefault.message).toBe("optional property `LegacyTitledEnumSchema.default` added");
  });
});
