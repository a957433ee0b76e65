import { BindgenError, joinPointer } from "../common/failures.ts";
import { parseJson, readRaw } from "../load/read.ts";
import type { JsonType } from "../load/schema-node.ts";
import { compareReleases, DRAFT_RELEASE, RELEASE_NAME } from "../load/lock.ts";
import type { Era } from "./protocol-model.ts";
import type { ClientAuthFacts } from "../runtime/client/client-auth.ts";

const JSON_TYPES: readonly JsonType[] = ["array", "boolean", "integer", "null", "number", "object", "string"];

/**
 * `schema/facts.json`: what the spec says only in prose or in its TypeScript source. Each
 * entry is checked here so a typo in the facts fails loudly with its pointer.
 *
 * Which releases a fact holds for: all, an era, or a span from the release that introduced it to the one
 * it ended with (`to`, inclusive), open-ended when the fact still holds, so a release the package does not know
 * yet (a draft, a newer date) inherits it. A list of releases is refused: it would drop every later release.
 */
export type VersionSelector = "*" | Era | ReleaseSpan;

export interface ReleaseSpan {
  readonly from: string;
  readonly to?: string;
}

export interface ErrorCodeFact {
  readonly name: string;
  readonly code: number;
  readonly versions: VersionSelector;
  readonly send: boolean;
  readonly source: string;
  /** The code the spec says to send instead, once this one is no longer sent. */
  readonly replacedBy: { readonly code: number; readonly versions: VersionSelector; readonly source: string } | null;
}

export interface DeprecationFact {
  readonly versions: VersionSelector;
  readonly feature: string;
  readonly methods: readonly string[];
  readonly definitions: readonly string[];
  /** `Definition.property` paths. */
  readonly properties: readonly string[];
  /** Reserved `_meta` keys. */
  readonly metaKeys: readonly string[];
  /** Only these values of the properties are deprecated, not the properties themselves. */
  readonly values: readonly string[] | null;
  readonly source: string;
}

export interface Facts {
  readonly file: string;
  readonly sha256: string;
  readonly errorCodes: readonly ErrorCodeFact[];
  readonly errorRanges: readonly { name: string; from: number; to: number; allocate: boolean; source: string }[];
  readonly modernSignalCodes: readonly number[];
  readonly emptyResultMethods: readonly string[];
  readonly metaKeys: readonly {
    key: string;
    versions: VersionSelector;
    where: "request" | "result" | "notification";
    source: string;
  }[];
  readonly deprecations: readonly DeprecationFact[];
  readonly http: {
    protocolVersionHeader: string;
    methodHeader: string;
    nameHeader: string;
    nameParam: Readonly<Record<string, string>>;
    paramHeaderPrefix: string;
    headerAnnotation: string;
    headerParamTypes: readonly string[];
    toolCall: { method: string; argumentsParam: string };
    sentinel: { prefix: string; suffix: string };
    statuses: { accepted: number; result: number; errors: readonly { code: number; status: number; source: string }[] };
    eras: VersionSelector;
    source: string;
  };
  /** What dispatchers need beyond the method tables: which notification cancels, which reports progress, the default resultType. */
  readonly dispatch: {
    cancel: {
      method: string;
      requestIdParam: string;
      notCancellable: string[];
      notCancellableSource: string;
      versions: VersionSelector;
      source: string;
    };
    progress: { method: string; tokenParam: string; metaKey: string; versions: VersionSelector; source: string };
    resultTypeDefault: { property: string; value: string; versions: VersionSelector; source: string };
    /** Requests that must never be part of a JSON-RPC batch, in releases that have batches. */
    batch: { notBatchable: string[]; versions: VersionSelector; source: string; transportSource: string };
  };
  /** Where schema.json slipped from schema.ts, which the spec generates it from: the node at `path` in a definition gets schema.ts's types, in the types and the validators alike. */
  readonly typeCorrections: readonly {
    versions: VersionSelector;
    definition: string;
    path: readonly (string | number)[];
    /** The slipped types: the correction applies only while the node still has them. */
    was: readonly JsonType[];
    type: readonly JsonType[];
    source: string;
  }[];
  /** `Definition.property` objects the JSON leaves open for a reason (JSON Schema objects): typed with an index signature beside their keys. Types only. */
  readonly openObjects: readonly { versions: VersionSelector; properties: readonly string[]; source: string }[];
  /** Releases whose `_meta` objects are open (an index signature beside the reserved keys). */
  readonly openMeta: { versions: VersionSelector; source: string };
  /**
   * Strings the schema leaves open whose known values schema.ts lists (`ResultType`): the definition and every property
   * so named that the schema types as a plain string list them and stay open. Types only.
   */
  readonly openEnums: readonly {
    versions: VersionSelector;
    definition: string;
    property: string;
    values: readonly string[];
    source: string;
  }[];
  /** Narrower types for the bindings than the schema states, each backed by spec prose. Validators ignore them. */
  readonly typeRefinements: readonly {
    versions: VersionSelector;
    definition: string;
    property: string;
    const: string | number | boolean;
    source: string;
  }[];
  /** The Streamable HTTP headers of session-based releases (the stateless ones name theirs under `http`), by constant name. */
  readonly sessionHeaders: readonly { name: string; header: string; versions: VersionSelector; source: string }[];
  /** How an HTTP server answers as an OAuth resource server (basic/authorization), by rule; a rule no entry sets is off. */
  readonly resourceServerAuth: readonly ResourceServerAuthFact[];
  /** The `_meta` key prefixes a release reserves for MCP: those whose label at `position` is one of `labels`. */
  readonly reservedMetaPrefixes: readonly {
    labels: readonly string[];
    position: "second" | "penultimate";
    versions: VersionSelector;
    source: string;
  }[];
  /** The spec site's schema reference page, `{version}` filled in, for the releases that have one. */
  readonly schemaPage: { url: string; versions: VersionSelector; source: string };
  /** The releases whose tools page answers arguments that do not fit `inputSchema` with a tool error (`isError`). */
  readonly toolArgumentErrors: { versions: VersionSelector; source: string };
  /** The client's authorization rules that differ by release, each with the releases it holds for (`clientAuthFor` resolves them). */
  readonly clientAuth: readonly ClientAuthRule[];
  readonly uiExtension: {
    id: string;
    metaKey: string;
    resourceUriKey: string;
    flatMetaKey: string;
    clientCapability: unknown;
    source: string;
  };
}

/** The resource-server rules that are on or off by release (runtime/server/bearer-gate.ts `ResourceServerRules`). */
export const BOOLEAN_AUTH_RULES = [
  "resourceMetadataInChallenge",
  "scopeInChallenge",
  "grantedScopesInChallenge",
] as const;
export type BooleanAuthRule = (typeof BOOLEAN_AUTH_RULES)[number];

export type ResourceServerAuthFact = { readonly versions: VersionSelector; readonly source: string } & (
  | { readonly rule: BooleanAuthRule; readonly value: boolean }
  | { readonly rule: "withheldScopes"; readonly value: readonly string[] }
);
/** The rules of ClientAuthFacts, each a value some releases share. */
export type ClientAuthRuleName = Exclude<keyof ClientAuthFacts, "release" | "source">;

export interface ClientAuthRule {
  readonly rule: ClientAuthRuleName;
  readonly versions: VersionSelector;
  readonly value: ClientAuthFacts[ClientAuthRuleName];
  readonly source: string;
}

const CLIENT_AUTH_RULES: Readonly<Record<ClientAuthRuleName, "strings" | "boolean">> = {
  resourceMetadata: "strings",
  serverMetadata: "strings",
  requireS256: "boolean",
  registration: "strings",
  applicationType: "boolean",
  stepUpUnion: "boolean",
  offlineAccess: "boolean",
};

/**
 * A release's client authorization rules, or null when some rule has no value for it (a release before
 * protected resource metadata). `source` is the page of the rule that names the newest release.
 */
export function clientAuthFor(facts: Facts, version: string, era: Era): ClientAuthFacts | null {
  const picked = new Map<string, ClientAuthRule>();
  for (const rule of facts.clientAuth) if (appliesTo(rule.versions, version, era)) picked.set(rule.rule, rule);
  const names = Object.keys(CLIENT_AUTH_RULES) as ClientAuthRuleName[];
  if (!names.every((name) => picked.has(name))) return null;
  const value = <K extends ClientAuthRuleName>(name: K): ClientAuthFacts[K] =>
    picked.get(name)!.value as ClientAuthFacts[K];
  return {
    release: version,
    resourceMetadata: value("resourceMetadata"),
    serverMetadata: value("serverMetadata"),
    requireS256: value("requireS256"),
    registration: value("registration"),
    applicationType: value("applicationType"),
    stepUpUnion: value("stepUpUnion"),
    offlineAccess: value("offlineAccess"),
    source: newest([...picked.values()]).source.replace(/#.*$/, ""),
  };
}

/** The rule whose span starts with the latest release: its page is the release's own. */
function newest(rules: readonly ClientAuthRule[]): ClientAuthRule {
  const from = (rule: ClientAuthRule): string => (typeof rule.versions === "object" ? rule.versions.from : "");
  return rules.reduce((best, rule) => (compareReleases(from(rule), from(best)) > 0 ? rule : best));
}

export function appliesTo(selector: VersionSelector, version: string, era: Era): boolean {
  if (selector === "*") return true;
  if (selector === "legacy" || selector === "modern") return selector === era;
  // A schema read under a name that is no release (`diff drafts/next.json`) has no place in the order.
  if (!RELEASE_NAME.test(version)) return false;
  return (
    compareReleases(version, selector.from) >= 0 &&
    (selector.to === undefined || compareReleases(version, selector.to) <= 0)
  );
}

export function loadFacts(file: string): Facts {
  const raw = readRaw(file);
  const doc = parseJson(file, raw.bytes);
  const c = new Checker(file);
  const root = c.object(doc, "");
  const errorCodes = c.array(root, "errorCodes").map(([v, p]) => {
    const o = c.object(v, p);
    return {
      name: c.string(o, p, "name"),
      code: c.integer(o, p, "code"),
      versions: c.selector(o, p),
      send: c.boolean(o, p, "send"),
      source: c.string(o, p, "source"),
      replacedBy: o["replacedBy"] === undefined ? null : replacement(c, o, p),
    };
  });
  const errorRanges = c.array(root, "errorRanges").map(([v, p]) => {
    const o = c.object(v, p);
    return {
      name: c.string(o, p, "name"),
      from: c.integer(o, p, "from"),
      to: c.integer(o, p, "to"),
      allocate: c.boolean(o, p, "allocate"),
      source: c.string(o, p, "source"),
    };
  });
  const signals = c.object(root["modernSignalCodes"], "/modernSignalCodes");
  const empty = c.object(root["emptyResultMethods"], "/emptyResultMethods");
  const metaKeys = c.array(root, "metaKeys").map(([v, p]) => {
    const o = c.object(v, p);
    const where = c.string(o, p, "where");
    if (where !== "request" && where !== "result" && where !== "notification") {
      throw new BindgenError(file, p + "/where", '"request", "result" or "notification"');
    }
    return { key: c.string(o, p, "key"), versions: c.selector(o, p), where, source: c.string(o, p, "source") } as const;
  });
  const deprecations = c.array(root, "deprecations").map(([v, p]) => {
    const o = c.object(v, p);
    return {
      versions: c.selector(o, p),
      feature: c.string(o, p, "feature"),
      methods: c.strings(o, p, "methods"),
      definitions: c.strings(o, p, "definitions"),
      properties: o["properties"] === undefined ? [] : c.strings(o, p, "properties"),
      metaKeys: o["metaKeys"] === undefined ? [] : c.strings(o, p, "metaKeys"),
      values: o["values"] === undefined ? null : c.strings(o, p, "values"),
      source: c.string(o, p, "source"),
    };
  });
  const typeRefinements = c.array(root, "typeRefinements").map(([v, p]) => {
    const o = c.object(v, p);
    const value = o["const"];
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      throw new BindgenError(file, p + "/const", "a string, number or boolean");
    }
    return {
      versions: c.selector(o, p),
      definition: c.string(o, p, "definition"),
      property: c.string(o, p, "property"),
      const: value,
      source: c.string(o, p, "source"),
    };
  });
  const sessionHeaders = c.array(root, "sessionHeaders").map(([v, p]) => {
    const o = c.object(v, p);
    return {
      name: c.string(o, p, "name"),
      header: c.string(o, p, "header"),
      versions: c.selector(o, p),
      source: c.string(o, p, "source"),
    };
  });
  const resourceServerAuth = c.array(root, "resourceServerAuth").map(([v, p]): ResourceServerAuthFact => {
    const o = c.object(v, p);
    const rule = c.string(o, p, "rule");
    const common = { versions: c.selector(o, p), source: c.string(o, p, "source") };
    if (rule === "withheldScopes") return { rule, value: c.strings(o, p, "value"), ...common };
    if (BOOLEAN_AUTH_RULES.includes(rule as BooleanAuthRule))
      return { rule: rule as BooleanAuthRule, value: c.boolean(o, p, "value"), ...common };
    throw new BindgenError(file, p + "/rule", `one of ${[...BOOLEAN_AUTH_RULES, "withheldScopes"].join(", ")}`);
  });
  const reservedMetaPrefixes = c.array(root, "reservedMetaPrefixes").map(([v, p]) => {
    const o = c.object(v, p);
    const position = c.string(o, p, "position");
    if (position !== "second" && position !== "penultimate") {
      throw new BindgenError(file, p + "/position", '"second" or "penultimate"');
    }
    return {
      labels: c.strings(o, p, "labels"),
      position,
      versions: c.selector(o, p),
      source: c.string(o, p, "source"),
    } as const;
  });
  const openObjects = c.array(root, "openObjects").map(([v, p]) => {
    const o = c.object(v, p);
    const properties = c.strings(o, p, "properties");
    if (!properties.every((x) => /^\w+\.\w+$/.test(x)))
      throw new BindgenError(file, p + "/properties", "Definition.property names");
    return { versions: c.selector(o, p), properties, source: c.string(o, p, "source") };
  });
  const openEnums = c.array(root, "openEnums").map(([v, p]) => {
    const o = c.object(v, p);
    return {
      versions: c.selector(o, p),
      definition: c.string(o, p, "definition"),
      property: c.string(o, p, "property"),
      values: c.strings(o, p, "values"),
      source: c.string(o, p, "source"),
    };
  });
  const http = c.object(root["http"], "/http");
  const nameParam = c.object(http["nameParam"], "/http/nameParam");
  const ui = c.object(root["uiExtension"], "/uiExtension");
  const toolCall = c.object(http["toolCall"], "/http/toolCall");
  const sentinel = c.object(http["sentinel"], "/http/sentinel");
  const statuses = c.object(http["statuses"], "/http/statuses");
  const dispatch = c.object(root["dispatch"], "/dispatch");
  const cancel = c.object(dispatch["cancel"], "/dispatch/cancel");
  const progress = c.object(dispatch["progress"], "/dispatch/progress");
  const resultTypeDefault = c.object(dispatch["resultTypeDefault"], "/dispatch/resultTypeDefault");
  const batch = c.object(dispatch["batch"], "/dispatch/batch");
  const openMeta = c.object(root["openMeta"], "/openMeta");
  const typeCorrections = c.array(root, "typeCorrections").map(([v, p]) => {
    const o = c.object(v, p);
    const path = o["path"];
    if (!Array.isArray(path) || !path.every((k) => typeof k === "string" || Number.isInteger(k)))
      throw new BindgenError(file, p + "/path", "an array of keys and indices");
    const types = (key: string) => {
      const list = c.strings(o, p, key);
      if (!list.every((t) => JSON_TYPES.includes(t as JsonType)))
        throw new BindgenError(file, joinPointer(p, key), `JSON types (${JSON_TYPES.join(", ")})`);
      return list as JsonType[];
    };
    return {
      versions: c.selector(o, p),
      definition: c.string(o, p, "definition"),
      path: path as (string | number)[],
      was: types("was"),
      type: types("type"),
      source: c.string(o, p, "source"),
    };
  });
  const page = c.object(root["schemaPage"], "/schemaPage");
  const argumentErrors = c.object(root["toolArgumentErrors"], "/toolArgumentErrors");
  const clientAuth = c.array(c.object(root["clientAuth"], "/clientAuth"), "rules", "/clientAuth").map(([v, p]) => {
    const o = c.object(v, p);
    const rule = c.string(o, p, "rule");
    if (!Object.hasOwn(CLIENT_AUTH_RULES, rule))
      throw new BindgenError(file, p + "/rule", `one of ${Object.keys(CLIENT_AUTH_RULES).join(", ")}`);
    const name = rule as ClientAuthRuleName;
    const value = CLIENT_AUTH_RULES[name] === "boolean" ? c.boolean(o, p, "value") : c.strings(o, p, "value");
    return {
      rule: name,
      versions: c.selector(o, p),
      value: value as ClientAuthFacts[ClientAuthRuleName],
      source: c.string(o, p, "source"),
    };
  });
  return {
    file,
    sha256: raw.sha256,
    errorCodes,
    errorRanges,
    modernSignalCodes: c.integers(signals, "/modernSignalCodes", "codes"),
    emptyResultMethods: c.strings(empty, "/emptyResultMethods", "methods"),
    metaKeys,
    deprecations,
    typeRefinements,
    openEnums,
    openObjects,
    sessionHeaders,
    resourceServerAuth,
    reservedMetaPrefixes,
    http: {
      protocolVersionHeader: c.string(http, "/http", "protocolVersionHeader"),
      methodHeader: c.string(http, "/http", "methodHeader"),
      nameHeader: c.string(http, "/http", "nameHeader"),
      nameParam: Object.fromEntries(
        Object.keys(nameParam)
          .sort()
          .map((k) => [k, c.string(nameParam, "/http/nameParam", k)]),
      ),
      paramHeaderPrefix: c.string(http, "/http", "paramHeaderPrefix"),
      headerAnnotation: c.string(http, "/http", "headerAnnotation"),
      headerParamTypes: c.strings(http, "/http", "headerParamTypes"),
      toolCall: {
        method: c.string(toolCall, "/http/toolCall", "method"),
        argumentsParam: c.string(toolCall, "/http/toolCall", "argumentsParam"),
      },
      sentinel: {
        prefix: c.string(sentinel, "/http/sentinel", "prefix"),
        suffix: c.string(sentinel, "/http/sentinel", "suffix"),
      },
      statuses: {
        accepted: c.integer(statuses, "/http/statuses", "accepted"),
        result: c.integer(statuses, "/http/statuses", "result"),
        errors: c.array(statuses, "errors", "/http/statuses").map(([v, p]) => {
          const o = c.object(v, p);
          return { code: c.integer(o, p, "code"), status: c.integer(o, p, "status"), source: c.string(o, p, "source") };
        }),
      },
      eras: c.selector(http, "/http", "eras"),
      source: c.string(http, "/http", "source"),
    },
    dispatch: {
      cancel: {
        method: c.string(cancel, "/dispatch/cancel", "method"),
        requestIdParam: c.string(cancel, "/dispatch/cancel", "requestIdParam"),
        notCancellable: c.strings(cancel, "/dispatch/cancel", "notCancellable"),
        notCancellableSource: c.string(cancel, "/dispatch/cancel", "notCancellableSource"),
        versions: c.selector(cancel, "/dispatch/cancel"),
        source: c.string(cancel, "/dispatch/cancel", "source"),
      },
      progress: {
        method: c.string(progress, "/dispatch/progress", "method"),
        tokenParam: c.string(progress, "/dispatch/progress", "tokenParam"),
        metaKey: c.string(progress, "/dispatch/progress", "metaKey"),
        versions: c.selector(progress, "/dispatch/progress"),
        source: c.string(progress, "/dispatch/progress", "source"),
      },
      resultTypeDefault: {
        property: c.string(resultTypeDefault, "/dispatch/resultTypeDefault", "property"),
        value: c.string(resultTypeDefault, "/dispatch/resultTypeDefault", "value"),
        versions: c.selector(resultTypeDefault, "/dispatch/resultTypeDefault"),
        source: c.string(resultTypeDefault, "/dispatch/resultTypeDefault", "source"),
      },
      batch: {
        notBatchable: c.strings(batch, "/dispatch/batch", "notBatchable"),
        versions: c.selector(batch, "/dispatch/batch"),
        source: c.string(batch, "/dispatch/batch", "source"),
        transportSource: c.string(batch, "/dispatch/batch", "transportSource"),
      },
    },
    typeCorrections,
    clientAuth,
    openMeta: { versions: c.selector(openMeta, "/openMeta"), source: c.string(openMeta, "/openMeta", "source") },
    schemaPage: {
      url: c.string(page, "/schemaPage", "url"),
      versions: c.selector(page, "/schemaPage"),
      source: c.string(page, "/schemaPage", "source"),
    },
    toolArgumentErrors: {
      versions: c.selector(argumentErrors, "/toolArgumentErrors"),
      source: c.string(argumentErrors, "/toolArgumentErrors", "source"),
    },
    uiExtension: {
      id: c.string(ui, "/uiExtension", "id"),
      metaKey: c.string(ui, "/uiExtension", "metaKey"),
      resourceUriKey: c.string(ui, "/uiExtension", "resourceUriKey"),
      flatMetaKey: c.string(ui, "/uiExtension", "flatMetaKey"),
      clientCapability: ui["clientCapability"] ?? {},
      source: c.string(ui, "/uiExtension", "source"),
    },
  };
}

type Obj = { readonly [key: string]: unknown };

function replacement(c: Checker, o: Obj, p: string): NonNullable<ErrorCodeFact["replacedBy"]> {
  const at = joinPointer(p, "replacedBy");
  const r = c.object(o["replacedBy"], at);
  return { code: c.integer(r, at, "code"), versions: c.selector(r, at), source: c.string(r, at, "source") };
}

class Checker {
  constructor(private readonly file: string) {}

  object(value: unknown, pointer: string): Obj {
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw new BindgenError(this.file, pointer, "an object");
    return value as Obj;
  }
  array(o: Obj, key: string, within = ""): [unknown, string][] {
    const value = o[key];
    const pointer = joinPointer(within, key);
    if (!Array.isArray(value)) throw new BindgenError(this.file, pointer, "an array");
    return value.map((v, i) => [v, joinPointer(pointer, i)]);
  }
  string(o: Obj, p: string, key: string): string {
    const v = o[key];
    if (typeof v !== "string") throw new BindgenError(this.file, joinPointer(p, key), "a string");
    return v;
  }
  boolean(o: Obj, p: string, key: string): boolean {
    const v = o[key];
    if (typeof v !== "boolean") throw new BindgenError(this.file, joinPointer(p, key), "a boolean");
    return v;
  }
  integer(o: Obj, p: string, key: string): number {
    const v = o[key];
    if (!Number.isInteger(v)) throw new BindgenError(this.file, joinPointer(p, key), "an integer");
    return v as number;
  }
  strings(o: Obj, p: string, key: string): string[] {
    const v = o[key];
    if (!Array.isArray(v) || !v.every((s) => typeof s === "string"))
      throw new BindgenError(this.file, joinPointer(p, key), "an array of strings");
    return v;
  }
  integers(o: Obj, p: string, key: string): number[] {
    const v = o[key];
    if (!Array.isArray(v) || !v.every((s) => Number.isInteger(s)))
      throw new BindgenError(this.file, joinPointer(p, key), "an array of integers");
    return v as number[];
  }
  selector(o: Obj, p: string, key = "versions"): VersionSelector {
    const v = o[key];
    const at = joinPointer(p, key);
    if (v === "*" || v === "legacy" || v === "modern") return v;
    const expected =
      '"*", "legacy", "modern" or { "from": "<release>", "to"?: "<release>" } (a list of releases would leave out every later one)';
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw new BindgenError(this.file, at, expected);
    const span = v as Obj;
    const unknown = Object.keys(span).filter((k) => k !== "from" && k !== "to");
    if (unknown.length > 0) throw new BindgenError(this.file, joinPointer(at, unknown[0]!), expected);
    const from = this.release(span, at, "from");
    if (span["to"] === undefined) return { from };
    const to = this.release(span, at, "to");
    if (compareReleases(from, to) > 0)
      throw new BindgenError(
        this.file,
        joinPointer(at, "to"),
        `a release no earlier than "from" (${from})`,
        `got "${to}"`,
      );
    return { from, to };
  }
  private release(o: Obj, p: string, key: string): string {
    const v = o[key];
    if (typeof v !== "string" || !RELEASE_NAME.test(v))
      throw new BindgenError(
        this.file,
        joinPointer(p, key),
        `a release (YYYY-MM-DD or "${DRAFT_RELEASE}")`,
        `got ${JSON.stringify(v)}`,
      );
    return v;
  }
}
