import { cpSync } from "node:fs";
import { join } from "node:path";
import { chosenReleases, PACKAGE_ROOT, resolveProject } from "../generator/project/project.ts";
import { generate } from "../generator/output/generate-output.ts";
import { EXAMPLES_DIR, GENERATED_DIR } from "./support/test-tree.ts";

/**
 * The checkout's releases generated once per run into the tests' tree (test/support/test-tree.ts), as
 * `npm run generate` would write them (an unchanged generator and schemas reuse every file), with the examples
 * copied beside them.
 */
export default async function setup(): Promise<void> {
  const project = resolveProject({ cwd: PACKAGE_ROOT, needsOut: true });
  const env = process.env["MCP_SCHEMA_DIR"];
  await generate(
    { ...project.paths, outDir: GENERATED_DIR },
    {
      releases: chosenReleases(project, false),
      ...(env !== undefined && env.trim() !== "" ? { env } : {}),
      examples: project.examples,
      render: {
        importExtension: project.importExtension,
        regenerateCommand: project.regenerateCommand,
        extras: project.extras,
      },
      force: false,
    },
  );
  cpSync(join(PACKAGE_ROOT, "examples"), EXAMPLES_DIR, { recursive: true });
}
