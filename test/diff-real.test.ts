import { beforeAll, describe, expect, it } from "vitest";
import { diffModels, MIRROR_ID, type Change, type DiffReport } from "../generator/diff/index.ts";
import type { ProtocolModel } from "../generator/model/protocol-model.ts";
import { defaultPaths, loadModels } from "../generator/project.ts";

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
const subjects = (d: DiffReport, id: Change["id"]) =>
  d.changes
    .filter((c) => c.id === id)
    .map((c) => c.subject)
    .sort();
const count = (d: DiffReport, id: Change["id"]) => d.changes.filter((c) => c.id === id).length;
const find = (d: DiffReport, id: Change["id"], subject: string, path = "") => {
  const found = d.changes.filter((c) => c.id === id && c.subject === subject && c.path === path);
  expect(found, `${id} ${subject} ${path}`).toHaveLength(1);
  return found[0]!;
};

beforeAll(async () => {
  const env = process.env["MCP_SCHEMA_DIR"];
  models = (await loadModels(defaultPaths(), env ? { env } : {})).reverse();
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
    expect(subjects(modern, "method-added")).toEqual(["notifications/subscriptions/acknowledged", "server/discover", "subscriptions/listen"]);
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
    expect(subjects(modern, "method-kind-changed")).toEqual(["elicitation/create", "roots/list", "sampling/createMessage"]);
    expect(find(modern, "method-kind-changed", "roots/list").after).toBe("input");
    expect(count(diff(...PAIRS[2]), "era-changed")).toBe(0);
  });

  it("counts definitions added and removed (before rename detection) as 5/1, 11/3, 55/1, 42/32", () => {
    const counts = PAIRS.map((p) => {
      const d = diff(p[0], p[1]);
      const renamed = count(d, "definition-renamed");
      return [count(d, "definition-added") + renamed, count(d, "definition-removed") + renamed];
    });
    expect(counts).toEqual([
      [5, 1],
      [11, 3],
      [55, 1],
      [42, 32],
    ]);
  });

  it("detects the renames, and nothing else as one", () => {
    const renames = PAIRS.map(([a, b]) =>
      diff(a, b)
        .changes.filter((c) => c.id === "definition-renamed")
        .map((c) => `${c.before}→${c.after}`),
    );
    expect(renames).toEqual([["Annotated→Annotations"], ["ResourceReference→ResourceTemplateReference"], ["JSONRPCError→JSONRPCErrorResponse"], []]);
    // A rename is not also an addition and a removal, and the renamed shape's real differences still show.
    const november = diff(...PAIRS[2]);
    expect(subjects(november, "definition-removed")).toEqual([]);
    expect(find(november, "property-became-optional", "JSONRPCErrorResponse", "id").severity).toEqual({ client: "breaking", server: "breaking" });
  });

  it("looks through *Params definitions: params moved out of the request are not removals", () => {
    const november = diff(...PAIRS[2]);
    const messages = new Set(models.flatMap((m) => m.methods.map((x) => x.definition)));
    expect(november.changes.filter((c) => c.id === "property-removed" && messages.has(c.subject))).toEqual([]);
    const callTool = november.changes.filter((c) => c.subject === "CallToolRequest").map((c) => `${c.id} ${c.path}`);
    expect(callTool).toEqual(["property-added params._meta", "property-added params.task"]);
    expect(find(november, "property-added", "CallToolRequest", "params.task").newPointer).toBe("/$defs/CallToolRequestParams/properties/task");
  });

  it("rates real changes by the side that writes and the side that reads", () => {
    const modern = diff(...PAIRS[3]);
    // A new required result field breaks servers; a new required request param breaks clients.
    expect(find(modern, "property-added", "ListToolsResult", "ttlMs").severity).toEqual({ client: "compatible", server: "breaking" });
    expect(find(modern, "property-became-required", "CallToolRequestParams", "_meta").severity).toEqual({ client: "breaking", server: "compatible" });
    expect(find(modern, "meta-key-added", "io.modelcontextprotocol/protocolVersion", "request").after).toBe("required");
    // A result alternative a caller must now handle breaks the caller (the client for tools/call).
    expect(find(modern, "method-result-changed", "prompts/get").severity).toEqual({ client: "breaking", server: "compatible" });
    // Losing a request breaks whoever calls it; losing a notification breaks whoever waited for it.
    expect(find(modern, "method-removed", "logging/setLevel").severity).toEqual({ client: "breaking", server: "compatible" });
    expect(find(modern, "method-removed", "notifications/initialized").severity).toEqual({ client: "compatible", server: "breaking" });
    expect(find(modern, "error-code-added", "-32022").after).toBe("UnsupportedProtocolVersion");
    expect(find(modern, "deprecated", "sampling/createMessage").severity).toEqual({ client: "compatible", server: "compatible" });
  });

  it("reports nothing for a release compared with itself", () => {
    for (const m of models) expect(diffModels(m, m).changes, m.version).toEqual([]);
  });

  it("makes `diff a b` and `diff b a` mirror images", () => {
    const key = (c: Change) => `${c.id} ${c.path} ${c.oldPointer} ${c.newPointer} ${c.before} ${c.after}`;
    const mirrored = (c: Change) => `${MIRROR_ID[c.id]} ${c.path} ${c.newPointer} ${c.oldPointer} ${c.after} ${c.before}`;
    for (const [a, b] of PAIRS) {
      const forward = diff(a, b).changes.map(mirrored).sort();
      const backward = diff(b, a).changes.map(key).sort();
      expect(backward, `${b} → ${a}`).toEqual(forward);
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
