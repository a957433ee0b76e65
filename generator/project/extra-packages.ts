import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { EXTRAS, type ExtraName } from "../common/extras.ts";

/**
 * A line for each optional runtime part whose package the project cannot import, naming the install command: the
 * generated part imports it, so the project's tsc and bundler fail on it until it is installed.
 */
export function missingExtraPackages(root: string, extras: readonly ExtraName[]): string[] {
  const resolveFrom = createRequire(join(root, "package.json"));
  const missing = new Map<string, ExtraName[]>();
  for (const name of extras) {
    const { package: pkg, range } = EXTRAS[name];
    // Looked up where Node would look, by folder: a package's `exports` may hide its package.json and its main.
    const found = (resolveFrom.resolve.paths(pkg) ?? []).some((dir) => existsSync(join(dir, pkg, "package.json")));
    if (!found) missing.set(`${pkg}@${range}`, [...(missing.get(`${pkg}@${range}`) ?? []), name]);
  }
  return [...missing].map(
    ([spec, names]) =>
      `extras ${names.map((n) => `"${n}"`).join(", ")} import ${spec.slice(0, spec.lastIndexOf("@"))}, which this project does not have: npm install '${spec}'`,
  );
}
