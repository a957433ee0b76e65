import { compare } from "../common/code-point-order.ts";
import { BindgenError } from "../common/failures.ts";
import type { NormalisedSchema, SchemaNode } from "../load/schema-node.ts";
import { deref, propertyOf } from "../load/shape.ts";
import type { MethodModel, ProtocolModel, TypeRef } from "../model/protocol-model.ts";
import {
  FORMATS,
  METHOD_KINDS,
  TYPE_BITS,
  type WireEntry,
  type WireMethod,
  type WireNamedTable,
  type WireNode,
  type WireRare,
  type WireTable,
} from "../runtime/validation/table-format.ts";

/** A wire node while the builder fills it in; the format itself is generator/runtime/validation/table-format.ts. */
type MutableWireNode = { -readonly [K in keyof WireNode]: WireNode[K] };

/** A release's validator table, split where messages stop reaching (see `WireTable`). */
export interface WireTables {
  readonly table: WireTable;
  readonly named: WireNamedTable;
  /** Each definition's entry index across both parts, in the schema's name order. */
  readonly definitionEntries: readonly number[];
}

export function buildWireTables(model: ProtocolModel): WireTables {
  return split(new TableBuilder(model.validated).build(model));
}

/**
 * A table of definitions alone (a server's tools: no methods, no envelope). `decodeTable` wants a
 * response `result` and `error` entry, so both point at one node that accepts anything, which
 * nothing here reads.
 */
export function buildDefinitionTable(schema: NormalisedSchema, version: string): WireTable {
  const builder = new TableBuilder(schema);
  const nodes = builder.definitions();
  const anything = nodes.push({}) - 1;
  return {
    version,
    names: [...schema.definitions.keys()].join(","),
    nodes,
    methods: [],
    result: anything,
    error: anything,
  };
}

/**
 * Whether decoding needs `rareKeywords` (rare-keywords.ts): a node with `WireRare` keywords or `oneOf`, or a
 * `const`/`enum` value that is an object or array, which identity cannot compare. No release's schema has any so far.
 */
export function needsRareKeywords(nodes: readonly WireEntry[]): boolean {
  const structured = (v: unknown): boolean => typeof v === "object" && v !== null;
  return nodes.some(
    (w) =>
      typeof w !== "number" &&
      (w.k !== undefined || w.o !== undefined || structured(w.c) || (w.e ?? []).some(structured)),
  );
}

/** A table as the text `decodeTable` reads (format: generator/runtime/validation/table-format.ts). */
export function encodeTable(table: WireTable | WireNamedTable): string {
  const head =
    "version" in table
      ? [table.version, table.names, JSON.stringify([table.result, table.error, ...table.methods])]
      : ["", table.names, ""];
  return [...head, ...table.nodes.map(encodeEntry)].join("\n");
}

function encodeEntry(w: WireEntry): string {
  if (typeof w === "number") return `=${w}`;
  return Object.entries(w)
    .map(([key, value]: [string, unknown]) => key + encodeField(key, value))
    .join(";");
}

function encodeField(key: string, value: unknown): string {
  if (key === "p")
    return (value as readonly (string | number)[]).map((v) => (typeof v === "number" ? v : encodeName(v))).join(",");
  return escape(JSON.stringify(value), /;/g);
}

/** A property name as it is, or as JSON where it holds a character a separator could be or it could read as a number. */
function encodeName(name: string): string {
  return /^[A-Za-z_$@./][\w$@./-]*$/.test(name) ? name : escape(JSON.stringify(name), /[,;]/g);
}

/** JSON text with the separators `found` matches as \u escapes, meant for ones JSON has only inside strings, where they read the same. */
function escape(json: string, found: RegExp): string {
  return json.replace(found, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
}

/** Entries a node refers to; an alias entry refers to its target. `renumber` is the one list of a node's reference fields. */
function references(w: WireEntry): number[] {
  const refs: number[] = [];
  renumber(w, (i) => {
    refs.push(i);
    return i;
  });
  return refs;
}

/** The same node with every reference renumbered. */
function renumber(w: WireEntry, to: (i: number) => number): WireEntry {
  if (typeof w === "number") return to(w);
  const out: MutableWireNode = { ...w };
  if (w.p) out.p = w.p.map((v, k) => (k % 2 === 0 ? v : (v as number) < 0 ? ~to(~(v as number)) : to(v as number)));
  if (w.a !== undefined) out.a = to(w.a);
  if (w.i !== undefined) out.i = to(w.i);
  if (w.u) out.u = w.u.map(to);
  if (w.o) out.o = w.o.map(to);
  if (w.l) out.l = w.l.map(to);
  const k = w.k;
  if (k !== undefined) {
    const rare: { -readonly [K in keyof WireRare]: WireRare[K] } = { ...k };
    for (const key of ["no", "if", "th", "el"] as const) if (k[key] !== undefined) rare[key] = to(k[key]);
    out.k = rare;
  }
  return out;
}

/**
 * Moves what messages reach (the methods' params and results, the response members, and all they
 * use) in front, definitions first, and renumbers every reference.
 * Every definition keeps its name in the part that holds it, so an issue names what it expected.
 */
function split(whole: WireTable): WireTables {
  const names = whole.names.split(",");
  const reached = new Set<number>();
  const visit = (i: number): void => {
    if (reached.has(i)) return;
    reached.add(i);
    references(whole.nodes[i]!).forEach(visit);
  };
  for (const [, , params, , ...results] of whole.methods) [params, ...results].filter((i) => i >= 0).forEach(visit);
  visit(whole.result);
  visit(whole.error);
  const isDefinition = (i: number) => i < names.length;
  // Like entries side by side compress better, so each group is ordered by the entries' encodings (a
  // definition's name stays with its entry: the names line lists them in the same order).
  const part = (definitions: boolean, inMessages: boolean): number[] =>
    whole.nodes
      .map((_, i) => i)
      .filter((i) => isDefinition(i) === definitions && reached.has(i) === inMessages)
      .map((i): [string, number] => [JSON.stringify(whole.nodes[i]), i])
      .sort(([a, i], [b, j]) => compare(a, b) || i - j)
      .map(([, i]) => i);
  const reachedDefinitions = part(true, true);
  const otherDefinitions = part(true, false);
  const order = [...reachedDefinitions, ...part(false, true), ...otherDefinitions, ...part(false, false)];
  const position = new Map(order.map((i, at) => [i, at]));
  const to = (i: number) => position.get(i)!;
  const nodes = order.map((i) => renumber(whole.nodes[i]!, to));
  const core = reached.size;
  return {
    table: {
      version: whole.version,
      names: reachedDefinitions.map((i) => names[i]).join(","),
      nodes: nodes.slice(0, core),
      methods: whole.methods.map(([name, kind, params, required, ...results]) => [
        name,
        kind,
        params < 0 ? params : to(params),
        required,
        ...results.map(to),
      ]),
      result: to(whole.result),
      error: to(whole.error),
    },
    named: {
      names: otherDefinitions.map((i) => names[i]).join(","),
      nodes: nodes.slice(core),
    },
    definitionEntries: names.map((_, i) => to(i)),
  };
}

class TableBuilder {
  private readonly names: string[];
  private readonly defIndex: Map<string, number>;
  private readonly nodes: WireEntry[] = [];
  /** Structural key of an anonymous wire node → its index, so repeated shapes are stored once. */
  private readonly shared = new Map<string, number>();

  /** The schema's own nodes (for a release, not `model.definitions`: those carry type-only refinements the validators must ignore). */
  constructor(private readonly schema: NormalisedSchema) {
    this.names = [...schema.definitions.keys()];
    this.defIndex = new Map(this.names.map((n, i) => [n, i]));
  }

  /** Every definition's entry, then the anonymous nodes they use. */
  definitions(): WireEntry[] {
    this.nodes.length = this.names.length;
    this.names.forEach((name, i) => {
      const node = this.schema.definitions.get(name)!;
      // Aliases point at the end of their chain (EmptyResult → Result), so the runtime resolves in one step.
      this.nodes[i] = node.ref !== undefined ? this.aliasTarget(node.ref) : this.wire(node);
    });
    return this.nodes;
  }

  build(model: ProtocolModel): WireTable {
    const nodes = this.definitions();
    const methods = model.methods.map((m) => this.method(m));
    return {
      version: model.version,
      names: this.names.join(","),
      nodes,
      methods,
      result: this.envelopeMember(model.envelope.resultResponse, "result"),
      error: this.envelopeMember(model.envelope.errorResponse, "error"),
    };
  }

  private aliasTarget(name: string): number {
    let target = name;
    for (
      let next = this.schema.definitions.get(target)!.ref;
      next !== undefined;
      next = this.schema.definitions.get(target)!.ref
    ) {
      target = next;
    }
    return this.defIndex.get(target)!;
  }

  private method(m: MethodModel): WireMethod {
    const params = m.params === null ? -1 : this.typeRef(m.params);
    return [
      m.name,
      METHOD_KINDS[m.kind],
      params,
      m.paramsRequired ? 1 : 0,
      ...m.results.map((r) => this.defIndex.get(r)!),
    ];
  }

  private typeRef(ref: TypeRef): number {
    // A whole definition is its entry, not a copy of it: params' issues then name the definition.
    if (ref.path.length === 0) return this.aliasTarget(ref.definition);
    let node = this.schema.definitions.get(ref.definition)!;
    for (const key of ref.path) {
      const prop = propertyOf(this.schema, node, key);
      if (!prop) throw new BindgenError(this.schema.file, node.pointer, `a property "${key}"`);
      node = prop.schema;
    }
    return this.index(node);
  }

  /** The generic `result`/`error` schema of a response envelope (the model's `envelope`): it holds whatever method answered. */
  private envelopeMember(definition: string | null, key: string): number {
    const def = definition === null ? undefined : this.schema.definitions.get(definition);
    const prop = def && propertyOf(this.schema, def, key);
    if (!prop)
      throw new BindgenError(
        this.schema.file,
        this.schema.definitionsPointer,
        `a response envelope definition with a "${key}" property`,
      );
    return this.index(prop.schema);
  }

  private index(node: SchemaNode): number {
    if (node.ref !== undefined) return this.defIndex.get(node.ref)!;
    const wire = this.wire(node);
    const key = JSON.stringify(wire);
    let i = this.shared.get(key);
    if (i === undefined) {
      i = this.nodes.push(wire) - 1;
      this.shared.set(key, i);
    }
    return i;
  }

  private wire(node: SchemaNode): MutableWireNode {
    const w: MutableWireNode = {};
    if (node.type) w.t = node.type.reduce((mask, t) => mask | TYPE_BITS[t], 0);
    if (node.const !== undefined) w.c = node.const;
    if (node.enum) w.e = node.enum;
    // An empty `properties` constrains nothing; omitting it lets the node be checked inline.
    if (node.properties && node.properties.length > 0)
      w.p = node.properties.flatMap((p) => [p.name, p.required ? ~this.index(p.schema) : this.index(p.schema)]);
    const extra = node.additionalProperties;
    if (extra === false) w.a = this.index({ pointer: node.pointer, type: [] });
    else if (typeof extra === "object" && !isUnconstrained(extra)) w.a = this.index(extra);
    if (node.items && !isUnconstrained(node.items)) w.i = this.index(node.items);
    if (node.anyOf) w.u = node.anyOf.map((m) => this.index(m));
    if (node.oneOf) w.o = node.oneOf.map((m) => this.index(m));
    if (node.allOf) w.l = node.allOf.map((m) => this.index(m));
    const members = node.anyOf && !node.oneOf ? node.anyOf : node.oneOf && !node.anyOf ? node.oneOf : undefined;
    const discriminator = members && this.discriminator(members);
    if (discriminator) w.d = discriminator;
    if (node.format !== undefined) {
      if (!FORMATS.includes(node.format)) {
        throw new BindgenError(
          this.schema.file,
          node.pointer + "/format",
          `a format the validators implement (${FORMATS.join(", ")})`,
          `got "${node.format}"`,
        );
      }
      w.f = node.format;
    }
    if (node.minimum !== undefined) w.n = node.minimum;
    if (node.maximum !== undefined) w.x = node.maximum;
    if (node.maxItems !== undefined) w.X = node.maxItems;
    const rare = this.rare(node);
    if (rare !== undefined) w.k = rare;
    return w;
  }

  /** The keywords only tool schemas use, or undefined: a release's nodes never carry them. */
  private rare(node: SchemaNode): WireRare | undefined {
    const k: { -readonly [K in keyof WireRare]: WireRare[K] } = {};
    if (node.exclusiveMinimum !== undefined) k.en = node.exclusiveMinimum;
    if (node.exclusiveMaximum !== undefined) k.ex = node.exclusiveMaximum;
    if (node.multipleOf !== undefined) k.m = node.multipleOf;
    if (node.minProperties !== undefined) k.np = node.minProperties;
    if (node.maxProperties !== undefined) k.xp = node.maxProperties;
    if (node.uniqueItems === true) k.q = 1;
    if (node.minItems !== undefined) k.ni = node.minItems;
    if (node.minLength !== undefined) k.nl = node.minLength;
    if (node.maxLength !== undefined) k.xl = node.maxLength;
    if (node.pattern !== undefined) k.r = node.pattern;
    if (node.not !== undefined) k.no = this.index(node.not);
    // `then` and `else` mean nothing without `if`.
    if (node.if !== undefined) {
      k.if = this.index(node.if);
      if (node.then !== undefined) k.th = this.index(node.then);
      if (node.else !== undefined) k.el = this.index(node.else);
    }
    return Object.keys(k).length === 0 ? undefined : k;
  }

  /**
   * A property that every member requires with a distinct string const (`type` of content
   * blocks): the runtime then checks only the member it names, which is both faster and gives
   * the member's own errors instead of "no member matched". Only when each member is a plain
   * object schema, so no other member could match the same value.
   */
  private discriminator(members: readonly SchemaNode[]): string | undefined {
    const targets = members.map((m) => deref(this.schema, m));
    const plain = targets.every(
      (t) => t.type?.length === 1 && t.type[0] === "object" && !t.anyOf && !t.oneOf && !t.allOf,
    );
    if (!plain) return undefined;
    const constOf = (t: SchemaNode, key: string): string | undefined => {
      const prop = t.properties?.find((p) => p.name === key && p.required);
      const value = prop && deref(this.schema, prop.schema).const;
      return typeof value === "string" ? value : undefined;
    };
    for (const key of (targets[0]!.properties ?? []).map((p) => p.name)) {
      const values = targets.map((t) => constOf(t, key));
      if (values.every((v) => v !== undefined) && new Set(values).size === values.length) return key;
    }
    return undefined;
  }
}

/** A node that accepts every value: only annotations (or nothing) beside its position. */
function isUnconstrained(node: SchemaNode): boolean {
  return Object.keys(node).every(
    (k) => k === "pointer" || k === "description" || k === "default" || k === "deprecated",
  );
}
