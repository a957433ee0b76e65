import type {
  CodeBlockWriter,
  SourceFileStructure,
  ExportDeclarationStructure,
  FunctionDeclarationStructure,
  ImportDeclarationStructure,
  InterfaceDeclarationStructure,
  OptionalKind,
  StatementStructures,
  TypeAliasDeclarationStructure,
  VariableStatementStructure,
} from "ts-morph";
import { IndentationText, Project, QuoteKind, StructureKind } from "../ts-morph.ts";

let project: Project | undefined;

/** One in-memory ts-morph project for the whole run: creating one per file costs more than the emit. */
function sharedProject(): Project {
  project ??= new Project({
    useInMemoryFileSystem: true,
    skipLoadingLibFiles: true,
    skipFileDependencyResolution: true,
    // As prettier prints: most statements then come out of ts-morph already formatted (format.ts).
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, quoteKind: QuoteKind.Double },
  });
  return project;
}

/**
 * Collects an output module's statements as ts-morph structures. Each `add*` call on a real
 * SourceFile re-prints and re-parses the file, which made emit time grow with the square of a
 * module's size; collecting first lets ts-morph print the whole module once.
 */
export class StatementSink {
  private readonly imports: StatementStructures[] = [];
  private readonly body: (StatementStructures | string)[] = [];

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
  addStatements(statements: string | readonly (StatementStructures | string)[]): void {
    if (typeof statements === "string") this.body.push(statements);
    else this.body.push(...statements);
  }
  /** Imports first, as a SourceFile would place them; everything else in the order it was added. */
  statements(): (StatementStructures | string)[] {
    return [...this.imports, ...this.body];
  }
}

/** What ts-morph's own `createSourceFile(path, structure)` prints a structure with, before it parses the text. */
export interface SourceFilePrinter {
  printText(writer: CodeBlockWriter, structure: SourceFileStructure | OptionalKind<SourceFileStructure>): void;
}

/**
 * ts-morph's structure printer, which its public API only reaches through `createSourceFile`: that
 * also parses the printed text into a TypeScript AST, which was most of emission's time and is
 * never used here. Internal to ts-morph (pinned to one version in package.json; a test checks it is
 * found), so without it the public path prints the same text.
 */
function structurePrinter(project: Project): SourceFilePrinter | undefined {
  const context = (project as unknown as { _context?: { structurePrinterFactory?: { forSourceFile?: (options: { isAmbient: boolean }) => SourceFilePrinter } } })._context;
  return context?.structurePrinterFactory?.forSourceFile?.({ isAmbient: false });
}

let printer: SourceFilePrinter | null | undefined;

/** The structure printer, or null where this ts-morph lacks it (see structurePrinter). */
export function sourceFilePrinter(): SourceFilePrinter | null {
  printer ??= structurePrinter(sharedProject()) ?? null;
  return printer;
}

/** Builds one output module through ts-morph structures, printed once, and returns its text (the header is added by `emitFiles`). */
export function buildSourceFile(path: string, build: (file: StatementSink) => void): string {
  const sink = new StatementSink();
  build(sink);
  const structure = { statements: sink.statements() };
  const print = sourceFilePrinter();
  if (print) {
    const writer = sharedProject().createWriter();
    print.printText(writer, structure);
    return writer.toString();
  }
  const file = sharedProject().createSourceFile(`/${path}`, structure, { overwrite: true });
  const text = file.getFullText();
  sharedProject().removeSourceFile(file);
  return text;
}
