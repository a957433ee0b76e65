/**
 * One error type for every failure the user can cause: it always names the file, the JSON
 * pointer inside it and what was expected, so a message alone is enough to fix the input.
 */
export class BindgenError extends Error {
  readonly file: string;
  readonly pointer: string;
  readonly expected: string;
  readonly detail: string | undefined;

  constructor(file: string, pointer: string, expected: string, detail?: string) {
    const where = pointer === "" ? file : `${file}#${pointer}`;
    super(`${where}: expected ${expected}${detail ? ` (${detail})` : ""}`);
    this.name = "BindgenError";
    this.file = file;
    this.pointer = pointer;
    this.expected = expected;
    this.detail = detail;
  }
}

/**
 * An output folder mcp-bindgen may not write (someone else's files, a package's folder): exit 2 like a usage error,
 * since no run can succeed until the config or the folder changes, and `--force` does not override it.
 */
export class OutputRefusedError extends BindgenError {
  constructor(file: string, pointer: string, expected: string, detail?: string) {
    super(file, pointer, expected, detail);
    this.name = "OutputRefusedError";
  }
}

/** The exit-code contract, shown in every command's --help (scripts and CI rely on it). */
export const EXIT_CODES_HELP =
  "Exit codes: 0 success, 1 failure (bad input, failed download, stale output under --check), 2 usage error (unknown command, flag or release; an output folder holding files mcp-bindgen did not write; --check unable to check).";

/** Misuse of the command line (unknown version, bad flag): exit code 2, not 1. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Thrown by a command that has already printed why it failed (a stale --check, a --fail-on diff). */
export class CommandFailure extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
    this.name = "CommandFailure";
  }
}

/** RFC 6901 escaping of one reference token. */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function joinPointer(base: string, ...tokens: (string | number)[]): string {
  return base + tokens.map((t) => "/" + escapePointerToken(String(t))).join("");
}
