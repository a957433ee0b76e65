import { generate } from "../generator/generate.ts";
import { defaultPaths } from "../generator/project.ts";

/** Tests always run against a freshly generated tree, built once per run. */
export default async function setup(): Promise<void> {
  const dir = process.env["MCP_SCHEMA_DIR"];
  await generate(defaultPaths(), dir ? { env: dir } : {});
}
