import type { ProtocolModel } from "../model/protocol-model.ts";

/** One output file, relative to `generated/`, before formatting. */
export interface EmittedFile {
  readonly path: string;
  readonly content: string;
}

/** Emits one module of one version's folder from its model. */
export type VersionEmitter = (model: ProtocolModel) => EmittedFile;

/** Emits a module over all versions (newest first). */
export type RootEmitter = (models: readonly ProtocolModel[]) => EmittedFile;
