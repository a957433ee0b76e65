import { createRequire } from "node:module";
import type * as TsMorph from "ts-morph";

/**
 * The ts-morph values the generator uses, loaded with `require`. ts-morph is a CommonJS bundle: an ESM
 * `import` of it makes Node first scan its source for export names (cjs-module-lexer), 0.17 s of every
 * cold `generate` on a 2-core machine (`import("ts-morph")` 745 ms against `require` 576 ms, best of 7).
 * Its types come from `import type` as usual.
 */
const tsMorph: typeof TsMorph = createRequire(import.meta.url)("ts-morph") as typeof TsMorph;

export const StructureKind: typeof TsMorph.StructureKind = tsMorph.StructureKind;
export const VariableDeclarationKind: typeof TsMorph.VariableDeclarationKind = tsMorph.VariableDeclarationKind;
export const Writers: typeof TsMorph.Writers = tsMorph.Writers;
export const CodeBlockWriter: typeof TsMorph.CodeBlockWriter = tsMorph.CodeBlockWriter;
export const printStructure: typeof TsMorph.printStructure = tsMorph.printStructure;
export const ts: typeof TsMorph.ts = tsMorph.ts;
