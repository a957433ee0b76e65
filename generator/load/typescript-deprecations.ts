import { existsSync, readFileSync } from "node:fs";
import type { ts as TS } from "ts-morph";
import { ts } from "../common/ts-morph.ts";
import { BindgenError } from "../common/failures.ts";
import { sha256 } from "./read.ts";

/** Something a release's schema.ts marks `@deprecated`. */
export interface SourceDeprecation {
  readonly kind: "definition" | "property" | "meta-key";
  /** A definition, a `Definition.property` path, or a reserved `_meta` key (a quoted property name holding a `/`). */
  readonly name: string;
}

/**
 * The `@deprecated` tags of a release's schema.ts, which the JSON schema drops. null when the file
 * is not there (only the npm registry reachable): facts.json then carries what it says.
 */
export function readSourceDeprecations(file: string, expectedSha256: string): SourceDeprecation[] | null {
  if (!existsSync(file)) return null;
  const bytes = readFileSync(file);
  const hash = sha256(bytes);
  if (hash !== expectedSha256)
    throw new BindgenError(
      file,
      "",
      `sha256 ${expectedSha256} (schema.ts in schema/lock.json)`,
      `got ${hash}; pull it again`,
    );
  const source = ts.createSourceFile(file, bytes.toString("utf8"), ts.ScriptTarget.Latest, true);
  const out: SourceDeprecation[] = [];
  const deprecated = (node: TS.Node) => ts.getJSDocTags(node).some((t) => t.tagName.text === "deprecated");
  const members = (node: TS.Node): readonly TS.TypeElement[] =>
    ts.isInterfaceDeclaration(node)
      ? node.members
      : ts.isTypeAliasDeclaration(node) && ts.isTypeLiteralNode(node.type)
        ? node.type.members
        : [];
  for (const statement of source.statements) {
    if (!ts.isInterfaceDeclaration(statement) && !ts.isTypeAliasDeclaration(statement)) continue;
    const definition = statement.name.text;
    if (deprecated(statement)) out.push({ kind: "definition", name: definition });
    for (const member of members(statement)) {
      if (!ts.isPropertySignature(member) || !deprecated(member)) continue;
      const name =
        ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)
          ? member.name.text
          : member.name.getText(source);
      out.push(name.includes("/") ? { kind: "meta-key", name } : { kind: "property", name: `${definition}.${name}` });
    }
  }
  return out;
}

/**
 * The protocol version a schema.ts declares (`export const LATEST_PROTOCOL_VERSION = "…"`): the string peers send for
 * a draft (`DRAFT-2026-v1`), which its schema.json never states. null when the file is not there or declares none.
 */
export function readSourceProtocolVersion(file: string): string | null {
  if (!existsSync(file)) return null;
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) {
      if (ts.isIdentifier(d.name) && d.name.text === "LATEST_PROTOCOL_VERSION" && d.initializer) {
        if (ts.isStringLiteralLike(d.initializer)) return d.initializer.text;
      }
    }
  }
  return null;
}
