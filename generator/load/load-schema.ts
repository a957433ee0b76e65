import { BindgenError } from "../errors.ts";
import { normalise } from "./normalise.ts";
import { parseJson, readRaw } from "./read.ts";
import type { NormalisedSchema } from "./schema-node.ts";

/** Reads, verifies (when a hash is expected) and normalises one schema file. */
export function loadSchema(file: string, expectedSha256?: string): NormalisedSchema {
  const raw = readRaw(file);
  if (expectedSha256 !== undefined && raw.sha256 !== expectedSha256) {
    throw new BindgenError(file, "", `sha256 ${expectedSha256} (from schema/lock.json)`, `got ${raw.sha256}; run "mcp-bindgen pull --force" or, for a re-sealed release, "--update-lock"`);
  }
  return normalise(file, parseJson(file, raw.bytes), raw.sha256);
}
