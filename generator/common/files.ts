import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { BindgenError } from "./failures.ts";

// Files every stage writes safely: the schema cache and its lock (load/), the output tree (output/), the config (project/).

/** Writes a file through a temporary sibling and a rename, so readers never see half a file. */
export function atomicWriteFile(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.tmp-${process.pid}`);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * An exclusive lock file beside `target` (an output tree or a lock file): a second generator on the
 * same target waits its turn or, if the holder died, takes the lock over.
 */
export function acquireLock(target: string, timeoutMs = 120_000): () => void {
  const path = join(dirname(target), `.${basename(target)}.lock`);
  mkdirSync(dirname(path), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fd = openSync(path, "wx");
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = Number(safeRead(path));
      // A holder creates the file, then writes its pid: an empty file may be one being written, not a dead one's.
      const unnamed = !Number.isInteger(holder) || holder <= 0;
      if (unnamed ? ageMs(path) > UNNAMED_LOCK_GRACE_MS : !isAlive(holder)) {
        try {
          unlinkSync(path);
        } catch {
          // Another waiter removed the stale lock first; try again.
        }
        continue;
      }
      if (Date.now() > deadline) {
        // A BindgenError, so the CLI prints this one line (exit 1) rather than a stack trace.
        throw new BindgenError(
          path,
          "",
          `no other mcp-bindgen writing ${target}`,
          `pid ${holder} holds the lock; waited ${timeoutMs / 1000}s`,
        );
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
}

/** Whether a process that holds a lock or left a staging folder still runs (never this one). */
export function isAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** How long a lock file without a pid is taken for one being written before it counts as a dead holder's. */
const UNNAMED_LOCK_GRACE_MS = 5_000;

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return Infinity;
  }
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
