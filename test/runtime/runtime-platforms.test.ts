import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXTRA_NAMES } from "../../generator/common/extras.ts";
import { PACKAGE_ROOT } from "../../generator/project/project.ts";
import { formatDiagnostics, STRICT_OPTIONS, typecheck } from "../support/typecheck.ts";

const RUNTIME_DIR = join(PACKAGE_ROOT, "generator", "runtime");

describe("abort.ts's AbortSignal, the one the dispatcher, input requests and requester take", () => {
  // It merges with the platform's declaration where a project has one; merged members must agree to the letter
  // (DOM and @types/node declare `reason: any`, so abort.ts does not declare it), and lib files are checked here, as a
  // project without skipLibCheck does.
  const sources = readdirSync(RUNTIME_DIR, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => join(RUNTIME_DIR, file));
  // The optional parts import packages whose own types need the platform's fetch, URL and Headers, so a project
  // without any platform types can only use the rest.
  const noExtras = sources.filter((file) => !EXTRA_NAMES.some((extra) => file.startsWith(join(RUNTIME_DIR, extra))));
  it.each([
    { platform: "DOM", lib: ["lib.es2022.d.ts", "lib.dom.d.ts"], types: [], files: sources },
    { platform: "@types/node", lib: ["lib.es2022.d.ts"], types: ["node"], files: sources },
    { platform: "neither", lib: ["lib.es2022.d.ts"], types: [], files: noExtras },
  ])("compiles beside $platform's", ({ lib, types, files }) => {
    expect(formatDiagnostics(typecheck(files, { ...STRICT_OPTIONS, lib, types, skipLibCheck: false }))).toBe("");
  });
});
