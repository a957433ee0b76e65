import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { EmittedFile } from "./emit/emitted.ts";
import { extractPrinted, markPrinted, PRINT_WIDTH, restorePrinted } from "./emit/printed.ts";
import { markPrettierStable } from "./prettier-stable.ts";

/** How generated modules are printed; any prettier parser for TypeScript must print them identically. */
export const PRETTIER_OPTIONS = { printWidth: PRINT_WIDTH, trailingComma: "all", endOfLine: "lf" } as const;

/**
 * `babel-ts` rather than `typescript`: on the generated modules both print the same bytes (a test
 * holds them to that), and babel's parser loads and runs about twice as fast as typescript-estree.
 * Prettier's standalone build with only the plugins that parser needs: the full entry point adds
 * config resolution and a plugin loader that a run with fixed options never uses.
 */
const PRETTIER_MODULES = ["prettier/standalone", "prettier/plugins/babel", "prettier/plugins/estree"] as const;

/**
 * Between modules formatted in one prettier call. Prettier keeps a top-level line comment on a
 * line of its own and formats statements independently of their neighbours, so the output splits
 * back into each module exactly as prettier prints it alone (test/format.test.ts holds every
 * module to that).
 */
const MODULE_BOUNDARY = "\n// mcp-bindgen:module-boundary\n";

/**
 * The worker's whole program. A string run with `eval` rather than a module file, so it starts the
 * same way from the compiled package, under tsx and inside the test runner; prettier's modules are
 * resolved by the main thread and passed in, so the user's working directory does not matter.
 * Modules that arrived while it was busy are formatted in one call: each call costs prettier about
 * a millisecond of option handling, which over fifty modules was a tenth of its time. A batch that
 * fails is formatted module by module, so the error names the module.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const [prettier, ...plugins] = workerData.modules.map((path) => require(path));
const options = { ...workerData.options, plugins };
const boundary = workerData.boundary;
const pending = [];
let running = false;
const one = async ({ index, content }) => {
  try {
    parentPort.postMessage({ index, content: await prettier.format(content, options) });
  } catch (error) {
    parentPort.postMessage({ index, error: String((error && error.message) || error) });
  }
};
const run = async () => {
  running = true;
  for (;;) {
    // Let the messages that arrived meanwhile in before taking the batch.
    await new Promise((resolve) => setImmediate(resolve));
    const batch = pending.splice(0);
    if (batch.length === 0) break;
    if (batch.length === 1) {
      await one(batch[0]);
      continue;
    }
    let parts;
    try {
      parts = (await prettier.format(batch.map((m) => m.content.trimEnd()).join(boundary) + "\\n", options)).split(boundary);
    } catch {}
    if (parts && parts.length === batch.length) batch.forEach(({ index }, i) => parentPort.postMessage({ index, content: i < parts.length - 1 ? parts[i] + "\\n" : parts[i] }));
    else for (const message of batch) await one(message);
  }
  running = false;
};
parentPort.on("message", (message) => {
  pending.push(message);
  if (!running) void run();
});
`;

/**
 * What prettier sees of a module: the statements an emitter printed itself and those already in
 * prettier's form become placeholders (`source`); `runs` are what they stand for, put back after.
 */
export function prettierInput(content: string): { readonly source: string; readonly runs: readonly string[] } {
  return extractPrinted(markPrettierStable(content, markPrinted));
}

/** One distinct prettier input: the modules waiting for it, then prettier's output for it. */
interface SharedInput {
  readonly waiting: number[];
  output?: string;
}

type WorkerReply = { readonly index: number; readonly content: string } | { readonly index: number; readonly error: string };

/** Formats emitted files with prettier on a worker thread while the caller goes on emitting. */
export interface Formatter {
  /**
   * Queues one file. Copied runtime sources (`verbatim`, already formatted) pass through untouched,
   * and so do the statements an emitter printed itself (emit/printed.ts) and the declarations
   * already in prettier's form (prettier-stable.ts): prettier sees a placeholder comment.
   */
  add(file: EmittedFile): void;
  /** Every file added, formatted, in the order added; rejects naming the first file prettier refused, or if the worker died. */
  finish(): Promise<EmittedFile[]>;
  /** Stops the worker; safe to call at any time, and again. */
  close(): void;
}

/**
 * Starts prettier loading on a worker thread at once, so that it loads (and formats) while the
 * main thread imports TypeScript for ts-morph and emits: on two cores the formatting then mostly
 * overlaps the rest. One worker: a second loads and warms up prettier again, which on two shared
 * cores cost more than it saved.
 */
export function startFormatter(): Formatter {
  const require = createRequire(import.meta.url);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { modules: PRETTIER_MODULES.map((m) => require.resolve(m)), options: { ...PRETTIER_OPTIONS, parser: "babel-ts" }, boundary: MODULE_BOUNDARY },
  });
  const files: EmittedFile[] = [];
  const printed: (readonly string[])[] = [];
  const results: (string | undefined)[] = [];
  /**
   * Prettier prints the same text the same way, and releases share much of theirs: each distinct
   * input is sent once. Keyed by prettier's input: the modules waiting for it, then its output.
   */
  const inputs = new Map<string, SharedInput>();
  /** By the index of the module that sent it: the input a worker reply answers. */
  const sentInput: SharedInput[] = [];
  let pending = 0;
  let failure: Error | undefined;
  let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;

  const fail = (error: Error): void => {
    failure ??= error;
    settle?.reject(failure);
  };
  worker.on("message", (reply: WorkerReply) => {
    if ("error" in reply) return fail(new Error(`prettier could not format ${files[reply.index]!.path}: ${reply.error}`));
    try {
      const input = sentInput[reply.index]!;
      input.output = reply.content;
      // Each module gets back its own printed statements: the same input only means the same placeholders.
      for (const index of input.waiting) results[index] = restorePrinted(reply.content, printed[index]!, files[index]!.path);
    } catch (error) {
      return fail(error as Error);
    }
    if (--pending === 0) settle?.resolve();
  });
  worker.on("error", (error) => fail(new Error(`the formatting worker failed: ${error.message}`)));
  worker.on("exit", (code) => {
    if (pending > 0) fail(new Error(`the formatting worker exited (code ${code}) before formatting every file`));
  });

  return {
    add(file) {
      const index = files.push(file) - 1;
      if (file.verbatim) return void (results[index] = file.content);
      const { source, runs } = prettierInput(file.content);
      printed[index] = runs;
      const input = inputs.get(source);
      if (input?.output !== undefined) {
        try {
          results[index] = restorePrinted(input.output, runs, file.path);
        } catch (error) {
          fail(error as Error);
        }
        return;
      }
      if (input) return void input.waiting.push(index);
      const sent = { waiting: [index] };
      inputs.set(source, sent);
      sentInput[index] = sent;
      pending++;
      worker.postMessage({ index, content: source });
    },
    async finish() {
      if (failure) throw failure;
      if (pending > 0) await new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
      return files.map((f, i) => ({ path: f.path, content: results[i]! }));
    },
    close() {
      void worker.terminate();
    },
  };
}

/** Formats every emitted file (see startFormatter); output is stable for stable input. */
export async function formatFiles(files: readonly EmittedFile[]): Promise<EmittedFile[]> {
  const formatter = startFormatter();
  try {
    for (const file of files) formatter.add(file);
    return await formatter.finish();
  } finally {
    formatter.close();
  }
}
