import type { ProtocolModel } from "../model/protocol-model.ts";
import type { EmittedFile, RenderOptions, RootEmitter, VersionEmitter } from "./emitted.ts";
import { emitAnswers } from "./answers.ts";
import { emitClient } from "./client.ts";
import { emitEnvelope } from "./envelope.ts";
import { emitDispatch } from "./dispatch.ts";
import { emitErrors } from "./errors.ts";
import { assertDistinctExports } from "./export-names.ts";
import { emitMeta } from "./meta.ts";
import { emitHttp } from "./http.ts";
import { emitMethods } from "./methods.ts";
import { emitRequester } from "./requester.ts";
import { servesMcpRelease } from "./mcp-release.ts";
import { emitServer } from "./server.ts";
import { finishFile } from "./output-file.ts";
import { emitRootIndex } from "./root-index.ts";
import { runtimeFiles } from "./runtime-files.ts";
import { emitRuntime } from "./root-runtime.ts";
import { emitServerTools } from "./server-tools.ts";
import type { ToolSet } from "../tools/tool-set.ts";
import { emitTypes } from "./types.ts";
import { emitValidate } from "./validate.ts";
import { emitVersionIndex } from "./version-index.ts";

/**
 * Every module of a version folder, in the order its `index.ts` re-exports them. Adding an
 * output module means adding its emitter here.
 */
export const VERSION_EMITTERS: readonly {
  readonly module: string;
  readonly emit: VersionEmitter;
  readonly when?: (model: ProtocolModel) => boolean;
  /** false: not re-exported by the folder's `index.ts` (its names would shadow another module's). */
  readonly indexed?: false;
}[] = [
  { module: "types", emit: emitTypes },
  { module: "methods", emit: emitMethods },
  { module: "errors", emit: emitErrors },
  { module: "meta", emit: emitMeta },
  { module: "envelope", emit: emitEnvelope },
  { module: "validate", emit: emitValidate },
  { module: "requester", emit: emitRequester },
  { module: "dispatch", emit: emitDispatch },
  // Only releases whose Streamable HTTP transport routes on headers have the header functions.
  { module: "http", emit: emitHttp, when: (model) => model.http !== null },
  // The server transports' side of a release: a session release, or a stateless one with its header facts.
  { module: "server", emit: emitServer, when: (model) => model.era === "legacy" || model.http !== null },
  { module: "client", emit: emitClient },
  // What the high-level server's handlers answer, readonly (server.ts's MCP_RELEASE reads it), named as in types.ts.
  {
    module: "answers",
    emit: emitAnswers,
    when: (model) => (model.era === "legacy" || model.http !== null) && servesMcpRelease(model),
    indexed: false,
  },
];

/** Modules over all versions, re-exported by `generated/index.ts`. */
export const ROOT_EMITTERS: readonly { readonly module: string; readonly emit: RootEmitter }[] = [
  { module: "runtime", emit: emitRuntime },
];

/**
 * Every output file, unformatted: each release's folder, the root modules, and the shared runtime
 * copied from generator/runtime/; headers and import extensions follow `options`.
 */
export function* emitFiles(
  models: readonly ProtocolModel[],
  options: RenderOptions = {},
  servers: readonly ToolSet[] = [],
): Generator<EmittedFile> {
  const rootOptions =
    options.rootRegenerateCommand === undefined
      ? options
      : { ...options, regenerateCommand: options.rootRegenerateCommand };
  for (const { emit } of ROOT_EMITTERS) yield finishFile(emit(models), rootOptions);
  yield finishFile(
    emitRootIndex(
      models,
      ROOT_EMITTERS.map((e) => e.module),
    ),
    rootOptions,
  );
  for (const model of models) {
    const present = VERSION_EMITTERS.filter((e) => e.when?.(model) ?? true);
    const modules = present.filter((e) => e.indexed ?? true).map((e) => e.module);
    const emitted: EmittedFile[] = [];
    for (const { emit, indexed } of present) {
      const file = emit(model);
      if (indexed ?? true) emitted.push(file);
      yield finishFile(file, options);
    }
    assertDistinctExports(model, emitted);
    yield finishFile(emitVersionIndex(model, modules), options);
  }
  for (const server of servers) yield finishFile(emitServerTools(server, models), rootOptions);
  for (const file of runtimeFiles(options.extras ?? [])) yield finishFile(file, rootOptions);
}
