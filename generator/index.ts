/**
 * The programmatic API of mcp-bindgen: `import { generate, diff, … } from "mcp-bindgen"`. Each
 * function does what its command does, for the project whose mcp-bindgen.config.json is found
 * from `cwd` upwards, with the same overrides; failures throw a BindgenError (the file, the
 * JSON pointer and what was expected) or a UsageError.
 */
export {
  check,
  diff,
  generate,
  list,
  pull,
  type CheckReport,
  type DiffOptions,
  type DiffReport,
  type GenerateOptions,
  type GenerateReport,
  type ImportExtension,
  type ModelSummary,
  type ProjectCheckReport,
  type ProjectOptions,
  type PullOptions,
  type PullResult,
  type Side,
} from "./api.ts";
export { init, type InitOptions, type InitResult } from "./project/init-project.ts";
export { main, type MainOptions } from "./cli.ts";
export { BindgenError, UsageError } from "./common/failures.ts";
export { CONFIG_FILE, type Config } from "./project/config.ts";
