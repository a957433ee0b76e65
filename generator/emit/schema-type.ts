import type {
  CodeBlockWriter,
  IndexSignatureDeclarationStructure,
  OptionalKind,
  PropertySignatureStructure,
  WriterFunction,
} from "ts-morph";
import { Writers } from "../common/ts-morph.ts";
import type { JsonType, JsonValue, SchemaNode } from "../load/schema-node.ts";
import { docs } from "./doc-comments.ts";
import { propertyKey } from "./names.ts";

/**
 * A TypeScript type being built from a schema node. `atom` types can stand as an array's
 * element or a member of a union or intersection without parentheses.
 */
export interface TypeOut {
  readonly write: WriterFunction;
  readonly precedence: "atom" | "intersection" | "union";
}

const PRIMITIVE: Readonly<Record<Exclude<JsonType, "object" | "array">, string>> = {
  string: "string",
  number: "number",
  integer: "number",
  boolean: "boolean",
  null: "null",
};

function atom(text: string): TypeOut {
  return { write: (w) => void w.write(text), precedence: "atom" };
}

function grouped(type: TypeOut, within: TypeOut["precedence"]): WriterFunction {
  const fits = type.precedence === "atom" || within === "union";
  if (fits) return type.write;
  return (w) => {
    w.write("(");
    type.write(w);
    w.write(")");
  };
}

function combine(parts: readonly TypeOut[], kind: "union" | "intersection"): TypeOut {
  if (parts.length === 1) return parts[0]!;
  const members = parts.map((p) => grouped(p, kind));
  const separator = kind === "union" ? " | " : " & ";
  return {
    write: (w: CodeBlockWriter) =>
      members.forEach((member, i) => {
        if (i > 0) w.write(separator);
        member(w);
      }),
    precedence: kind,
  };
}

function literal(value: JsonValue): TypeOut {
  return atom(JSON.stringify(value));
}

/** How `SchemaTypes` writes: references after `qualifier` (`T.` where the types are a namespace import), and every member and array `readonly`. */
export interface SchemaTypeOptions {
  readonly qualifier?: string;
  readonly readonly?: boolean;
}

/** Turns schema nodes of one version into TypeScript types; definitions are referenced by name. */
export class SchemaTypes {
  private readonly qualifier: string;
  private readonly readonly: boolean;

  constructor(
    private readonly definitions: ReadonlySet<string>,
    options: SchemaTypeOptions = {},
  ) {
    this.qualifier = options.qualifier ?? "";
    this.readonly = options.readonly ?? false;
  }

  typeOf(node: SchemaNode): TypeOut {
    const parts: TypeOut[] = [this.ownType(node)];
    if (node.anyOf)
      parts.push(
        combine(
          node.anyOf.map((n) => this.typeOf(n)),
          "union",
        ),
      );
    if (node.oneOf)
      parts.push(
        combine(
          node.oneOf.map((n) => this.typeOf(n)),
          "union",
        ),
      );
    if (node.allOf)
      parts.push(
        combine(
          node.allOf.map((n) => this.typeOf(n)),
          "intersection",
        ),
      );
    // A node with only combinators has `unknown` as its own type, which adds nothing.
    const meaningful = parts.length > 1 && isUnconstrained(node) ? parts.slice(1) : parts;
    return combine(meaningful, "intersection");
  }

  /** Members of an object type: its properties (those in `deprecated` tagged so), then an index signature when the schema is open. */
  members(
    node: SchemaNode,
    deprecated: ReadonlySet<string> = new Set(),
  ): {
    properties: OptionalKind<PropertySignatureStructure>[];
    indexSignatures: OptionalKind<IndexSignatureDeclarationStructure>[];
  } {
    const properties = (node.properties ?? []).map((p) => ({
      name: propertyKey(p.name),
      ...(this.readonly ? { isReadonly: true } : {}),
      hasQuestionToken: !p.required,
      type: this.typeOf(p.schema).write,
      docs: docs(p.schema.description, p.schema.deprecated === true || deprecated.has(p.name), this.definitions),
    }));
    const open = node.additionalProperties;
    if (open === undefined || open === false) return { properties, indexSignatures: [] };
    // Declared properties must fit the index type, so only a property-less object gets the schema's type.
    const returnType = open === true || properties.length > 0 ? "unknown" : this.typeOf(open).write;
    return {
      properties,
      indexSignatures: [
        { keyName: "key", keyType: "string", returnType, ...(this.readonly ? { isReadonly: true } : {}) },
      ],
    };
  }

  /** Whether a definition is best emitted as an interface: a plain object with declared members. */
  isInterface(node: SchemaNode): boolean {
    return (
      node.type?.length === 1 &&
      node.type[0] === "object" &&
      (hasProperties(node) || isOpen(node)) &&
      node.const === undefined &&
      node.enum === undefined &&
      node.anyOf === undefined &&
      node.oneOf === undefined &&
      node.allOf === undefined
    );
  }

  private ownType(node: SchemaNode): TypeOut {
    if (node.ref !== undefined) return atom(this.qualifier + node.ref);
    if (node.const !== undefined) return literal(node.const);
    if (node.enum !== undefined) return combine(node.enum.map(literal), "union");
    // Open on purpose: the known values stay visible (editors complete them) and any other string fits.
    if (node.known !== undefined) return combine([...node.known.map(literal), atom("(string & {})")], "union");
    if (node.type === undefined) return atom("unknown");
    const seen = new Set<string>();
    const parts: TypeOut[] = [];
    for (const type of node.type) {
      if (type === "object") parts.push(this.objectType(node));
      else if (type === "array") parts.push(this.arrayType(node));
      else if (!seen.has(PRIMITIVE[type])) {
        seen.add(PRIMITIVE[type]);
        parts.push(atom(PRIMITIVE[type]));
      }
    }
    return combine(parts, "union");
  }

  private objectType(node: SchemaNode): TypeOut {
    if (!hasProperties(node) && !isOpen(node)) return atom("object");
    return { write: Writers.objectType(this.members(node)), precedence: "atom" };
  }

  private arrayType(node: SchemaNode): TypeOut {
    const item = node.items === undefined ? atom("unknown") : this.typeOf(node.items);
    const element = grouped(item, "atom");
    const write: WriterFunction = (w) => {
      if (this.readonly) w.write("readonly ");
      element(w);
      w.write("[]");
    };
    // `readonly T[]` binds tighter than `|` and `&`, but as an array's element it needs parentheses.
    return { write, precedence: this.readonly ? "intersection" : "atom" };
  }
}

/** `properties: {}` declares nothing: such an object takes any members, like one without `properties`. */
function hasProperties(node: SchemaNode): boolean {
  return node.properties !== undefined && node.properties.length > 0;
}

function isOpen(node: SchemaNode): boolean {
  return node.additionalProperties !== undefined && node.additionalProperties !== false;
}

function isUnconstrained(node: SchemaNode): boolean {
  return node.ref === undefined && node.const === undefined && node.enum === undefined && node.type === undefined;
}
