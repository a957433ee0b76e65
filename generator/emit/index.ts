import type { ProtocolModel } from "../model/protocol-model.ts";
import type { EmittedFile, RootEmitter, VersionEmitter } from "./emitted.ts";

/**
 * Every module of a version folder, in the order they are listed in its `index.ts`. Adding an
 * output module means adding its emitter here.
 */
export const VERSION_EMITTERS: readonly { readonly module: string; readonly emit: VersionEmitter }[] = [];

export const ROOT_EMITTERS: readonly RootEmitter[] = [];

export function emitAll(models: readonly ProtocolModel[]): EmittedFile[] {
  const files: EmittedFile[] = [];
  for (const model of models) for (const { emit } of VERSION_EMITTERS) files.push(emit(model));
  for (const emit of ROOT_EMITTERS) files.push(emit(models));
  return files;
}
