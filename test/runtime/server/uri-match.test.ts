// runtime/server/uri-match.ts from outside: RFC 6570 levels 1-3 read backwards, URI by URI.
import { describe, expect, it } from "vitest";
import { compileUriTemplate } from "../../../generated/runtime/server/uri-match.js";

describe("compileUriTemplate", () => {
  it.each([
    ["test://template/{id}/data", "test://template/42/data", { id: "42" }],
    ["test://template/{id}/data", "test://template/a%20b/data", { id: "a b" }],
    ["file:///{name}.json", "file:///report.v2.json", { name: "report.v2" }],
    ["file:///{+path}", "file:///a/b/c.txt", { path: "a/b/c.txt" }],
    ["http://x{/a,b}", "http://x/1/2", { a: "1", b: "2" }],
    ["http://x/{a,b}", "http://x/1,2", { a: "1", b: "2" }],
    ["http://x/page{#frag}", "http://x/page#top", { frag: "top" }],
    ["http://x/file{.ext}", "http://x/file.txt", { ext: "txt" }],
    ["http://x/m{;v}", "http://x/m;v=3", { v: "3" }],
    ["http://x/search{?q,lang}", "http://x/search?lang=en&q=cats", { q: "cats", lang: "en" }],
    ["http://x/search{?q,lang}", "http://x/search?q=cats", { q: "cats" }],
    ["http://x/search{?q,lang}", "http://x/search", {}],
    ["http://x/search{?q}{&page}", "http://x/search?q=a&page=2", { q: "a", page: "2" }],
  ])("%s matches %s", (template, uri, variables) => {
    expect(compileUriTemplate(template).match(uri)).toEqual(variables);
  });

  it.each([
    ["test://template/{id}/data", "test://template/a/b/data"],
    ["test://template/{id}/data", "test://other/1/data"],
    ["test://template/{id}/data", "test://template/%E0%A4%A/data"],
    ["http://x/search{?q}", "http://x/search?other=1"],
  ])("%s does not match %s", (template, uri) => {
    expect(compileUriTemplate(template).match(uri)).toBeUndefined();
  });

  it("lists its variables and refuses what it cannot read back", () => {
    expect(compileUriTemplate("a{b}{?c,d}").variables).toEqual(["b", "c", "d"]);
    expect(() => compileUriTemplate("a{b")).toThrow(SyntaxError);
    expect(() => compileUriTemplate("a{b*}")).toThrow(SyntaxError);
    expect(() => compileUriTemplate("a{b:3}")).toThrow(SyntaxError);
    expect(() => compileUriTemplate("a{}")).toThrow(SyntaxError);
  });
});
