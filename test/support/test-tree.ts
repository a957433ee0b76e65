import { join } from "node:path";
import { PACKAGE_ROOT } from "../../generator/project/project.ts";

/**
 * The test run's own tree: a temporary folder vitest.config.ts makes once per run, where the global setup
 * generates the checkout's releases (`generated/`) and copies the examples beside them, so that tests never
 * read or write the checkout's `generated/`.
 */
export const TEST_TREE: string = testTree();

/** The run's generated bindings, as `npm run generate` writes them into a project. */
export const GENERATED_DIR: string = join(TEST_TREE, "generated");

/** The run's copy of `examples/`: their `../generated/` imports reach GENERATED_DIR, also in a child process. */
export const EXAMPLES_DIR: string = join(TEST_TREE, "examples");

/** Where fixtures and examples in the checkout point (`../../generated/…`); typecheck reads GENERATED_DIR for it. */
export const CHECKOUT_GENERATED: string = join(PACKAGE_ROOT, "generated");

function testTree(): string {
  const tree = process.env["MCP_BINDGEN_TEST_TREE"];
  if (tree === undefined || tree === "")
    throw new Error("MCP_BINDGEN_TEST_TREE is unset: run the tests through vitest");
  return tree;
}

/**
 * A module of the run's tree by its path in `generated/` (`2026-07-28/index.ts`): for a path built at run time,
 * which the `../../generated/` alias cannot reach (a template `import()` is resolved against the checkout's files).
 */
export function importGenerated(path: string): Promise<unknown> {
  return import(/* @vite-ignore */ join(GENERATED_DIR, path));
}
