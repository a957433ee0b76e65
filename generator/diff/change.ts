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
  | "batches-added"
  | "batches-removed"
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
  | "undeprecated"
  | "property-moved"
  | "definition-extracted"
  | "loosened"
  | "index-signature-changed"
  | "description-changed"
  | "dialect-changed";

/**
 * wire: what peers send and accept changed. types: only the generated types change (the
 * schemas accept the same JSON). description: only prose or annotations changed.
 */
export type Level = "wire" | "types" | "description";

/** What a change is about; also the order of groups in the output. */
export type SubjectKind = "protocol" | "method" | "definition" | "error-code" | "meta-key";
export const SUBJECT_ORDER: readonly SubjectKind[] = ["protocol", "method", "definition", "error-code", "meta-key"];

/** One place a change was found: a collapsed entry lists every one, so tools lose nothing. */
export interface Location {
  /** The change found here; in a location of a collapsed entry, the finer one (`property-added` on one definition, …). */
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
  /** Of this location; on a `Change`, the worst over all its locations. */
  readonly severity: Readonly<Record<Side, Severity>>;
}

/** A reported change: its first location's fields, and what holds for the entry as a whole. */
export interface Change extends Location {
  readonly level: Level;
  /** Where a fact not read from the schema structure comes from (facts.json's spec page, a description). */
  readonly source: string | null;
  /** Every place this change applies, the entry's own first; one for a change found once. */
  readonly locations: readonly Location[];
  /** Why the entry's first place changed, as data; absent when there is nothing to say beyond the id. */
  readonly cause?: Cause;
}

/** One side of a diff. `typescript`: where its schema.ts was read from, null when none was pulled (deprecations from facts alone). */
export interface DiffRelease {
  readonly version: string;
  readonly file: string;
  readonly era: string;
  readonly dialect: string;
  readonly schemaPage: string | null;
  readonly typescript: string | null;
}

export interface DiffReport {
  readonly old: DiffRelease;
  readonly new: DiffRelease;
  readonly summary: DiffSummary;
  /** For definition subjects: the methods (in either release) whose message, params or result it is. */
  readonly methodsOf: Readonly<Record<string, readonly string[]>>;
  /** Deterministically sorted: by subject kind, subject, path, id, pointers. */
  readonly changes: readonly Change[];
}

export interface DiffSummary {
  /** Entries (every change once). */
  readonly total: number;
  /** Places, summed over entries' locations. */
  readonly locations: number;
  readonly breaking: Readonly<Record<Side, number>>;
  readonly byId: Readonly<Partial<Record<ChangeId, number>>>;
}

/** The id `diff new old` reports for a change `diff old new` reports as `id`. */
export const MIRROR_ID: Readonly<Record<ChangeId, ChangeId>> = {
  "era-changed": "era-changed",
  "batches-added": "batches-removed",
  "batches-removed": "batches-added",
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
  "property-moved": "property-moved",
  "definition-extracted": "definition-extracted",
  loosened: "loosened",
  "index-signature-changed": "index-signature-changed",
  "description-changed": "description-changed",
  "dialect-changed": "dialect-changed",
};

/** Why a finding is what it is, as data: `consolidate` groups findings by these and never re-reads their messages. */
export interface Cause {
  /** A property added, removed or changing requiredness: whether it is (for a removal: was) required. */
  readonly required?: boolean;
  /** Only the generated types changed: the object type gained or lost its index signature. */
  readonly indexSignature?: "gained" | "lost";
  /** The definitions the old and the new state name (a property's type, a union member, a method's results). */
  readonly references?: { readonly old: readonly string[]; readonly new: readonly string[] };
  /** A property no longer declared by an object that keeps its index signature: the signature types its key now. */
  readonly undeclared?: boolean;
  /** An error code removed: the code the spec uses instead (facts.json). */
  readonly replacedBy?: number;
}

/** What the comparers find, one per place; `consolidate` turns findings into entries. */
export type Finding = Omit<Change, "level" | "source" | "locations" | "cause"> & {
  readonly level?: Level;
  readonly source?: string | null;
  readonly cause?: Cause;
};
