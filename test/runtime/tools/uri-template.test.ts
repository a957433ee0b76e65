import { describe, expect, it } from "vitest";
import { expandUriTemplate, uriTemplateVariables } from "../../../generator/runtime/tools/uri-template.ts";

// RFC 6570's own examples (§1.2 and §3.2), with its variables.
const values = {
  var: "value",
  hello: "Hello World!",
  path: "/foo/bar",
  empty: "",
  x: "1024",
  y: "768",
  list: ["red", "green", "blue"],
  keys: { semi: ";", dot: ".", comma: "," },
};

describe("expandUriTemplate", () => {
  it.each([
    ["{var}", "value"],
    ["{hello}", "Hello%20World%21"],
    ["{+hello}", "Hello%20World!"],
    ["{+path}/here", "/foo/bar/here"],
    ["{#var}", "#value"],
    ["X{.var}", "X.value"],
    ["{/var,x}/here", "/value/1024/here"],
    ["{;x,y,empty}", ";x=1024;y=768;empty"],
    ["{?x,y,empty}", "?x=1024&y=768&empty="],
    ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
    ["{var:3}", "val"],
    ["{list}", "red,green,blue"],
    ["{list*}", "red,green,blue"],
    ["{/list*}", "/red/green/blue"],
    ["{;list*}", ";list=red;list=green;list=blue"],
    ["{?list}", "?list=red,green,blue"],
    ["{keys}", "semi,%3B,dot,.,comma,%2C"],
    ["{keys*}", "semi=%3B,dot=.,comma=%2C"],
    ["{?keys*}", "?semi=%3B&dot=.&comma=%2C"],
    ["{?undef,x}", "?x=1024"],
    ["{undef}", ""],
  ])("%s → %s", (template, uri) => {
    expect(expandUriTemplate(template, values)).toBe(uri);
  });

  it("takes numbers and booleans, encodes what is not unreserved, and reads only own keys", () => {
    expect(expandUriTemplate("demo://resource/dynamic/text/{resourceId}", { resourceId: 7 })).toBe(
      "demo://resource/dynamic/text/7",
    );
    expect(expandUriTemplate("{a}", { a: "ø/é?" })).toBe("%C3%B8%2F%C3%A9%3F");
    expect(expandUriTemplate("{toString}", {})).toBe("");
  });
});

describe("uriTemplateVariables", () => {
  it("lists each variable with its operator, explode and prefix", () => {
    expect(uriTemplateVariables("a{b}{?c*,d:2}")).toEqual([
      { name: "b", explode: false, prefix: undefined, operator: "" },
      { name: "c", explode: true, prefix: undefined, operator: "?" },
      { name: "d", explode: false, prefix: 2, operator: "?" },
    ]);
  });
});
