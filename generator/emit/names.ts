import type { TypeRef } from "../model/protocol-model.ts";

/** `2026-07-28` → `v2026_07_28`: the namespace a version is re-exported under. */
export function versionNamespace(version: string): string {
  return "v" + version.replace(/-/g, "_");
}

/** The TypeScript type a `TypeRef` denotes: `CallToolRequestParams` or `CallToolRequest["params"]`. */
export function typeExpression(ref: TypeRef): string {
  return ref.definition + ref.path.map((p) => `[${JSON.stringify(p)}]`).join("");
}

/** A property key as TypeScript source: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}
