import { openProject } from "../../generator/api.ts";
import { loadModels } from "../../generator/model/load-models.ts";
import type { ProtocolModel } from "../../generator/model/protocol-model.ts";
import { PACKAGE_FACTS, PACKAGE_LOCK, PACKAGE_ROOT } from "../../generator/project/project.ts";

export { PACKAGE_FACTS, PACKAGE_LOCK };

/** The checkout as `npm run generate` sees it: its config, its lock, its cache (or $MCP_SCHEMA_DIR). */
export const checkout = openProject({ cwd: PACKAGE_ROOT });

/** The model of every release the checkout generates, newest first. */
export function checkoutModels(): Promise<ProtocolModel[]> {
  const env = process.env["MCP_SCHEMA_DIR"];
  return loadModels(checkout.project.paths, { releases: checkout.releases, ...(env ? { env } : {}) });
}
