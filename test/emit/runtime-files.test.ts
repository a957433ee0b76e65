import { describe, expect, it } from "vitest";
import { EXTRA_NAMES } from "../../generator/common/extras.ts";
import { runtimeFiles } from "../../generator/emit/runtime-files.ts";

describe("runtimeFiles: the runtime copied into the output, optional parts only when asked", () => {
  const under = (paths: string[], part: string) => paths.filter((path) => path.startsWith(`runtime/${part}/`));
  const none = runtimeFiles([]).map((file) => file.path);

  it.each(EXTRA_NAMES)("%s: left out unless the config lists it, and nothing else changes", (extra) => {
    const asked = runtimeFiles([extra]).map((file) => file.path);
    expect(under(none, extra)).toEqual([]);
    expect(under(asked, extra).length).toBeGreaterThan(0);
    expect(asked.filter((path) => !path.startsWith(`runtime/${extra}/`))).toEqual(none);
  });

  it("copies every other part whatever is asked", () => {
    for (const part of ["core", "validation", "tools", "server", "client"])
      expect(under(none, part).length).toBeGreaterThan(0);
  });
});
