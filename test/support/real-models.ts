import { join } from "node:path";
import { loadSchema } from "../../generator/load/load-schema.ts";
import { readLock } from "../../generator/load/lock.ts";
import { buildModel } from "../../generator/model/build.ts";
import { loadFacts } from "../../generator/model/facts.ts";
import type { ProtocolModel } from "../../generator/model/protocol-model.ts";
import { PACKAGE_FACTS, PACKAGE_LOCK } from "../../generator/project/project.ts";
import { REAL_SCHEMA_DIR } from "./tmp-project.ts";

const models = new Map<string, ProtocolModel>();

/** The model of a real release, built in-process once per test file (verified against the lock). */
export function realModel(version: string): ProtocolModel {
  let m = models.get(version);
  if (!m) {
    const sha = readLock([PACKAGE_LOCK]).versions.get(version)?.sha256;
    m = buildModel(version, loadSchema(join(REAL_SCHEMA_DIR, version, "schema.json"), sha), loadFacts(PACKAGE_FACTS));
    models.set(version, m);
  }
  return m;
}
