// MCP Apps: where a tool names its UI resource. The keys are the extension's data, from schema/facts.json.
import { isObject } from "./json.js";
import { metaOf } from "./builders.js";

export interface UiResourceKeys {
  /** The nested `_meta` object the extension specifies (`ui`). */
  readonly metaKey: string;
  readonly resourceUriKey: string;
  /** The flat `_meta` key some servers send instead (`ui/resourceUri`). */
  readonly flatMetaKey: string;
}

/** The MCP Apps UI resource of a tool: the nested key the extension specifies, else the flat one; guessing wrong fails silently (no UI), hence both. */
export function uiResourceUriIn(
  tool: { readonly _meta?: unknown },
  keys: UiResourceKeys,
): string | undefined {
  const meta = metaOf(tool);
  const nested = meta?.[keys.metaKey];
  const uri = isObject(nested) ? nested[keys.resourceUriKey] : undefined;
  const found = typeof uri === "string" ? uri : meta?.[keys.flatMetaKey];
  return typeof found === "string" ? found : undefined;
}
