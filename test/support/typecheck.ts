import ts from "typescript";
import { CHECKOUT_GENERATED, GENERATED_DIR } from "./test-tree.ts";

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

/** A path into the checkout's `generated/` read from the run's tree instead (test/support/test-tree.ts). */
function inTree(path: string): string {
  return path === CHECKOUT_GENERATED || path.startsWith(`${CHECKOUT_GENERATED}/`)
    ? GENERATED_DIR + path.slice(CHECKOUT_GENERATED.length)
    : path;
}

/**
 * Type-checks the given root files (and what they import) in one program; returns every diagnostic. Fixtures
 * import the bindings as `../../generated/…`: tsc reads those files from the run's tree, under the names it sees.
 */
export function typecheck(
  rootFiles: readonly string[],
  options: ts.CompilerOptions = STRICT_OPTIONS,
  edit?: SourceEdit,
): Diagnostic[] {
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  const directoryExists = host.directoryExists?.bind(host);
  host.fileExists = (file) => exists(inTree(file));
  if (directoryExists) host.directoryExists = (dir) => directoryExists(inTree(dir));
  host.readFile = (file) => {
    const text = read(inTree(file));
    return text === undefined || !edit ? text : edit(file, text);
  };
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
