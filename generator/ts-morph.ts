// ts-morph's runtime values, loaded through V8's code cache (code-cache.ts). Generator modules
// import values from here and types from "ts-morph": an `import` of ts-morph itself would compile
// its TypeScript from source on every run, and scan its 1 MB for export names first.
import type * as TsMorph from "ts-morph";
import { requireWithCodeCache } from "./code-cache.ts";

const tsMorph = requireWithCodeCache("ts-morph", import.meta.url).exports as typeof TsMorph;

export const { IndentationText, Project, QuoteKind, StructureKind, VariableDeclarationKind, Writers, ts } = tsMorph;
export type Project = TsMorph.Project;
