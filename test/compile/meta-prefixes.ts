// The reserved-prefix rule behind CheckedMeta (runtime/core/meta-keys.ts), on the spec's own examples (basic#meta of
// 2025-06-18 and 2025-11-25): `true` rows must be reserved, `false` rows must not; a wrong verdict is a compile error.
import type { IsReservedMetaKey } from "../../generated/runtime/core/meta-keys.js";

type Labels = "modelcontextprotocol" | "mcp";
type Second<K extends string> = IsReservedMetaKey<K, Labels, "second">;
type Penultimate<K extends string> = IsReservedMetaKey<K, Labels, "penultimate">;

// 2025-11-25 on: the second label.
export const second: [
  Second<"io.modelcontextprotocol/protocolVersion">,
  Second<"dev.mcp/x">,
  Second<"org.modelcontextprotocol.api/x">,
  Second<"com.mcp.tools/x">,
  Second<"com.example.mcp/x">,
  Second<"mcp.dev/x">,
  Second<"modelcontextprotocol/x">,
  Second<"progressToken">,
  Second<"io.modelcontextprotocolx/x">,
  Second<"com.example/io.modelcontextprotocol/x">,
] = [true, true, true, true, false, false, false, false, false, false];

// 2025-06-18: zero or more labels, then modelcontextprotocol or mcp, then one label.
export const penultimate: [
  Penultimate<"modelcontextprotocol.io/x">,
  Penultimate<"mcp.dev/x">,
  Penultimate<"api.modelcontextprotocol.org/x">,
  Penultimate<"tools.mcp.com/x">,
  Penultimate<"io.modelcontextprotocol/x">,
  Penultimate<"mcp/x">,
  Penultimate<"a.mcp.b.c/x">,
  Penultimate<"progressToken">,
] = [true, true, true, true, false, false, false, false];

// Releases before 2025-06-18 reserve no prefix.
export const none: IsReservedMetaKey<"io.modelcontextprotocol/x", Labels, "none"> = false;

// Several rules at once (the version-agnostic builders): a key is reserved when any rule reserves it, as the checks read it.
type ReservedByAny<K extends string> =
  true extends IsReservedMetaKey<K, Labels, "second" | "penultimate"> ? true : false;
export const either: [
  ReservedByAny<"modelcontextprotocol.io/x">,
  ReservedByAny<"io.modelcontextprotocol/x">,
  ReservedByAny<"com.mcp.tools/x">,
  ReservedByAny<"com.example/x">,
  ReservedByAny<"progressToken">,
] = [true, true, true, false, false];
