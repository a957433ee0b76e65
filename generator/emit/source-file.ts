import { Project, type SourceFile } from "ts-morph";
import { GENERATED_HEADER } from "./names.ts";

let project: Project | undefined;

/** One in-memory ts-morph project for the whole run: creating one per file costs more than the emit. */
function sharedProject(): Project {
  project ??= new Project({
    useInMemoryFileSystem: true,
    skipLoadingLibFiles: true,
    skipFileDependencyResolution: true,
  });
  return project;
}

/**
 * Builds one output module through ts-morph and returns its text. The file is dropped from the
 * project afterwards so memory stays flat across versions.
 */
export function buildSourceFile(path: string, build: (file: SourceFile) => void): string {
  const file = sharedProject().createSourceFile(`/${path}`, "", { overwrite: true });
  build(file);
  const text = `${GENERATED_HEADER}\n${file.getFullText()}`;
  sharedProject().removeSourceFile(file);
  return text;
}
