import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { BindgenError } from "../common/failures.ts";

export interface RawFile {
  readonly file: string;
  readonly bytes: Buffer;
  readonly sha256: string;
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A file's bytes and hash; a file that cannot be read is an error saying what it should have been. */
export function readRaw(file: string, expected = "a readable schema file"): RawFile {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new BindgenError(file, "", expected, code === "ENOENT" ? "file not found" : String(code ?? err));
  }
  return { file, bytes, sha256: sha256(bytes) };
}

/**
 * Parses JSON text and reports failures with line and column. A leading UTF-8 BOM is dropped:
 * editors add it, and it carries no meaning.
 */
export function parseJson(file: string, bytes: Buffer): unknown {
  let text = bytes.toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === "") throw new BindgenError(file, "", "JSON text", "the file is empty");
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new BindgenError(file, "", "JSON text", describeJsonError(text, (err as Error).message));
  }
}

function describeJsonError(text: string, message: string): string {
  const match = /position (\d+)/.exec(message);
  if (!match) return message;
  const offset = Number(match[1]);
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  return `${message.replace(/ in JSON at position \d+.*$/, "")} at line ${line}, column ${column}`;
}
