import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { REAL_SCHEMA_DIR } from "./tmp-project.ts";

/**
 * Ajv on a release's official schema, in the schema's own dialect: `check(definition, value)` gives null when the value fits,
 * else Ajv's errors. `definition` may be a pointer below the definitions (`JSONRPCError/properties/error`).
 */
export function officialSchema(version: string): (definition: string, value: unknown) => string | null {
  const schema = JSON.parse(readFileSync(join(REAL_SCHEMA_DIR, version, "schema.json"), "utf8")) as object;
  const is2020 = Object.prototype.hasOwnProperty.call(schema, "$defs");
  const ajv = is2020 ? new Ajv2020({ strict: false }) : new Ajv({ strict: false });
  addFormats.default(ajv, { mode: "fast" });
  ajv.addSchema(schema, "mcp");
  return (definition, value) => {
    const check = ajv.getSchema(`mcp#/${is2020 ? "$defs" : "definitions"}/${definition}`);
    if (check === undefined) return `${definition}: no such definition in ${version}`;
    return check(value) ? null : `${definition}: ${ajv.errorsText(check.errors)} in ${JSON.stringify(value)}`;
  };
}
