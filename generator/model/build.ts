import { compare } from "../common/code-point-order.ts";
import { BindgenError, joinPointer } from "../common/failures.ts";
import { compareReleases, RELEASE_NAME } from "../load/lock.ts";
import type { NormalisedSchema, SchemaNode, SchemaProperty } from "../load/schema-node.ts";
import { deref, propertyOf, shapeKey } from "../load/shape.ts";
import type { SourceDeprecation } from "../load/typescript-deprecations.ts";
import { appliesTo, clientAuthFor, type Facts } from "./facts.ts";
import {
  MESSAGE_UNIONS,
  type DefinitionModel,
  type DeprecationModel,
  type Direction,
  type EnvelopeModel,
  type Era,
  type ResourceServerAuthModel,
  type EraEvidence,
  type ErrorCodeModel,
  type InputRequiredModel,
  type MetaKeyModel,
  type MetaScope,
  type MethodModel,
  type ProtocolModel,
  type TypeRef,
} from "./protocol-model.ts";

/** The `@deprecated` tags of the release's pinned schema.ts, when it was pulled, and where that file comes from. */
export interface SourceFacts {
  readonly deprecations: readonly SourceDeprecation[];
  readonly source: string;
  /** A draft's `LATEST_PROTOCOL_VERSION`; null for a dated release (its name is its version) or when none is declared. */
  readonly protocolVersion?: string | null;
}

export function buildModel(
  version: string,
  schema: NormalisedSchema,
  facts: Facts,
  typescript: SourceFacts | null = null,
): ProtocolModel {
  const found = collectMethods(schema);
  const evidence = eraEvidence(schema, found);
  // The era is read from the schema, never from a list of version strings, so an unknown future
  // release is classified correctly: modern ⇔ discoverable and no handshake.
  const era: Era = evidence.hasDiscover && !evidence.hasInitialize ? "modern" : "legacy";

  const reservedKeys = metaKeys(version, era, schema, facts);
  const deprecations = deprecationsOf(
    version,
    era,
    schema,
    facts,
    typescript,
    found,
    new Set(reservedKeys.map((k) => k.key)),
  );
  const deprecatedDefs = new Set(deprecations.filter((d) => d.kind === "definition").map((d) => d.name));
  const deprecatedMethods = new Set(deprecations.filter((d) => d.kind === "method").map((d) => d.name));
  const definitions = new Map<string, DefinitionModel>();
  const openMeta = appliesTo(facts.openMeta.versions, version, era) ? metaDefinitions(schema) : null;
  const defined = new Set(schema.definitions.keys());
  const openObjects = facts.openObjects.filter((o) => appliesTo(o.versions, version, era)).flatMap((o) => o.properties);
  const validated = new Map<string, SchemaNode>();
  for (const [name, node] of schema.definitions) {
    const refinements = facts.typeRefinements.filter(
      (r) => r.definition === name && appliesTo(r.versions, version, era),
    );
    const corrections = facts.typeCorrections.filter(
      (c) => c.definition === name && appliesTo(c.versions, version, era),
    );
    const enums = facts.openEnums.filter((e) => appliesTo(e.versions, version, era));
    const corrected = correct(schema.file, node, corrections, facts, version);
    validated.set(name, corrected);
    const typed = listKnown(name, refine(corrected, refinements), enums, defined);
    const withOpen = openProperties(name, typed, openObjects);
    const refined = openMeta === null ? withOpen : openMetaObjects(openMeta.has(name), withOpen);
    definitions.set(name, { name, schema: refined, deprecated: deprecatedDefs.has(name) || node.deprecated === true });
  }

  const methods: MethodModel[] = [...found.values()]
    .map((m) => ({
      ...m,
      response: m.kind === "notification" ? null : responseOf(schema, m),
      results: m.kind === "notification" ? [] : pairResults(schema, facts, m),
      deprecated: deprecatedMethods.has(m.name) || definitions.get(m.definition)?.deprecated === true,
    }))
    .sort((a, b) => compare(a.name, b.name));

  const http = appliesTo(facts.http.eras, version, era)
    ? {
        protocolVersionHeader: facts.http.protocolVersionHeader,
        methodHeader: facts.http.methodHeader,
        nameHeader: facts.http.nameHeader,
        nameParam: new Map(Object.entries(facts.http.nameParam)),
        paramHeaderPrefix: facts.http.paramHeaderPrefix,
        headerAnnotation: facts.http.headerAnnotation,
        headerParamTypes: [...facts.http.headerParamTypes],
        toolCallMethod: facts.http.toolCall.method,
        argumentsParam: facts.http.toolCall.argumentsParam,
        sentinel: { ...facts.http.sentinel },
        acceptedStatus: facts.http.statuses.accepted,
        resultStatus: facts.http.statuses.result,
        errorStatus: new Map(facts.http.statuses.errors.map((e) => [e.code, e.status])),
        source: facts.http.source,
      }
    : null;
  const { cancel, progress, resultTypeDefault, batch } = facts.dispatch;
  const envelopeModel = envelope(schema);
  const hasMethod = (name: string) => methods.some((m) => m.name === name);
  const dispatch = {
    cancel:
      appliesTo(cancel.versions, version, era) && hasMethod(cancel.method)
        ? {
            method: cancel.method,
            requestIdParam: cancel.requestIdParam,
            notCancellable: cancel.notCancellable.filter(hasMethod),
          }
        : null,
    progress:
      appliesTo(progress.versions, version, era) && hasMethod(progress.method)
        ? { method: progress.method, tokenParam: progress.tokenParam, metaKey: progress.metaKey }
        : null,
    resultTypeDefault: appliesTo(resultTypeDefault.versions, version, era)
      ? {
          property: resultTypeDefault.property,
          value: resultTypeDefault.value,
          definition:
            facts.openEnums.find(
              (e) =>
                e.property === resultTypeDefault.property &&
                appliesTo(e.versions, version, era) &&
                schema.definitions.has(e.definition),
            )?.definition ?? null,
        }
      : null,
    batch:
      envelopeModel.batches && appliesTo(batch.versions, version, era)
        ? { notBatchable: batch.notBatchable.filter(hasMethod), transportSource: batch.transportSource }
        : null,
  };

  return {
    version,
    era,
    eraEvidence: evidence,
    dialect: schema.dialect,
    file: schema.file,
    sha256: schema.sha256,
    schema,
    validated: { ...schema, definitions: validated },
    definitions,
    methods,
    messageUnions: MESSAGE_UNIONS.filter((u) => schema.definitions.has(u.name)),
    envelope: envelopeModel,
    errorCodes: errorCodes(version, era, schema, facts),
    errorRanges: facts.errorRanges.map((r) => ({ ...r })),
    modernSignalCodes: [...facts.modernSignalCodes],
    metaKeys: reservedKeys,
    formerMetaKeys: formerMetaKeys(version, facts, reservedKeys),
    reservedMetaPrefix: reservedMetaPrefix(version, era, facts),
    deprecations,
    http,
    httpHeaders: httpHeaders(version, era, facts, http),
    resourceServerAuth: resourceServerAuth(version, era, facts),
    clientAuth: clientAuthFor(facts, version, era),
    dispatch,
    cacheMembers: cacheMembersOf(definitions),
    tasks: methods.some((m) => m.results.includes(TASK_RESULT)) ? { param: TASK_PARAM, result: TASK_RESULT } : null,
    inputRequired:
      dispatch.resultTypeDefault === null
        ? null
        : inputRequiredOf(schema, definitions, methods, dispatch.resultTypeDefault),
    uiExtension: { ...facts.uiExtension },
    schemaPage: appliesTo(facts.schemaPage.versions, version, era)
      ? facts.schemaPage.url.replace("{version}", version)
      : null,
    invalidToolArguments: appliesTo(facts.toolArgumentErrors.versions, version, era) ? "toolError" : "invalidParams",
    typescript: typescript?.source ?? null,
    protocolVersion: typescript?.protocolVersion ?? version,
  };
}

/** A release's resource-server rules: each off (or empty) unless a fact that applies sets it. */
function resourceServerAuth(version: string, era: Era, facts: Facts): ResourceServerAuthModel {
  const rules = {
    resourceMetadataInChallenge: false,
    scopeInChallenge: false,
    grantedScopesInChallenge: false,
    withheldScopes: [] as readonly string[],
  };
  const sources: string[] = [];
  for (const fact of facts.resourceServerAuth) {
    if (!appliesTo(fact.versions, version, era)) continue;
    if (fact.rule === "withheldScopes") rules.withheldScopes = fact.value;
    else rules[fact.rule] = fact.value;
    sources.push(fact.source);
  }
  return { ...rules, toolCallMethod: facts.http.toolCall.method, sources };
}

/** A release's header names: the session facts that apply, or a stateless release's routing headers (facts.http). */
function httpHeaders(
  version: string,
  era: Era,
  facts: Facts,
  http: ProtocolModel["http"],
): ProtocolModel["httpHeaders"] {
  const session = facts.sessionHeaders
    .filter((h) => appliesTo(h.versions, version, era))
    .map(({ name, header, source }) => ({ name, header, source }));
  const routing =
    http === null
      ? []
      : [
          { name: "protocolVersion", header: http.protocolVersionHeader, source: http.source },
          { name: "method", header: http.methodHeader, source: http.source },
          { name: "name", header: http.nameHeader, source: http.source },
        ];
  return [...session, ...routing].sort((a, b) => compare(a.name, b.name));
}

/**
 * Gives the node at each correction's path (JSON Schema keys: `properties`/name, `additionalProperties`, `items`, a combinator and
 * an index) schema.ts's types, while it still has the slipped ones (`was`): a release that inherits the fact after upstream fixed
 * the slip keeps its own types. A path that does not resolve is an error naming the fact in the release the fact was
 * written for (its span's first); a later release that inherits it and no longer has the node keeps its own types too.
 */
function correct(
  file: string,
  node: SchemaNode,
  corrections: Facts["typeCorrections"],
  facts: Facts,
  version: string,
): SchemaNode {
  let out = node;
  for (const c of corrections) {
    const inherited = typeof c.versions === "object" && c.versions.from !== version;
    // An inherited fact whose node is gone leaves the node it reached as it is.
    const missing = (n: SchemaNode): SchemaNode => {
      if (inherited) return n;
      throw new BindgenError(
        file,
        joinPointer(node.pointer, ...c.path),
        `a node for the type correction of ${c.definition} (${facts.file}#/typeCorrections/${facts.typeCorrections.indexOf(c)}: give its versions a "to" if the slip is gone)`,
      );
    };
    const replace = (n: SchemaNode, path: readonly (string | number)[]): SchemaNode => {
      if (path.length === 0)
        return [...(n.type ?? [])].sort().join() === [...c.was].sort().join() ? { ...n, type: [...c.type].sort() } : n;
      const [key, next, ...rest] = path;
      if (key === "additionalProperties")
        return typeof n.additionalProperties === "object"
          ? { ...n, additionalProperties: replace(n.additionalProperties, path.slice(1)) }
          : missing(n);
      if (key === "items") return n.items !== undefined ? { ...n, items: replace(n.items, path.slice(1)) } : missing(n);
      if (key === "properties") {
        if (n.properties?.some((p) => p.name === next) !== true) return missing(n);
        return {
          ...n,
          properties: n.properties.map((p) => (p.name === next ? { ...p, schema: replace(p.schema, rest) } : p)),
        };
      }
      const combinator = key === "anyOf" || key === "oneOf" || key === "allOf" ? key : undefined;
      const list = combinator === undefined ? undefined : n[combinator];
      if (combinator === undefined || list === undefined || typeof next !== "number" || list[next] === undefined)
        return missing(n);
      return { ...n, [combinator]: list.map((m, i) => (i === next ? replace(m, rest) : m)) };
    };
    out = replace(out, c.path);
  }
  return out;
}

/**
 * Gives open strings their known values: the fact's definition itself, and every property of its name that is a plain
 * string, which then names that definition as schema.ts does (`resultType: ResultType`) where the schema has it.
 */
function listKnown(
  name: string,
  node: SchemaNode,
  enums: Facts["openEnums"],
  defined: ReadonlySet<string>,
): SchemaNode {
  if (enums.length === 0) return node;
  const plainString = (n: SchemaNode): boolean =>
    n.type?.length === 1 &&
    n.type[0] === "string" &&
    n.const === undefined &&
    n.enum === undefined &&
    n.ref === undefined;
  const walk = (n: SchemaNode): SchemaNode => {
    const properties = n.properties?.map((p) => {
      const e = enums.find((x) => x.property === p.name);
      if (e === undefined || !plainString(p.schema)) return { ...p, schema: walk(p.schema) };
      const { type: _type, ...rest } = p.schema;
      return {
        ...p,
        schema: defined.has(e.definition) ? { ...rest, ref: e.definition } : { ...p.schema, known: e.values },
      };
    });
    return {
      ...n,
      ...(properties ? { properties } : {}),
      ...(n.items ? { items: walk(n.items) } : {}),
      ...(n.anyOf ? { anyOf: n.anyOf.map(walk) } : {}),
      ...(n.oneOf ? { oneOf: n.oneOf.map(walk) } : {}),
      ...(n.allOf ? { allOf: n.allOf.map(walk) } : {}),
    };
  };
  const own = enums.find((e) => e.definition === name);
  return own !== undefined && plainString(node) ? { ...walk(node), known: own.values } : walk(node);
}

/** Definitions that a `_meta` property refers to, directly or through aliases: the shapes of `_meta` objects. */
function metaDefinitions(schema: NormalisedSchema): Set<string> {
  const found = new Set<string>();
  const add = (name: string): void => {
    if (found.has(name)) return;
    found.add(name);
    const target = schema.definitions.get(name);
    if (target?.ref !== undefined) add(target.ref);
  };
  const visit = (node: SchemaNode): void => {
    for (const p of node.properties ?? []) {
      if (p.name === "_meta" && p.schema.ref !== undefined) add(p.schema.ref);
      visit(p.schema);
    }
    for (const child of [node.items, ...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])])
      if (child !== undefined) visit(child);
    if (typeof node.additionalProperties === "object") visit(node.additionalProperties);
  };
  for (const node of schema.definitions.values()) visit(node);
  return found;
}

/** An object schema with an index signature of `unknown` beside its declared keys (types only; validators already accept extra keys). */
function opened(node: SchemaNode): SchemaNode {
  const isObjectType = node.type === undefined || node.type.includes("object");
  if (!isObjectType || node.ref !== undefined || node.additionalProperties !== undefined) return node;
  return {
    ...node,
    type: node.type ?? ["object"],
    additionalProperties: { pointer: joinPointer(node.pointer, "additionalProperties") },
  };
}

/** Opens the inline objects facts.openObjects names (`Tool.inputSchema`) where the definition holds one; a reference or no such property stays as it is. */
function openProperties(name: string, node: SchemaNode, open: readonly string[]): SchemaNode {
  const keys = open.filter((p) => p.startsWith(`${name}.`)).map((p) => p.slice(name.length + 1));
  if (keys.length === 0 || node.properties === undefined) return node;
  return {
    ...node,
    properties: node.properties.map((p) =>
      keys.includes(p.name) && p.schema.ref === undefined ? { ...p, schema: opened(p.schema) } : p,
    ),
  };
}

/** Opens every inline `_meta` object in a definition, and the definition itself when it is a `_meta` shape. */
function openMetaObjects(isMetaDefinition: boolean, node: SchemaNode): SchemaNode {
  const walk = (n: SchemaNode): SchemaNode => {
    const properties = n.properties?.map((p) => ({
      ...p,
      schema: p.name === "_meta" && p.schema.ref === undefined ? opened(walk(p.schema)) : walk(p.schema),
    }));
    return {
      ...n,
      ...(properties ? { properties } : {}),
      ...(n.items ? { items: walk(n.items) } : {}),
      ...(n.anyOf ? { anyOf: n.anyOf.map(walk) } : {}),
      ...(n.oneOf ? { oneOf: n.oneOf.map(walk) } : {}),
      ...(n.allOf ? { allOf: n.allOf.map(walk) } : {}),
    };
  };
  const walked = walk(node);
  return isMetaDefinition ? opened(walked) : walked;
}

/**
 * Deprecations from facts (spec pages, the TypeScript source where it cannot be pulled), the
 * pinned schema.ts's `@deprecated` tags, and the schema's own `deprecated` keyword. The first
 * source naming a thing wins, so a fact's values (which values of a property) are kept.
 */
function deprecationsOf(
  version: string,
  era: Era,
  schema: NormalisedSchema,
  facts: Facts,
  typescript: SourceFacts | null,
  methods: ReadonlyMap<string, FoundMethod>,
  keys: ReadonlySet<string>,
): DeprecationModel[] {
  const out = new Map<string, DeprecationModel>();
  const add = (d: DeprecationModel) => out.set(`${d.kind} ${d.name}`, out.get(`${d.kind} ${d.name}`) ?? d);
  for (const [name, node] of schema.definitions) {
    if (node.deprecated === true)
      add({ kind: "definition", name, values: null, source: `${schema.file}#${node.pointer}` });
  }
  // A fact carried forward to a later release holds only for what that release still has.
  const has = (kind: DeprecationModel["kind"], name: string): boolean => {
    if (kind === "method") return methods.has(name);
    if (kind === "definition") return schema.definitions.has(name);
    if (kind === "meta-key") return keys.has(name);
    const [definition, ...path] = name.split(".");
    const node = schema.definitions.get(definition!);
    return node !== undefined && path.length === 1 && propertyOf(schema, node, path[0]!) !== undefined;
  };
  for (const f of facts.deprecations) {
    if (!appliesTo(f.versions, version, era)) continue;
    const of = (kind: DeprecationModel["kind"], names: readonly string[]) =>
      names
        .filter((name) => has(kind, name))
        .forEach((name) => add({ kind, name, values: f.values, source: f.source }));
    of("method", f.methods);
    of("definition", f.definitions);
    of("property", f.properties);
    of("meta-key", f.metaKeys);
  }
  for (const d of typescript?.deprecations ?? []) add({ ...d, values: null, source: typescript!.source });
  return [...out.values()].sort((a, b) => compare(a.kind, b.kind) || compare(a.name, b.name));
}

/** Pins properties to the constants facts give them (types only; `model.schema` keeps the schema's own node). */
function refine(node: SchemaNode, refinements: Facts["typeRefinements"]): SchemaNode {
  if (refinements.length === 0 || !node.properties) return node;
  return {
    ...node,
    properties: node.properties.map((p) => {
      const r = refinements.find((x) => x.property === p.name);
      return r ? { ...p, schema: { ...p.schema, const: r.const } } : p;
    }),
  };
}

type FoundMethod = Omit<MethodModel, "results" | "response" | "deprecated">;

/** Methods come from the direction unions only: scanning every `method` const would pick up base types. */
function collectMethods(schema: NormalisedSchema): Map<string, FoundMethod> {
  const methods = new Map<string, FoundMethod & { shape: string }>();
  for (const { name: union, direction, role: kind } of MESSAGE_UNIONS) {
    if (kind !== "request" && kind !== "notification" && kind !== "input") continue;
    if (direction === null) continue;
    const def = schema.definitions.get(union);
    if (!def) continue;
    // A one-member union is written out as a copy of its member (2026-07-28's ClientNotification).
    const members = def.anyOf ?? def.oneOf ?? [def];
    for (const member of members) {
      const definition = member.ref ?? union;
      const message = deref(schema, member);
      const methodProp = propertyOf(schema, message, "method");
      const name = methodProp ? deref(schema, methodProp.schema).const : undefined;
      if (typeof name !== "string") {
        throw new BindgenError(
          schema.file,
          member.ref ? schema.definitions.get(member.ref)!.pointer : member.pointer,
          `a member of ${union} with a "method" property that is a string const`,
        );
      }
      const paramsProp = propertyOf(schema, message, "params");
      const params: TypeRef | null = paramsProp
        ? paramsProp.schema.ref !== undefined
          ? { definition: paramsProp.schema.ref, path: [] }
          : { definition, path: ["params"] }
        : null;
      const shape = paramsProp ? shapeKey(deref(schema, paramsProp.schema)) : "none";
      const entry = methods.get(name);
      if (entry) {
        if (entry.kind !== kind || entry.shape !== shape) {
          throw new BindgenError(
            schema.file,
            message.pointer,
            `the same params and kind for "${name}" in every union that lists it`,
            `${entry.unions.join(", ")} and ${union} disagree`,
          );
        }
        const preferNamed = entry.definition === entry.unions[0] && definition !== union;
        methods.set(name, {
          ...entry,
          ...(preferNamed
            ? {
                definition,
                pointer: message.pointer,
                params,
                envelopeInSchema: propertyOf(schema, message, "jsonrpc") !== undefined,
              }
            : {}),
          directions: uniqueSorted<Direction>([...entry.directions, direction]),
          unions: uniqueSorted([...entry.unions, union]),
        });
        continue;
      }
      methods.set(name, {
        name,
        kind,
        directions: [direction],
        definition,
        pointer: message.pointer,
        unions: [union],
        params,
        paramsRequired: paramsProp?.required ?? false,
        envelopeInSchema: propertyOf(schema, message, "jsonrpc") !== undefined,
        shape,
      });
    }
  }
  const out = new Map<string, FoundMethod>();
  for (const [name, entry] of methods) {
    const { shape, ...rest } = entry;
    void shape;
    out.set(name, rest);
  }
  return out;
}

/** Modern schemas name each request's response `XResultResponse` (for `XRequest`). */
function responseOf(schema: NormalisedSchema, m: FoundMethod): string | null {
  const name = `${m.definition.replace(/Request$/, "")}ResultResponse`;
  return schema.definitions.has(name) ? name : null;
}

/**
 * `XRequest` → `XResult`. Modern schemas spell the pairing out as `XResultResponse`, whose
 * `result` union also lists `InputRequiredResult`; task-augmentable params (a `task` property)
 * may get `CreateTaskResult` instead. Methods the spec answers with `EmptyResult` come from facts.
 */
/** The 2025-11-25 tasks page's names: a request asks for a task with `params.task`, and a `CreateTaskResult` answers it. */
const TASK_PARAM = "task";
const TASK_RESULT = "CreateTaskResult";

function pairResults(schema: NormalisedSchema, facts: Facts, m: FoundMethod): string[] {
  const base = m.definition.replace(/Request$/, "");
  const results: string[] = [];
  const response = responseOf(schema, m);
  const responseDef = response === null ? undefined : schema.definitions.get(response);
  if (responseDef) {
    const resultProp = propertyOf(schema, responseDef, "result");
    for (const member of resultProp?.schema.anyOf ?? (resultProp ? [resultProp.schema] : [])) {
      if (member.ref) results.push(member.ref);
    }
  }
  if (schema.definitions.has(`${base}Result`)) results.push(`${base}Result`);
  else if (facts.emptyResultMethods.includes(m.name) && schema.definitions.has("EmptyResult"))
    results.push("EmptyResult");
  if (results.length === 0 || m.definition === m.unions[0]) {
    // The rule and the fact that would satisfy it, so a draft the package does not know yet can be fixed in place.
    throw new BindgenError(
      schema.file,
      m.pointer,
      `a result definition for "${m.name}" (${base}Result, ${base}ResultResponse, or, if it answers with EmptyResult, "${m.name}" listed in ${facts.file}#/emptyResultMethods/methods)`,
    );
  }
  if (m.params) {
    const params = resolveRef(schema, m.params);
    const createTask = schema.definitions.get(TASK_RESULT);
    // Task augmentation is declared by a `task` property, on the params or on any of their union members.
    const variants = params ? [params, ...(params.anyOf ?? params.oneOf ?? [])] : [];
    if (createTask && variants.some((v) => propertyOf(schema, v, TASK_PARAM) !== undefined)) results.push(TASK_RESULT);
  }
  const primary = results.find((r) => r === `${base}Result`) ?? results.find((r) => r === "EmptyResult") ?? results[0]!;
  return [primary, ...uniqueSorted(results.filter((r) => r !== primary))];
}

/**
 * The result that asks for more input: a request's alternative result whose `resultType` key is a const other than the
 * default (`InputRequiredResult`, once facts fix the const the schema leaves in prose). Its members are told apart by
 * shape, not name: the requests are a map of the input request union, the state is the member the retried params
 * declare too, and the answers are the params' map of the input requests' results.
 */
function inputRequiredOf(
  schema: NormalisedSchema,
  definitions: ReadonlyMap<string, DefinitionModel>,
  methods: readonly MethodModel[],
  resultType: { readonly property: string; readonly value: string },
): InputRequiredModel | null {
  const marker = (name: string) => {
    const node = definitions.get(name)?.schema;
    const value = node === undefined ? undefined : propertyOf(schema, node, resultType.property)?.schema.const;
    return typeof value === "string" && value !== resultType.value ? value : undefined;
  };
  const asking = methods.filter((m) => m.kind === "request" && m.results.slice(1).some((r) => marker(r) !== undefined));
  const found = uniqueSorted(asking.flatMap((m) => m.results.slice(1).filter((r) => marker(r) !== undefined)));
  if (found.length === 0) return null;
  const definition = found[0]!;
  const node = definitions.get(definition)!.schema;
  const where = node.pointer;
  if (found.length > 1)
    throw new BindgenError(
      schema.file,
      where,
      `one result marked by a ${resultType.property} const (found ${found.join(", ")})`,
    );
  const inputs = methods.filter((m) => m.kind === "input");
  const inputDefinitions = new Set(inputs.map((m) => m.definition));
  const inputResults = new Set(inputs.flatMap((m) => m.results));
  /** The definitions a map's values may be (`{ [key]: X }` or `{ [key]: A | B }`, through refs); empty for anything else. */
  const valuesOf = (property: SchemaProperty): string[] => {
    const values = deref(schema, property.schema).additionalProperties;
    if (typeof values !== "object") return [];
    const union = deref(schema, values);
    const members = union.anyOf ?? union.oneOf;
    return members === undefined
      ? values.ref === undefined
        ? []
        : [values.ref]
      : members.flatMap((v) => (v.ref === undefined ? [] : [v.ref]));
  };
  const mapsTo = (property: SchemaProperty, allowed: ReadonlySet<string>) => {
    const values = valuesOf(property);
    return values.length > 0 && values.every((v) => allowed.has(v));
  };
  const members = (deref(schema, node).properties ?? []).filter((p) => p.name !== resultType.property);
  const requests = members.filter((p) => mapsTo(p, inputDefinitions));
  if (requests.length !== 1)
    throw new BindgenError(
      schema.file,
      where,
      `one member that maps keys to input requests (found ${requests.length})`,
    );
  const params = asking.map((m) => (m.params === null ? undefined : resolveRef(schema, m.params)));
  const inEveryParams = (name: string) =>
    params.every((p) => p !== undefined && propertyOf(schema, p, name) !== undefined);
  const state = members.filter(
    (p) => p !== requests[0] && deref(schema, p.schema).type?.includes("string") === true && inEveryParams(p.name),
  );
  if (state.length !== 1)
    throw new BindgenError(
      schema.file,
      where,
      `one string member the params of ${asking.map((m) => m.name).join(", ")} declare too (found ${state.length})`,
    );
  const first = params[0];
  const responses = (first === undefined ? [] : (deref(schema, first).properties ?? [])).filter(
    (p) => mapsTo(p, inputResults) && inEveryParams(p.name),
  );
  if (responses.length !== 1)
    throw new BindgenError(
      schema.file,
      where,
      `one params member of ${asking.map((m) => m.name).join(", ")} that maps keys to the input requests' results (found ${responses.length})`,
    );
  return {
    definition,
    resultType: marker(definition)!,
    requests: requests[0]!.name,
    responses: responses[0]!.name,
    state: state[0]!.name,
    methods: asking.map((m) => m.name),
  };
}

export function resolveRef(schema: NormalisedSchema, ref: TypeRef): SchemaNode | undefined {
  let node: SchemaNode | undefined = schema.definitions.get(ref.definition);
  for (const key of ref.path) node = node ? propertyOf(schema, node, key)?.schema : undefined;
  return node ? deref(schema, node) : undefined;
}

/** The response envelopes, under their 2025-11-25 names or the older ones, and whether messages may come in batches. */
function envelope(schema: NormalisedSchema): EnvelopeModel {
  const first = (names: readonly string[]) => names.find((n) => schema.definitions.has(n)) ?? null;
  const resultResponse = first(["JSONRPCResultResponse", "JSONRPCResponse"]);
  const errorResponse = first(["JSONRPCErrorResponse", "JSONRPCError"]);
  const id = errorResponse === null ? undefined : propertyOf(schema, schema.definitions.get(errorResponse)!, "id");
  const batchMembers = batchMembersOf(schema);
  return {
    resultResponse,
    errorResponse,
    errorIdOptional: id !== undefined && !id.required,
    batches: batchMembers.length > 0,
    batchMembers,
  };
}

/** A member of the message union that is an array (inline or by reference) is a JSON-RPC batch. */
function batchMembersOf(schema: NormalisedSchema): SchemaNode[] {
  const union = MESSAGE_UNIONS.find((u) => u.role === "message");
  const node = union === undefined ? undefined : schema.definitions.get(union.name);
  if (node === undefined) return [];
  const message = deref(schema, node);
  const members = message.anyOf ?? message.oneOf ?? [];
  return members.filter((member) => deref(schema, member).type?.includes("array") === true);
}

function eraEvidence(schema: NormalisedSchema, methods: ReadonlyMap<string, FoundMethod>): EraEvidence {
  const requestParams = schema.definitions.get("RequestParams");
  const meta = requestParams ? propertyOf(schema, requestParams, "_meta") : undefined;
  const result = schema.definitions.get("Result");
  return {
    hasDiscover: methods.has("server/discover"),
    hasInitialize: methods.has("initialize"),
    requestMetaRequired:
      meta?.required === true && (deref(schema, meta.schema).properties ?? []).some((p) => p.required),
    resultTypeRequired: (result ? propertyOf(schema, result, "resultType")?.required : false) === true,
  };
}

function errorCodes(version: string, era: Era, schema: NormalisedSchema, facts: Facts): ErrorCodeModel[] {
  const byCode = new Map<number, ErrorCodeModel>();
  const factName = (code: number) => facts.errorCodes.find((f) => f.code === code)?.name;
  for (const [name, node] of schema.definitions) {
    if (!name.endsWith("Error")) continue;
    const code = pinnedCode(schema, node, 0);
    if (code === undefined) continue;
    byCode.set(code, {
      name: factName(code) ?? name.replace(/Error$/, ""),
      code,
      send: true,
      definition: name,
      source: null,
      replacedBy: null,
    });
  }
  for (const f of facts.errorCodes) {
    if (!appliesTo(f.versions, version, era)) continue;
    const existing = byCode.get(f.code);
    // A replacement is named in the releases that use the old code, so a reader of either release learns it.
    const replacedBy = f.replacedBy ? { code: f.replacedBy.code, source: f.replacedBy.source } : null;
    byCode.set(f.code, {
      name: f.name,
      code: f.code,
      send: f.send,
      definition: existing?.definition ?? null,
      source: f.source,
      replacedBy,
    });
  }
  const list = [...byCode.values()].sort((a, b) => b.code - a.code);
  const names = new Set<string>();
  for (const e of list) {
    if (names.has(e.name))
      throw new BindgenError(
        facts.file,
        "/errorCodes",
        `one code per error name, but "${e.name}" names two in ${version}`,
      );
    names.add(e.name);
  }
  return list;
}

/** The integer const a definition pins `code` (or `error.code`) to, looking through `allOf`. */
function pinnedCode(schema: NormalisedSchema, node: SchemaNode, depth: number): number | undefined {
  if (depth > 3) return undefined;
  const target = deref(schema, node);
  for (const candidate of [target, ...(target.allOf ?? []).map((m) => deref(schema, m))]) {
    const code = candidate.properties?.find((p) => p.name === "code");
    if (code && Number.isInteger(code.schema.const)) return code.schema.const as number;
  }
  for (const candidate of [target, ...(target.allOf ?? [])]) {
    const error = deref(schema, candidate).properties?.find((p) => p.name === "error");
    if (error) {
      const found = pinnedCode(schema, error.schema, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function scopeOf(definition: string): MetaScope | undefined {
  if (definition.includes("Notification")) return "notification";
  if (definition.includes("Result")) return "result";
  if (definition.includes("Request")) return "request";
  return undefined;
}

/** Reserved `_meta` keys: the declared properties of every `_meta` object and `*MetaObject` definition, plus facts. */
function metaKeys(version: string, era: Era, schema: NormalisedSchema, facts: Facts): MetaKeyModel[] {
  const keys = new Map<
    string,
    {
      scopes: Set<MetaScope>;
      requiredIn: Set<MetaScope>;
      definition: string | null;
      definitionIn: Partial<Record<MetaScope, string>>;
    }
  >();
  const add = (key: string, scope: MetaScope, required: boolean, definition: string | null) => {
    const entry = keys.get(key) ?? { scopes: new Set(), requiredIn: new Set(), definition, definitionIn: {} };
    entry.scopes.add(scope);
    if (definition !== null) entry.definitionIn[scope] ??= definition;
    if (required) entry.requiredIn.add(scope);
    keys.set(key, entry);
  };
  const seen = new Set<SchemaNode>();
  const visit = (definition: string, node: SchemaNode, inMeta: boolean) => {
    if (seen.has(node)) return;
    seen.add(node);
    const scope = scopeOf(definition);
    if (inMeta && scope) for (const p of node.properties ?? []) add(p.name, scope, p.required, definition);
    for (const p of node.properties ?? [])
      visit(definition, p.schema, p.name === "_meta" && p.schema.ref === undefined);
    for (const m of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) visit(definition, m, false);
  };
  for (const [name, node] of schema.definitions) {
    visit(name, node, name.endsWith("MetaObject"));
  }
  for (const f of facts.metaKeys) if (appliesTo(f.versions, version, era)) add(f.key, f.where, false, null);
  const out: MetaKeyModel[] = [];
  const names = new Map<string, string>();
  for (const [key, entry] of keys) {
    const name = key.slice(key.lastIndexOf("/") + 1).replace(/[-_.]([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
    const clash = names.get(name);
    if (clash !== undefined) {
      throw new BindgenError(
        schema.file,
        schema.definitionsPointer,
        `distinct names for reserved _meta keys`,
        `"${clash}" and "${key}" both map to MetaKey.${name}`,
      );
    }
    names.set(name, key);
    out.push({
      name,
      key,
      scopes: [...entry.scopes].sort(),
      requiredIn: [...entry.requiredIn].sort(),
      definition: entry.definition,
      definitionIn: entry.definitionIn,
    });
  }
  return out.sort((a, b) => compare(a.name, b.name));
}

/** Keys a fact reserved only in releases before this one, and this release does not list. */
function formerMetaKeys(version: string, facts: Facts, current: readonly MetaKeyModel[]): string[] {
  // A schema read under a name that is no release (`diff drafts/next.json`) has no place in the order, so no earlier releases.
  if (!RELEASE_NAME.test(version)) return [];
  const listed = new Set(current.map((k) => k.key));
  const ended = facts.metaKeys.filter(
    (f) => typeof f.versions === "object" && f.versions.to !== undefined && compareReleases(f.versions.to, version) < 0,
  );
  return uniqueSorted(ended.map((f) => f.key).filter((key) => !listed.has(key)));
}

/** The reserved-prefix rule in force for this release: at most one fact applies. */
function reservedMetaPrefix(version: string, era: Era, facts: Facts): ProtocolModel["reservedMetaPrefix"] {
  const rules = facts.reservedMetaPrefixes.filter((r) => appliesTo(r.versions, version, era));
  if (rules.length > 1) {
    throw new BindgenError(
      facts.file,
      "/reservedMetaPrefixes",
      "at most one rule per release",
      `${rules.length} apply to ${version}`,
    );
  }
  const rule = rules[0];
  return rule === undefined ? null : { labels: [...rule.labels], position: rule.position, source: rule.source };
}

function uniqueSorted<T extends string>(values: readonly T[]): T[] {
  return [...new Set(values)].sort(compare);
}

/** `CacheableResult`'s lifetime and audience members (2026-07-28 on), read from the definition. */
function cacheMembersOf(definitions: ReadonlyMap<string, DefinitionModel>): ProtocolModel["cacheMembers"] {
  const members = (definitions.get("CacheableResult")?.schema.properties ?? []).map((p) => p.name);
  return members.includes("ttlMs") && members.includes("cacheScope") ? { ttl: "ttlMs", scope: "cacheScope" } : null;
}
