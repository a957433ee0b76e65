import { join } from "node:path";
import { PACKAGE_ROOT } from "../../generator/project/project.ts";

/**
 * The tests' own tree, `test/.tmp/tree` (git-ignored): the global setup generates the checkout's releases into its
 * `generated/` as `npm run generate` would (stamps let an unchanged run reuse every file) and copies the examples
 * beside them, so that tests never read or write the checkout's `generated/`. vitest.config.ts names it too.
 */
export const TEST_TREE: string = join(PACKAGE_ROOT, "test", ".tmp", "tree");

/** The tests' generated bindings, as `npm run generate` writes them into a project. */
export const GENERATED_DIR: string = join(TEST_TREE, "generated");

/** The tests' copy of `examples/`: their `../generated/` imports reach GENERATED_DIR, also in a child process. */
export const EXAMPLES_DIR: string = join(TEST_TREE, "examples");

/** Where fixtures and examples in the checkout point (`../../generated/…`); typecheck reads GENERATED_DIR for it. */
export const CHECKOUT_GENERATED: string = join(PACKAGE_ROOT, "generated");

/**
 * A module of the tests' tree by its path in `generated/` (`2026-07-28/index.ts`): for a path built at run time,
 * which the `../../generated/` alias cannot reach (a template `import()` is resolved against the checkout's files).
 */
export function importGenerated(path: string): Promise<unknown> {
  return import(/* @vite-ignore */ join(GENERATED_DIR, path));
}
