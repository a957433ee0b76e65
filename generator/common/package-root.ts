import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The folder of the running generator code (this file's folder's parent): `generator/` in a checkout, `dist/generator/` when installed. */
export const CODE_DIR: string = dirname(dirname(fileURLToPath(import.meta.url)));

/** The mcp-bindgen package (or checkout) this code belongs to: the nearest package.json named mcp-bindgen above the code. */
export const PACKAGE_ROOT: string = (() => {
  for (let dir = CODE_DIR; ; dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file) && (JSON.parse(readFileSync(file, "utf8")) as { name?: unknown }).name === "mcp-bindgen")
      return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json of mcp-bindgen above ${CODE_DIR}`);
  }
})();
