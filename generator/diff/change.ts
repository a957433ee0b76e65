/**
 * What `mcp-bindgen diff` reports. Ids and field names are a contract for tools reading
 * `--format json`: add ids, never rename them.
 */
export type Side = "client" | "server";
export const SIDES: readonly Side[] = ["client", "server"];

/** breaking: code written for the old release fails against a peer on the new one. */
export type Severity = "breaking" | "compatible" | "none";

export type ChangeId =
  | "era-changed"
  | "method-added"
  | "method-removed"
  | "method-direction-changed"
  | "method-kind-changed"
  | "method-result-changed"
  | "definition-added"
  | "definition-removed"
  | "definition-renamed"
  | "property-added"
  | "property-removed"
  | "property-became-required"
  | "property-became-optional"
  | "type-changed"
  | "constraint-changed"
  | "union-member-added"
  | "union-member-removed"
  | "error-code-added"
  | "error-code-removed"
  | "error-code-renamed"
  | "meta-key-added"
  | "meta-key-removed"
  | "meta-key-became-required"
  | "meta-key-became-optional"
  | "deprecated"
  | "undeprecated";

/** What a change is about; also the order of groups in the output. */
export type SubjectKind = "protocol" | "method" | "definition" | "error-code" | "meta-key";
export const SUBJECT_ORDER: readonly SubjectKind[] = ["protocol", "method", "definition", "error-code", "meta-key"];

export interface Change {
  readonly id: ChangeId;
  readonly subjectKind: SubjectKind;
  /** The heading it is listed under: a method name, a definition name (the new one if renamed), a code, a key. */
  readonly subject: string;
  /** Where inside the subject (`params.arguments`, `content[]`); "" for the subject itself. */
  readonly path: string;
  /** One readable sentence. */
  readonly message: string;
  /** The old and new state in short text (a type, a direction list), when there is one. */
  readonly before: string | null;
  readonly after: string | null;
  /** RFC 6901 pointers into the old and new schema files, where the change has a node there. */
  readonly oldPointer: string | null;
  readonly newPointer: string | null;
  readonly severity: Readonly<Record<Side, Severity>>;
}

export interface DiffReport {
  readonly old: { readonly version: string; readonly file: string; readonly era: string };
  readonly new: { readonly version: string; readonly file: string; readonly era: string };
  readonly summary: DiffSummary;
  /** For definition subjects: the methods (in either release) whose message, params or result it is. */
  readonly methodsOf: Readonly<Record<string, readonly string[]>>;
  /** Deterministically sorted: by subject kind, subject, path, id, pointers. */
  readonly changes: readonly Change[];
}

export interface DiffSummary {
  readonly total: number;
  readonly breaking: Readonly<Record<Side, number>>;
  readonly byId: Readonly<Partial<Record<ChangeId, number>>>;
}

/** The id `diff new old` reports for a change `diff old new` reports as `id`. */
export const MIRROR_ID: Readonly<Record<ChangeId, ChangeId>> = {
  "era-changed": "era-changed",
  "method-added": "method-removed",
  "method-removed": "method-added",
  "method-direction-changed": "method-direction-changed",
  "method-kind-changed": "method-kind-changed",
  "method-result-changed": "method-result-changed",
  "definition-added": "definition-removed",
  "definition-removed": "definition-added",
  "definition-renamed": "definition-renamed",
  "property-added": "property-removed",
  "property-removed": "property-added",
  "property-became-required": "property-became-optional",
  "property-became-optional": "property-became-required",
  "type-changed": "type-changed",
  "constraint-changed": "constraint-changed",
  "union-member-added": "union-member-removed",
  "union-member-removed": "union-member-added",
  "error-code-added": "error-code-removed",
  "error-code-removed": "error-code-added",
  "error-code-renamed": "error-code-renamed",
  "meta-key-added": "meta-key-removed",
  "meta-key-removed": "meta-key-added",
  "meta-key-became-required": "meta-key-became-optional",
  "meta-key-became-optional": "meta-key-became-required",
  deprecated: "undeprecated",
  undeprecated: "deprecated",
};
