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
    try {
      resolveFrom.resolve(`${pkg}/package.json`);
    } catch (error) {
      // A package whose `exports` leave out package.json (@opentelemetry/api) is there all the same.
      if ((error as { code?: unknown }).code === "ERR_PACKAGE_PATH_NOT_EXPORTED") continue;
      missing.set(`${pkg}@${range}`, [...(missing.get(`${pkg}@${range}`) ?? []), name]);
    }
  }
  return [...missing].map(
    ([spec, names]) =>
      `extras ${names.map((n) => `"${n}"`).join(", ")} import ${spec.slice(0, spec.lastIndexOf("@"))}, which this project does not have: npm install '${spec}'`,
  );
}
