// runtime/server/tool-schema.ts from outside: a tool's schema as createMcpServer compiles it, a JSON Schema literal or
// a Standard Schema v1 object, listed and checked.
import { describe, expect, it } from "vitest";
import { compileToolSchema, type Checked } from "../../../generated/runtime/server/tool-schema.js";

type Outcome =
  { value: unknown } | { issues: { message: string; path?: readonly (PropertyKey | { key: PropertyKey })[] }[] };

/** A Standard Schema v1 object as a library writes one, with Standard JSON Schema's converter unless `listed` is null. */
function standard(
  validate: (value: unknown) => Outcome | Promise<Outcome>,
  listed: object | null = { type: "object" },
) {
  const asked: { io: string; target: string }[] = [];
  const jsonSchema =
    listed === null
      ? undefined
      : {
          input: (options: { target: string }) => (asked.push({ io: "input", ...options }), { ...listed, io: "input" }),
          output: (options: { target: string }) => (
            asked.push({ io: "output", ...options }),
            { ...listed, io: "output" }
          ),
        };
  return {
    asked,
    schema: { "~standard": { version: 1, vendor: "lib", validate, ...(jsonSchema ? { jsonSchema } : {}) } },
  };
}

const settled = async (checked: Checked | Promise<Checked>): Promise<Checked> => checked;

describe("a JSON Schema literal", () => {
  it("is listed as written and checked by the runtime's validator, each issue at its pointer", () => {
    const literal = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    const compiled = compileToolSchema(literal, "input", 'tool "t" inputSchema');
    expect(compiled.listed).toBe(literal);
    const value = { city: "Oslo" };
    expect(compiled.check(value)).toEqual({ value });
    expect(compiled.check({ city: 4 })).toEqual({ issues: ["/city: expected string, got 4"] });
    expect(compiled.check(7)).toEqual({ issues: ["(root): expected object, got 7"] });
  });
});

describe("a Standard Schema v1 object", () => {
  it("is checked by its own validate: what it gives back goes on, each issue as pointer and message", () => {
    const { schema } = standard((value) =>
      (value as { ok?: boolean }).ok === true
        ? { value: { ok: true, added: 1 } }
        : {
            issues: [
              { message: "not ok", path: ["ok"] },
              { message: "bad key", path: [{ key: "a/b" }, 0, "~x"] },
              { message: "bad value" },
            ],
          },
    );
    const compiled = compileToolSchema(schema, "input", "t");
    expect(compiled.check({ ok: true })).toEqual({ value: { ok: true, added: 1 } });
    expect(compiled.check({})).toEqual({ issues: ["/ok: not ok", "/a~1b/0/~0x: bad key", "(root): bad value"] });
  });

  it("waits for a validate that answers a promise", async () => {
    const { schema } = standard(async (value) => (value === 1 ? { value: "one" } : { issues: [{ message: "no" }] }));
    const compiled = compileToolSchema(schema, "input", "t");
    const accepted = compiled.check(1);
    expect(accepted).toBeInstanceOf(Promise);
    expect(await settled(accepted)).toEqual({ value: "one" });
    expect(await settled(compiled.check(2))).toEqual({ issues: ["(root): no"] });
  });

  it("is listed as the JSON Schema it gives for draft 2020-12: its input for arguments, its output for a result", () => {
    const arguments_ = standard(() => ({ value: 1 }));
    expect(compileToolSchema(arguments_.schema, "input", "t").listed).toEqual({ type: "object", io: "input" });
    expect(arguments_.asked).toEqual([{ io: "input", target: "draft-2020-12" }]);
    const result = standard(() => ({ value: 1 }));
    expect(compileToolSchema(result.schema, "output", "t").listed).toEqual({ type: "object", io: "output" });
    expect(result.asked).toEqual([{ io: "output", target: "draft-2020-12" }]);
  });

  it("may be a function, as arktype's are", () => {
    const schema = Object.assign(() => undefined, standard(() => ({ value: "v" })).schema);
    expect(compileToolSchema(schema, "input", "t").check(0)).toEqual({ value: "v" });
  });

  it("is refused when it is declared, naming where, if it gives no JSON Schema to list", () => {
    expect(() =>
      compileToolSchema(standard(() => ({ value: 1 }), null).schema, "input", 'tool "x" inputSchema'),
    ).toThrow(
      new TypeError(
        'tool "x" inputSchema: a Standard Schema without ~standard.jsonSchema (Standard JSON Schema), which tools/list ' +
          "shows: declare a JSON Schema literal instead",
      ),
    );
    const throwing = {
      "~standard": {
        vendor: "lib",
        validate: () => ({ value: 1 }),
        jsonSchema: {
          input: () => {
            throw new Error("unsupported target");
          },
        },
      },
    };
    expect(() => compileToolSchema(throwing, "input", "t")).toThrow(
      "t: ~standard.jsonSchema.input threw: unsupported target",
    );
  });
});
