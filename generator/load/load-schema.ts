import { BindgenError } from "../common/failures.ts";
import { normalise } from "./normalise.ts";
import { parseJson, readRaw } from "./read.ts";
import type { NormalisedSchema } from "./schema-node.ts";

/**
 * MCP releases are under 200 KB; a schema forty times that is hostile or broken, and would only
 * make the emitters and prettier churn for minutes before failing less clearly.
 */
export const MAX_SCHEMA_BYTES = 8 * 1024 * 1024;

/** Reads, verifies (when a hash is expected) and normalises one schema file. */
export function loadSchema(file: string, expectedSha256?: string): NormalisedSchema {
  const raw = readRaw(file);
  if (raw.bytes.length > MAX_SCHEMA_BYTES) {
    throw new BindgenError(
      file,
      "",
      `a schema file of at most ${MAX_SCHEMA_BYTES / 1024 / 1024} MiB`,
      `got ${raw.bytes.length} bytes`,
    );
  }
  if (expectedSha256 !== undefined) verifySha256(file, raw.sha256, expectedSha256);
  return normalise(file, parseJson(file, raw.bytes), raw.sha256);
}

/** Every use of a schema file checks it against the lock first, including runs that reuse old output. */
export function verifySha256(file: string, actual: string, expected: string): void {
  if (actual !== expected) {
    throw new BindgenError(
      file,
      "",
      `sha256 ${expected} (pinned in the lock)`,
      `got ${actual}; run "mcp-bindgen pull --force" or, for a re-sealed release, "--update-lock"`,
    );
  }
}
