import { joinPointer } from "../common/failures.ts";
import { httpSpec } from "../model/http-spec.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";
import { toolHeaderParams } from "../runtime/core/http-headers.ts";
import { withoutTools, type ToolSet } from "./tool-set.ts";

/**
 * One line per tool of the set that cannot be generated, in the file's order: the file and the pointer at what was
 * refused (the keyword, for one the validators lack), the tool and why. A server's other tools are generated.
 */
export function leftOutWarnings(set: ToolSet): string[] {
  return set.leftOut.map(({ error }) => {
    const where = error.pointer === "" ? error.file : `${error.file}#${error.pointer}`;
    return `${where}: left out of servers/${set.server}.ts, as it cannot be generated: expected ${error.expected}${error.detail === undefined ? "" : ` (${error.detail})`}`;
  });
}

/**
 * Each set without the tools a client of its release would drop from `tools/list` (invalid
 * `x-mcp-header` annotations: the streamable-http page says a client must exclude such a tool), each
 * drop told to `warn` with the tool and the pointer. A release without header facts drops nothing.
 */
export function usableToolSets(
  sets: readonly ToolSet[],
  models: readonly ProtocolModel[],
  warn: (line: string) => void,
): ToolSet[] {
  return sets.map((set) => {
    for (const line of leftOutWarnings(set)) warn(line);
    const model = models.find((m) => m.version === set.release);
    if (model?.http === undefined || model.http === null) return set;
    const spec = httpSpec(model);
    const dropped = new Set<string>();
    for (const tool of set.tools) {
      const found = toolHeaderParams(spec, { name: tool.name, inputSchema: tool.listed.inputSchema });
      if (found.ok) continue;
      dropped.add(tool.name);
      warn(
        `${set.file}#${joinPointer(tool.pointer, "inputSchema")}: left out of servers/${set.server}.ts, as a client drops the tool from tools/list: ${found.reason}`,
      );
    }
    return withoutTools(set, dropped);
  });
}
