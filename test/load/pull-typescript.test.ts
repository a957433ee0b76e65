import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BindgenError } from "../../generator/common/failures.ts";
import { pull } from "../../generator/load/pull.ts";
import { fixture, sha256, tmpProject, type TmpProject } from "../support/tmp-project.ts";

/** schema.ts is pinned in the lock beside schema.json and pulled with it from the same folder or URL. */
const V = "2031-01-01";
const SCHEMA = fixture("modern-minimal.json");
const TS = Buffer.from("export interface Result { [key: string]: unknown }\n");

let project: TmpProject;
let source: string;
beforeEach(() => {
  project = tmpProject("mcp-bindgen-pull-ts-");
  source = join(project.root, "upstream");
  mkdirSync(join(source, V), { recursive: true });
  writeFileSync(join(source, V, "schema.json"), SCHEMA);
  project.setLock({
    [V]: {
      url: "http://127.0.0.1:9/schema.json",
      sha256: sha256(SCHEMA),
      typescript: { url: "http://127.0.0.1:9/schema.ts", sha256: sha256(TS) },
    } as never,
  });
});
afterEach(() => project.cleanup());

const placed = () => join(project.paths.cacheDir, V, "schema.ts");

describe("pull places the pinned schema.ts", () => {
  it("from the folder the schema comes from, checked against the lock", async () => {
    writeFileSync(join(source, V, "schema.ts"), TS);
    await pull({ ...project.paths, versions: [V], from: source });
    expect(readFileSync(placed())).toEqual(TS);
  });

  it("a folder without one (CI's shared schemas) still gives the schema, and no schema.ts", async () => {
    await pull({ ...project.paths, versions: [V], from: source });
    expect(readFileSync(project.schemaFile(V))).toEqual(SCHEMA);
    expect(existsSync(placed())).toBe(false);
  });

  it("a copy with another sha256 is refused, naming it", async () => {
    writeFileSync(join(source, V, "schema.ts"), "export type Tampered = 1;\n");
    const error = await pull({ ...project.paths, versions: [V], from: source }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BindgenError);
    expect(String((error as Error).message)).toContain(join(source, V, "schema.ts"));
    expect(existsSync(placed())).toBe(false);
  });

  it("--update-lock keeps the schema.ts pin", async () => {
    await pull({ ...project.paths, versions: [V], from: source, force: true, updateLock: true });
    expect(project.readLock()[V]).toMatchObject({ typescript: { sha256: sha256(TS) } });
  });
});
