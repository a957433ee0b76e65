import type { ExtraName } from "../common/extras.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";

/** One output file, relative to `generated/`, before formatting. */
export interface EmittedFile {
  readonly path: string;
  readonly content: string;
  /** Copied runtime source: already formatted (the repository's prettier check covers it), so never formatted again. */
  readonly verbatim?: true;
}

/** Emits one module of one version's folder from its model. */
export type VersionEmitter = (model: ProtocolModel) => EmittedFile;

/** Emits a module over all versions (newest first). */
export type RootEmitter = (models: readonly ProtocolModel[]) => EmittedFile;

/** How the output is written for a project: `render()`'s options. */
export interface RenderOptions {
  /** The extension of every relative import specifier: `.js` (nodenext, bundlers) or `.ts` (`allowImportingTsExtensions`, Node's type stripping, Deno, Bun). */
  readonly importExtension?: ".js" | ".ts";
  /** The command the header of each file tells readers to run instead of editing it. */
  readonly regenerateCommand?: string;
  /**
   * The command for the files outside the release folders when it differs (a run that chose other releases than
   * the config: only these files speak of the set). Not part of the release folders' stamps, so it re-renders no release.
   */
  readonly rootRegenerateCommand?: string;
  /** Leave out the `@ts-nocheck` pragma, so a consumer's tsc checks the generated bodies too (slower, and nothing it could fix). */
  readonly typeCheckOutput?: boolean;
  /** Optional runtime parts copied too (common/extras.ts); the others are left out. */
  readonly extras?: readonly ExtraName[];
}
