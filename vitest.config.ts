import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Generation and tsc runs are shared across files through a global setup; some tests spawn tsc.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    globalSetup: ["test/global-setup.ts"],
    pool: "forks",
  },
});
