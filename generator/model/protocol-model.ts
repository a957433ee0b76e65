import type { Dialect, NormalisedSchema, SchemaNode } from "../load/schema-node.ts";
import type { ClientAuthFacts } from "../runtime/client/client-auth.ts";

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
  /** The definition pairing this request with its results (`CallToolResultResponse`, modern schemas); null where the schema has none. */
  readonly response: string | null;
  /**
   * Whether the message definition itself declares `jsonrpc` (and `id` for requests), as messages
   * do from 2025-11-25 on by extending the envelope types; up to 2025-06-18 the envelope is a
   * separate definition. Nothing changes on the wire either way: builders always write both.
   */
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
  /** The code the spec says to send instead in later releases (-32002 → -32602), with its page. */
  readonly replacedBy: { readonly code: number; readonly source: string } | null;
}

/** Something the spec marks deprecated in this release, and where it says so. */
export interface DeprecationModel {
  readonly kind: "method" | "definition" | "property" | "meta-key";
  /** A method, a definition, a `Definition.property` path or a reserved `_meta` key. */
  readonly name: string;
  /** Only these values of the property are deprecated, not the property (`includeContext`: "thisServer", "allServers"); null for the whole thing. */
  readonly values: readonly string[] | null;
  /** The spec page or TypeScript source (facts), or the schema pointer. */
  readonly source: string;
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
  /** The first definition declaring it (any scope). */
  readonly definition: string | null;
  /** The definition declaring it in each scope. */
  readonly definitionIn: Readonly<Partial<Record<MetaScope, string>>>;
}

export interface HttpModel {
  readonly protocolVersionHeader: string;
  readonly methodHeader: string;
  readonly nameHeader: string;
  /** method → the params key whose value is sent as `Mcp-Name`. */
  readonly nameParam: ReadonlyMap<string, string>;
  /** `Mcp-Param-`: prefix of the headers mirrored from annotated tool arguments. */
  readonly paramHeaderPrefix: string;
  /** The inputSchema keyword that marks an argument for mirroring (`x-mcp-header`). */
  readonly headerAnnotation: string;
  /** JSON Schema types an annotated argument may have. */
  readonly headerParamTypes: readonly string[];
  readonly toolCallMethod: string;
  readonly argumentsParam: string;
  /** Values that are not plain header text travel as `prefix` + Base64(UTF-8) + `suffix`. */
  readonly sentinel: { readonly prefix: string; readonly suffix: string };
  /** HTTP status of a notification the server accepted, of a result, and of each listed error code. */
  readonly acceptedStatus: number;
  readonly resultStatus: number;
  readonly errorStatus: ReadonlyMap<number, number>;
  readonly source: string;
}

/** What a dispatcher needs beyond the method tables; each part is null where the release lacks it. */
export interface DispatchModel {
  /** `notCancellable`: requests the sender must never cancel (initialize), where this release has them. */
  readonly cancel: {
    readonly method: string;
    readonly requestIdParam: string;
    readonly notCancellable: readonly string[];
  } | null;
  readonly progress: { readonly method: string; readonly tokenParam: string; readonly metaKey: string } | null;
  /** Modern: the `resultType` a result gets when the handler leaves it out. */
  /** `definition`: the open enum of its values (`ResultType`, facts.openEnums) where the schema defines one, else null (a plain string). */
  readonly resultTypeDefault: {
    readonly property: string;
    readonly value: string;
    readonly definition: string | null;
  } | null;
  /**
   * Where messages may come in batches (`envelope.batches`): the requests a batch must not hold (initialize), and the
   * transport page that lets a POST body or a stdio line be a batch; null elsewhere.
   */
  readonly batch: { readonly notBatchable: readonly string[]; readonly transportSource: string } | null;
}

/**
 * A stateless release's result that asks the client for more input before the request can finish (`input_required`),
 * and the members that carry the exchange; read from the schema's structure.
 */
export interface InputRequiredModel {
  readonly definition: string;
  /** The value of the `dispatch.resultTypeDefault` key that marks it (`input_required`): the const of that key in its definition. */
  readonly resultType: string;
  /** Its member holding the embedded input requests, keyed by the server (`inputRequests`): a map of the input request union. */
  readonly requests: string;
  /** The retried request's params member carrying the client's answers under the same keys (`inputResponses`): a map of the input requests' results. */
  readonly responses: string;
  /** Its opaque state, echoed untouched in the retried request's params (`requestState`): the member both declare. */
  readonly state: string;
  /** The requests that may answer with it, sorted. */
  readonly methods: readonly string[];
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

/** What the members of a message union are. */
export type MessageUnionRole = MethodKind | "result" | "message";

/** A union that only lists messages (`ClientRequest`, `ServerResult`, `JSONRPCMessage`): its membership is the method list. */
export interface MessageUnionModel {
  readonly name: string;
  readonly role: MessageUnionRole;
  /** Who sends its members; null for a union of messages going both ways. */
  readonly direction: Direction | null;
}

/** The JSON-RPC response envelopes of a release. */
export interface EnvelopeModel {
  /** The success response (`JSONRPCResultResponse`; `JSONRPCResponse` up to 2025-06-18). */
  readonly resultResponse: string | null;
  /** The error response (`JSONRPCErrorResponse`; `JSONRPCError` up to 2025-06-18). */
  readonly errorResponse: string | null;
  /** Whether an error response may omit `id` (2025-11-25 on: errors raised before the request id is known). */
  readonly errorIdOptional: boolean;
  /** Whether the message union (`JSONRPCMessage`) admits arrays of messages: JSON-RPC batches (2025-03-26 only). */
  readonly batches: boolean;
  /** The message union's members that are those arrays, as the union writes them (a `$ref` or inline): empty unless `batches`. */
  readonly batchMembers: readonly SchemaNode[];
}

export interface ProtocolModel {
  readonly version: string;
  readonly era: Era;
  readonly eraEvidence: EraEvidence;
  readonly dialect: Dialect;
  readonly file: string;
  readonly sha256: string;
  readonly schema: NormalisedSchema;
  /** The schema with its upstream slips corrected (facts.typeCorrections, toward schema.ts): what the validators check, and what the types say too. */
  readonly validated: NormalisedSchema;
  /** Sorted by name. */
  readonly definitions: ReadonlyMap<string, DefinitionModel>;
  /** Sorted by method name. */
  readonly methods: readonly MethodModel[];
  /** The message unions this schema defines, in MESSAGE_UNIONS order. */
  readonly messageUnions: readonly MessageUnionModel[];
  readonly envelope: EnvelopeModel;
  /** Sorted by code, descending (-32002 before -32700). */
  readonly errorCodes: readonly ErrorCodeModel[];
  readonly errorRanges: readonly ErrorRangeModel[];
  /** Codes that prove a peer speaks the modern protocol (fallback must not happen). */
  readonly modernSignalCodes: readonly number[];
  /** Sorted by constant name. */
  readonly metaKeys: readonly MetaKeyModel[];
  /**
   * Keys an earlier release reserved (a `facts.metaKeys` entry whose releases end before this one) that this release
   * does not: code written for that release still names them, which is no misspelling, so the checked `_meta` accepts
   * them with any value. Sorted. Keys only a schema declared are not seen here (a model reads its own release alone).
   */
  readonly formerMetaKeys: readonly string[];
  /** The `_meta` key prefixes this release reserves for MCP (a key under one that is no `metaKeys` entry is a mistake); null where none is. */
  readonly reservedMetaPrefix: {
    readonly labels: readonly string[];
    readonly position: "second" | "penultimate";
    readonly source: string;
  } | null;
  /** Sorted by kind, then name. Methods and definitions listed here also carry `deprecated: true`. */
  readonly deprecations: readonly DeprecationModel[];
  /** The HTTP header names this release's transport uses, by constant name (sorted): session facts, or the stateless routing headers. */
  readonly httpHeaders: readonly { readonly name: string; readonly header: string; readonly source: string }[];
  /** Present for eras whose HTTP transport routes on headers. */
  readonly http: HttpModel | null;
  /** How this release's HTTP server answers as an OAuth resource server (facts `resourceServerAuth`). */
  readonly resourceServerAuth: ResourceServerAuthModel;
  /** The client's authorization rules for this release (schema/facts.json `clientAuth`); null before protected resource metadata. */
  readonly clientAuth: ClientAuthFacts | null;
  readonly dispatch: DispatchModel;
  /**
   * The members a cacheable result carries (`CacheableResult`: how long a client may keep a list, a discovery result or
   * a read, and for whom), which servers write rather than each handler; null where results carry none.
   */
  readonly cacheMembers: { readonly ttl: string; readonly scope: string } | null;
  /** Task augmentation (2025-11-25): a request whose params carry `param` may be answered with `result` instead; null elsewhere. */
  readonly tasks: { readonly param: string; readonly result: string } | null;
  /** Null where no result asks for more input (every session-based release). */
  readonly inputRequired: InputRequiredModel | null;
  readonly uiExtension: UiExtensionModel;
  /** This release's schema reference page on the spec site, if it has one. */
  readonly schemaPage: string | null;
  /** How a tool's arguments that do not fit its `inputSchema` are answered (facts `toolArgumentErrors`). */
  readonly invalidToolArguments: "toolError" | "invalidParams";
  /** Where the release's schema.ts was read from (its `@deprecated` tags); null when none was pulled, so only facts say what is deprecated. */
  readonly typescript: string | null;
  /**
   * The version string on the wire (`PROTOCOL_VERSION`, `MCP-Protocol-Version`, `_meta` and negotiation): a dated
   * release's name; for the draft, its schema.ts's `LATEST_PROTOCOL_VERSION` (`DRAFT-2026-v1`), else "draft" itself,
   * which no peer on the spec's draft sends, so such bindings talk only to each other.
   */
  readonly protocolVersion: string;
}

/** The spec's names for its message unions: the one place the model reads roles from definition names. */
export const MESSAGE_UNIONS: readonly MessageUnionModel[] = [
  { name: "ClientRequest", direction: "client-to-server", role: "request" },
  { name: "ServerRequest", direction: "server-to-client", role: "request" },
  { name: "ClientNotification", direction: "client-to-server", role: "notification" },
  { name: "ServerNotification", direction: "server-to-client", role: "notification" },
  { name: "InputRequest", direction: "server-to-client", role: "input" },
  { name: "ClientResult", direction: "client-to-server", role: "result" },
  { name: "ServerResult", direction: "server-to-client", role: "result" },
  { name: "JSONRPCMessage", direction: null, role: "message" },
];

/** The resource-server rules of one release (runtime/server/bearer-gate.ts `ResourceServerRules`); a rule no fact sets is off. */
export interface ResourceServerAuthModel {
  /** A 401 names the protected resource metadata (`WWW-Authenticate: Bearer resource_metadata=…`). */
  readonly resourceMetadataInChallenge: boolean;
  /** A 401 carries the `scope` the request needs. */
  readonly scopeInChallenge: boolean;
  /** An `insufficient_scope` 403 names the scopes already granted beside the missing ones. */
  readonly grantedScopesInChallenge: boolean;
  /** Scopes never named in a challenge or in `scopes_supported`. */
  readonly withheldScopes: readonly string[];
  /** The method whose `params.name` names a tool (facts `http.toolCall`). */
  readonly toolCallMethod: string;
  /** The spec pages of the facts that apply. */
  readonly sources: readonly string[];
}
