import type {
  ExportDeclarationStructure,
  FunctionDeclarationStructure,
  ImportDeclarationStructure,
  InterfaceDeclarationStructure,
  OptionalKind,
  StatementStructures,
  TypeAliasDeclarationStructure,
  VariableStatementStructure,
} from "ts-morph";
import { printStructure, StructureKind } from "../common/ts-morph.ts";

/**
 * Collects an output module's statements as ts-morph structures. Each `add*` call on a real
 * SourceFile re-prints and re-parses the file, which made emit time grow with the square of a
 * module's size; collecting first lets ts-morph print the whole module once. It takes declarations
 * only, never statement text: the one emission style (docs/ARCHITECTURE.md, Emitters).
 */
export class StatementSink {
  private readonly imports: StatementStructures[] = [];
  private readonly body: StatementStructures[] = [];

  addImportDeclaration(s: OptionalKind<ImportDeclarationStructure>): void {
    this.imports.push({ ...s, kind: StructureKind.ImportDeclaration });
  }
  addExportDeclaration(s: OptionalKind<ExportDeclarationStructure>): void {
    this.body.push({ ...s, kind: StructureKind.ExportDeclaration });
  }
  addInterface(s: OptionalKind<InterfaceDeclarationStructure>): void {
    this.body.push({ ...s, kind: StructureKind.Interface });
  }
  addTypeAlias(s: OptionalKind<TypeAliasDeclarationStructure>): void {
    this.body.push({ ...s, kind: StructureKind.TypeAlias });
  }
  addFunction(s: OptionalKind<FunctionDeclarationStructure>): void {
    this.body.push({ ...s, kind: StructureKind.Function });
  }
  addVariableStatement(s: OptionalKind<VariableStatementStructure>): void {
    this.body.push({ ...s, kind: StructureKind.VariableStatement });
  }
  addVariableStatements(list: readonly OptionalKind<VariableStatementStructure>[]): void {
    for (const s of list) this.addVariableStatement(s);
  }
  addStatements(statements: readonly StatementStructures[]): void {
    this.body.push(...statements);
  }
  /** Imports first, as a SourceFile would place them; everything else in the order it was added. */
  statements(): StatementStructures[] {
    return [...this.imports, ...this.body];
  }
}

/**
 * An object literal from property names and the expressions of their values, in order: an initialiser or a
 * return value. A value that is the name itself is written alone: a shorthand property, or a spread
 * (`"...RELEASE": "...RELEASE"`).
 */
export function objectLiteral(properties: Readonly<Record<string, string>>): string {
  return `{ ${Object.entries(properties)
    .map(([name, value]) => (name === value ? name : `${name}: ${value}`))
    .join(", ")} }`;
}

/**
 * Builds one output module through ts-morph structures and returns its text (the header is added by `emitFiles`).
 * `printStructure` prints without a project: nothing is parsed back, as a SourceFile would be.
 */
export function buildSourceFile(build: (file: StatementSink) => void): string {
  const sink = new StatementSink();
  build(sink);
  return printStructure(
    { kind: StructureKind.SourceFile, statements: sink.statements() },
    { indentNumberOfSpaces: 2, useSingleQuote: false },
  );
}
