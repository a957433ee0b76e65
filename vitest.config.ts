import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** The tests' own generated tree (test/support/test-tree.ts `TEST_TREE`), never the checkout's `generated/`. */
const tree = fileURLToPath(new URL("test/.tmp/tree", import.meta.url));

/**
 * The slow tier: whole processes (the CLI, the packed package, killed runs, official conformance and
 * SDK peers, a headless browser), tsc or prettier over whole trees, and whole-tree writes checked on disk (bad input leaves
 * nothing half-written; `--check` against written trees). Everything else is the fast tier (`npm run test:fast`).
 */
const INTEGRATION = [
  "test/package.test.ts",
  "test/startup.test.ts",
  "test/workflow-release.test.ts",
  "test/output/atomic.test.ts",
  "test/output/determinism.test.ts",
  "test/output/workflow-incremental.test.ts",
  "test/emit/output-layout.test.ts",
  "test/emit/compile.test.ts",
  "test/emit/bundle.test.ts",
  "test/runtime/conformance.test.ts",
  "test/runtime/interop.test.ts",
  "test/runtime/wire-interop.test.ts",
  "test/runtime/server-fuzz.test.ts",
  "test/runtime/server-transport.test.ts",
  "test/runtime/example-client.test.ts",
  "test/runtime/browser-client.test.ts",
  "test/readme.test.ts",
  "test/typescript-versions.test.ts",
  "test/diff/diff-claims.test.ts",
  "test/load/draft-release.test.ts",
  "test/output/ownership.test.ts",
  "test/emit/types-agree.test.ts",
  "test/tools/tools.test.ts",
  "test/load/bad-input.test.ts",
  "test/output/check.test.ts",
  "test/output/format.test.ts",
  "test/runtime/runtime-platforms.test.ts",
];

export default defineConfig({
  test: {
    // Generation and tsc runs are shared across files through a global setup; some tests spawn tsc.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    globalSetup: ["test/global-setup.ts"],
    // Tests and fixtures import the bindings as a project would (`../../generated/…`); in a run that is the tests' tree.
    alias: [{ find: /^(?:\.\.\/)+generated\//, replacement: `${tree}/generated/` }],
    pool: "forks",
    projects: [
      { extends: true, test: { name: "fast", include: ["test/**/*.test.ts"], exclude: INTEGRATION } },
      { extends: true, test: { name: "integration", include: INTEGRATION } },
    ],
  },
});
