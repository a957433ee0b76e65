import { generate } from "../generator/api.ts";
import { PACKAGE_ROOT } from "../generator/project/project.ts";

/** Tests always run against a freshly generated tree of the checkout, built once per run (as `npm run generate` would). */
export default async function setup(): Promise<void> {
  await generate({ cwd: PACKAGE_ROOT });
}
