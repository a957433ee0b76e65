import type { Dialect, NormalisedSchema, SchemaNode } from "../load/schema-node.ts";

/**
 * What one spec release IS, as far as bindings care. Built only from the normalised schema and
 * `schema/facts.json`; emitters and the diff read this and nothing else.
 */
export type Era = "legacy" | "modern";
export type Direction = "client-to-server" | "server-to-client";
/** `input`: a modern server→client request embedded in an `input_required` result, never sent as JSON-RPC. */
export type MethodKind = "request" | "notification" | "input";

/** A type named by a definition, or a property path inside it (`CallToolRequest["params"]`). */
export interface TypeRef {
  readonly definition: string;
  readonly path: readonly string[];
}

export interface MethodModel {
  readonly name: string;
  readonly kind: MethodKind;
  /** Sorted; two entries for methods that go both ways (`ping`, `notifications/progress`, …). */
  readonly directions: readonly Direction[];
  /** The message definition (`CallToolRequest`); for an inlined union member, the union itself. */
  readonly definition: string;
  readonly pointer: string;
  /** Which direction unions list it (`ClientRequest`, …), sorted. */
  readonly unions: readonly string[];
  readonly params: TypeRef | null;
  readonly paramsRequired: boolean;
  /** Result definitions, the primary (`XResult` or `EmptyResult`) first, then alternatives. Empty for notifications. */
  readonly results: readonly string[];
  /** Whether the schema's message definition declares `jsonrpc` (and `id` for requests); if not, builders add them. */
  readonly envelopeInSchema: boolean;
  readonly deprecated: boolean;
}

export interface DefinitionModel {
  readonly name: string;
  readonly schema: SchemaNode;
  readonly deprecated: boolean;
}

export interface ErrorCodeModel {
  /** PascalCase key of `ErrorCode`. */
  readonly name: string;
  readonly code: number;
  /** false: recognised when received (old servers), never produced by builders. */
  readonly send: boolean;
  /** The schema definition that pins this code, if any. */
  readonly definition: string | null;
  /** A spec page for codes that come from facts. */
  readonly source: string | null;
}

export interface ErrorRangeModel {
  readonly name: string;
  readonly from: number;
  readonly to: number;
  readonly allocate: boolean;
  readonly source: string;
}

export type MetaScope = "request" | "result" | "notification";

export interface MetaKeyModel {
  /** Constant name in `MetaKey` (`protocolVersion`). */
  readonly name: string;
  /** The key as it appears in `_meta` (`io.modelcontextprotocol/protocolVersion`). */
  readonly key: string;
  readonly scopes: readonly MetaScope[];
  /** Scopes in which the schema makes the key required. */
  readonly requiredIn: readonly MetaScope[];
  readonly definition: string | null;
}

export interface HttpModel {
  readonly protocolVersionHeader: string;
  readonly methodHeader: string;
  readonly nameHeader: string;
  /** method → the params key whose value is sent as `Mcp-Name`. */
  readonly nameParam: ReadonlyMap<string, string>;
  readonly source: string;
}

export interface UiExtensionModel {
  readonly id: string;
  readonly metaKey: string;
  readonly resourceUriKey: string;
  readonly flatMetaKey: string;
  readonly clientCapability: unknown;
  readonly source: string;
}

export interface EraEvidence {
  readonly hasDiscover: boolean;
  readonly hasInitialize: boolean;
  readonly requestMetaRequired: boolean;
  readonly resultTypeRequired: boolean;
}

export interface ProtocolModel {
  readonly version: string;
  readonly era: Era;
  readonly eraEvidence: EraEvidence;
  readonly dialect: Dialect;
  readonly file: string;
  readonly sha256: string;
  readonly schema: NormalisedSchema;
  /** Sorted by name. */
  readonly definitions: ReadonlyMap<string, DefinitionModel>;
  /** Sorted by method name. */
  readonly methods: readonly MethodModel[];
  /** Sorted by code, descending (-32002 before -32700). */
  readonly errorCodes: readonly ErrorCodeModel[];
  readonly errorRanges: readonly ErrorRangeModel[];
  /** Codes that prove a peer speaks the modern protocol (fallback must not happen). */
  readonly modernSignalCodes: readonly number[];
  /** Sorted by constant name. */
  readonly metaKeys: readonly MetaKeyModel[];
  /** Present for eras whose HTTP transport routes on headers. */
  readonly http: HttpModel | null;
  readonly uiExtension: UiExtensionModel;
}

export const DIRECTION_UNIONS: readonly { union: string; direction: Direction; kind: MethodKind }[] = [
  { union: "ClientRequest", direction: "client-to-server", kind: "request" },
  { union: "ServerRequest", direction: "server-to-client", kind: "request" },
  { union: "ClientNotification", direction: "client-to-server", kind: "notification" },
  { union: "ServerNotification", direction: "server-to-client", kind: "notification" },
  { union: "InputRequest", direction: "server-to-client", kind: "input" },
];
