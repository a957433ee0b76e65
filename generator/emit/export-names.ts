import { BindgenError, joinPointer } from "../common/failures.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import type { EmittedFile } from "./emitted.ts";

const EXPORT =
  /^export (?:declare )?(?:async )?(?:const|let|var|function\*?|type|interface|class|enum|namespace) ([A-Za-z_$][\w$]*)/gm;

/** Names a module declares with `export`, as ts-morph prints them (one declaration per line start). */
export function exportedNames(content: string): Set<string> {
  return new Set([...content.matchAll(EXPORT)].map((m) => m[1]!));
}

/**
 * A version's `index.ts` re-exports every module with `export *`, and TypeScript silently drops
 * a name two modules export. A schema definition named like a generated export (`ErrorCode`,
 * `RequestTable`, …) would vanish from the index, so it is an error here instead.
 */
export function assertDistinctExports(model: ProtocolModel, modules: readonly EmittedFile[]): void {
  const owner = new Map<string, string>();
  for (const file of modules) {
    for (const name of exportedNames(file.content)) {
      const first = owner.get(name);
      if (first === undefined) {
        owner.set(name, file.path);
        continue;
      }
      const definition = model.definitions.get(name);
      throw new BindgenError(
        model.file,
        definition ? definition.schema.pointer : joinPointer(model.schema.definitionsPointer),
        "definition names that differ from the names mcp-bindgen generates",
        `"${name}" is exported by both ${first} and ${file.path}`,
      );
    }
  }
}
