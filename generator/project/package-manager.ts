import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

export type PackageManager = "npm" | "pnpm" | "yarn" | "bun";

/** Lockfiles by the manager that writes them; a workspace's lockfile sits at its root, above the package. */
const LOCKFILES: readonly (readonly [string, PackageManager])[] = [
  ["pnpm-lock.yaml", "pnpm"],
  ["yarn.lock", "yarn"],
  ["bun.lock", "bun"],
  ["bun.lockb", "bun"],
  ["package-lock.json", "npm"],
  ["npm-shrinkwrap.json", "npm"],
];

/**
 * The package manager of the project at `root`: the lockfile nearest above it, else (at `init`, which runs under the
 * user's manager) the one `npm_config_user_agent` names, else npm. Headers use the lockfile alone, so the output does
 * not depend on how the generator was started.
 */
export function packageManager(root: string, userAgent?: string): PackageManager {
  for (let at = root; ; at = dirname(at)) {
    for (const [file, manager] of LOCKFILES) if (existsSync(join(at, file))) return manager;
    if (dirname(at) === at) break;
  }
  const named = /^(npm|pnpm|yarn|bun)\//.exec(userAgent ?? "")?.[1];
  return (named as PackageManager | undefined) ?? "npm";
}

/** How the manager runs a package.json script. */
export function runScript(manager: PackageManager, script: string): string {
  return `${manager} run ${script}`;
}

/** How the manager runs the installed mcp-bindgen binary. */
export function runBinary(manager: PackageManager): string {
  return { npm: "npx mcp-bindgen", pnpm: "pnpm exec mcp-bindgen", yarn: "yarn mcp-bindgen", bun: "bunx mcp-bindgen" }[
    manager
  ];
}
