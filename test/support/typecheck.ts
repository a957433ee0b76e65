import ts from "typescript";

/** The flags generated code promises to compile under (docs/ARCHITECTURE.md, "Output"). */
export const STRICT_OPTIONS: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ["lib.es2022.d.ts"],
  types: [],
  skipLibCheck: true,
  allowImportingTsExtensions: true,
};

export interface Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly code: number;
  readonly message: string;
}

/** A file's text as tsc is to read it (to strip a pragma or inject an error), by its path. */
export type SourceEdit = (file: string, text: string) => string;

/** Type-checks the given root files (and what they import) in one program; returns every diagnostic. */
export function typecheck(
  rootFiles: readonly string[],
  options: ts.CompilerOptions = STRICT_OPTIONS,
  edit?: SourceEdit,
): Diagnostic[] {
  const host = ts.createCompilerHost(options);
  if (edit) {
    const read = host.readFile.bind(host);
    host.readFile = (file) => {
      const text = read(file);
      return text === undefined ? undefined : edit(file, text);
    };
  }
  const program = ts.createProgram({ rootNames: [...rootFiles], options, host });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const pos = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    return {
      file: d.file?.fileName ?? "",
      line: pos ? pos.line + 1 : 0,
      code: d.code,
      message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
    };
  });
}

export function formatDiagnostics(list: readonly Diagnostic[]): string {
  return list.map((d) => `${d.file}:${d.line} TS${d.code} ${d.message}`).join("\n");
}
