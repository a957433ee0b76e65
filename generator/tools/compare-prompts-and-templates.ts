import type { Severity } from "../diff/change.ts";
import { joinPointer } from "../common/failures.ts";
import type { SnapshotPrompt, SnapshotTemplate } from "./snapshot.ts";
import { uriParameters } from "./tool-set.ts";

/** Ids are a contract for tools reading `--format json`: add ids, never rename them. */
export type PromptChangeId =
  | "prompt-added"
  | "prompt-removed"
  | "prompt-argument-added"
  | "prompt-argument-removed"
  | "prompt-argument-became-required"
  | "prompt-argument-became-optional"
  | "prompt-title-changed"
  | "prompt-description-changed";

export type TemplateChangeId =
  | "template-added"
  | "template-removed"
  | "template-uri-changed"
  | "template-variable-added"
  | "template-variable-removed"
  | "template-variable-renamed"
  | "template-variable-became-required"
  | "template-variable-became-optional"
  | "template-mime-type-changed"
  | "template-title-changed"
  | "template-description-changed";

/** What a change is to: the server's tools came first, its prompts and resource templates later. */
export type ChangeKind = "tool" | "prompt" | "resource-template";

/** What every change says, whatever it is to. */
export interface ChangeFields {
  readonly kind: ChangeKind;
  /** The tool's, prompt's or resource template's name. */
  readonly name: string;
  /**
   * Where in it: for a tool `arguments.<name>…`, `structuredContent.<name>…` or `annotations.<hint>`; for a prompt
   * `arguments.<name>`; for a template `uriTemplate`, `params.<variable>` or `mimeType`; "" for the thing itself.
   */
  readonly path: string;
  readonly message: string;
  readonly before: string | null;
  readonly after: string | null;
  /** RFC 6901 pointers into the old and new snapshot files. */
  readonly oldPointer: string | null;
  readonly newPointer: string | null;
  /** For callers: breaking when a call or a read that compiled and worked before fails now. */
  readonly severity: Severity;
}

/** A change to a prompt, rated for callers of the module's `getPrompt(session, name, args)`. */
export interface PromptChange extends ChangeFields {
  readonly kind: "prompt";
  readonly id: PromptChangeId;
}

/** A change to a resource template, rated for callers of the module's `readResource(session, template, params)`. */
export interface TemplateChange extends ChangeFields {
  readonly kind: "resource-template";
  readonly id: TemplateChangeId;
}

type Fields<C> = Omit<C, "kind" | "name" | "oldPointer" | "newPointer">;

/**
 * Prompts by name. Their arguments are typed as `getPrompt` types them (strings, required where the server says so),
 * and a caller passes every argument it knows of: one that disappears is then an excess property, a compile error.
 */
export function comparePrompts(before: readonly SnapshotPrompt[], after: readonly SnapshotPrompt[]): PromptChange[] {
  const out: PromptChange[] = [];
  const newByName = new Map(after.map((p, i) => [p.name, { prompt: p, pointer: joinPointer("/prompts", i) }]));
  const oldNames = new Set(before.map((p) => p.name));
  before.forEach((prompt, i) => {
    const oldPointer = joinPointer("/prompts", i);
    const now = newByName.get(prompt.name);
    const push = (fields: Fields<PromptChange>, at: string | null, to: string | null): void => {
      out.push({ ...fields, kind: "prompt", name: prompt.name, oldPointer: at, newPointer: to });
    };
    if (now === undefined) {
      push(
        {
          id: "prompt-removed",
          path: "",
          message: `prompt \`${prompt.name}\` was removed: every call to it fails to compile`,
          before: null,
          after: null,
          severity: "breaking",
        },
        oldPointer,
        null,
      );
      return;
    }
    const oldArgs = argumentsOf(prompt, oldPointer);
    const newArgs = argumentsOf(now.prompt, now.pointer);
    for (const [name, arg] of oldArgs) {
      const at = `arguments.${name}`;
      const next = newArgs.get(name);
      if (next === undefined) {
        push(
          {
            id: "prompt-argument-removed",
            path: at,
            message: `\`${at}\` was removed: a call still passing it no longer compiles`,
            before: null,
            after: null,
            severity: "breaking",
          },
          arg.pointer,
          null,
        );
        continue;
      }
      if (arg.required !== next.required)
        push(
          {
            id: next.required ? "prompt-argument-became-required" : "prompt-argument-became-optional",
            path: at,
            message: `\`${at}\` became ${next.required ? "required" : "optional"}`,
            before: null,
            after: null,
            severity: next.required ? "breaking" : "compatible",
          },
          arg.pointer,
          next.pointer,
        );
      for (const note of notes(arg.fields, next.fields, at, "argument"))
        push({ ...note, id: `prompt-${note.id}` }, arg.pointer, next.pointer);
    }
    for (const [name, arg] of newArgs) {
      if (oldArgs.has(name)) continue;
      const at = `arguments.${name}`;
      push(
        {
          id: "prompt-argument-added",
          path: at,
          message: `${arg.required ? "required" : "optional"} \`${at}\` was added`,
          before: null,
          after: arg.required ? "required" : "optional",
          severity: arg.required ? "breaking" : "compatible",
        },
        null,
        arg.pointer,
      );
    }
    for (const note of notes(prompt, now.prompt, "", "prompt"))
      push({ ...note, id: `prompt-${note.id}` }, oldPointer, now.pointer);
  });
  after.forEach((prompt, i) => {
    if (oldNames.has(prompt.name)) return;
    out.push({
      id: "prompt-added",
      kind: "prompt",
      name: prompt.name,
      path: "",
      message: `prompt \`${prompt.name}\` was added`,
      before: null,
      after: null,
      oldPointer: null,
      newPointer: joinPointer("/prompts", i),
      severity: "compatible",
    });
  });
  return out;
}

/**
 * Resource templates by name. Their parameters are the URI's variables, typed as `readResource` types them: required
 * unless every use is in a query or path-parameter expression (`?`, `&`, `;`), which RFC 6570 expands to nothing
 * when left out. The module expands the template it was generated from, so a new URI alone breaks no caller.
 */
export function compareTemplates(
  before: readonly SnapshotTemplate[],
  after: readonly SnapshotTemplate[],
): TemplateChange[] {
  const out: TemplateChange[] = [];
  const newByName = new Map(
    after.map((t, i) => [t.name, { template: t, pointer: joinPointer("/resourceTemplates", i) }]),
  );
  const oldNames = new Set(before.map((t) => t.name));
  before.forEach((template, i) => {
    const oldPointer = joinPointer("/resourceTemplates", i);
    const now = newByName.get(template.name);
    const push = (fields: Fields<TemplateChange>, at: string | null, to: string | null): void => {
      out.push({ ...fields, kind: "resource-template", name: template.name, oldPointer: at, newPointer: to });
    };
    if (now === undefined) {
      push(
        {
          id: "template-removed",
          path: "",
          message: `resource template \`${template.name}\` was removed: every read through it fails to compile`,
          before: null,
          after: null,
          severity: "breaking",
        },
        oldPointer,
        null,
      );
      return;
    }
    const uriAt = joinPointer(oldPointer, "uriTemplate");
    const uriTo = joinPointer(now.pointer, "uriTemplate");
    if (template.uriTemplate !== now.template.uriTemplate)
      push(
        {
          id: "template-uri-changed",
          path: "uriTemplate",
          message: "the URI template changed: `readResource` expands the new one",
          before: template.uriTemplate,
          after: now.template.uriTemplate,
          severity: "compatible",
        },
        uriAt,
        uriTo,
      );
    const oldParams = uriParameters(template.uriTemplate);
    const newParams = uriParameters(now.template.uriTemplate);
    const removed = [...oldParams.keys()].filter((v) => !newParams.has(v));
    const added = [...newParams.keys()].filter((v) => !oldParams.has(v));
    // Taken in order, a variable gone and one new in its place read as one renamed: the caller's old name no longer compiles.
    const renamed = Math.min(removed.length, added.length);
    for (let k = 0; k < renamed; k++)
      push(
        {
          id: "template-variable-renamed",
          path: `params.${removed[k]!}`,
          message: `\`params.${removed[k]!}\` was renamed to \`params.${added[k]!}\`: a read still passing the old name no longer compiles`,
          before: removed[k]!,
          after: added[k]!,
          severity: "breaking",
        },
        uriAt,
        uriTo,
      );
    for (const name of removed.slice(renamed))
      push(
        {
          id: "template-variable-removed",
          path: `params.${name}`,
          message: `\`params.${name}\` was removed: a read still passing it no longer compiles`,
          before: null,
          after: null,
          severity: "breaking",
        },
        uriAt,
        null,
      );
    for (const name of added.slice(renamed)) {
      const required = newParams.get(name)!;
      push(
        {
          id: "template-variable-added",
          path: `params.${name}`,
          message: `${required ? "required" : "optional"} \`params.${name}\` was added`,
          before: null,
          after: required ? "required" : "optional",
          severity: required ? "breaking" : "compatible",
        },
        null,
        uriTo,
      );
    }
    for (const [name, required] of oldParams) {
      const next = newParams.get(name);
      if (next === undefined || next === required) continue;
      push(
        {
          id: next ? "template-variable-became-required" : "template-variable-became-optional",
          path: `params.${name}`,
          message: `\`params.${name}\` became ${next ? "required" : "optional"}`,
          before: null,
          after: null,
          severity: next ? "breaking" : "compatible",
        },
        uriAt,
        uriTo,
      );
    }
    const oldMime = text(template["mimeType"]);
    const newMime = text(now.template["mimeType"]);
    if (oldMime !== newMime)
      push(
        {
          id: "template-mime-type-changed",
          path: "mimeType",
          message:
            "the MIME type of its resources changed: the read compiles and succeeds as before, but code that parses the contents as the old type needs a look",
          before: oldMime,
          after: newMime,
          severity: "compatible",
        },
        joinPointer(oldPointer, "mimeType"),
        joinPointer(now.pointer, "mimeType"),
      );
    for (const note of notes(template, now.template, "", "template"))
      push({ ...note, id: `template-${note.id}` }, oldPointer, now.pointer);
  });
  after.forEach((template, i) => {
    if (oldNames.has(template.name)) return;
    out.push({
      id: "template-added",
      kind: "resource-template",
      name: template.name,
      path: "",
      message: `resource template \`${template.name}\` was added`,
      before: null,
      after: null,
      oldPointer: null,
      newPointer: joinPointer("/resourceTemplates", i),
      severity: "compatible",
    });
  });
  return out;
}

interface Argument {
  readonly required: boolean;
  readonly pointer: string;
  readonly fields: { readonly [key: string]: unknown };
}

function argumentsOf(prompt: SnapshotPrompt, pointer: string): Map<string, Argument> {
  return new Map(
    (prompt.arguments ?? []).map((arg, j) => [
      arg.name,
      { required: arg.required === true, pointer: joinPointer(pointer, "arguments", j), fields: arg },
    ]),
  );
}

/** Title and description: read by people and models, never by a caller's code. */
function notes(
  before: { readonly [key: string]: unknown },
  after: { readonly [key: string]: unknown },
  path: string,
  what: string,
): {
  id: "title-changed" | "description-changed";
  path: string;
  message: string;
  before: string | null;
  after: string | null;
  severity: Severity;
}[] {
  const out: ReturnType<typeof notes> = [];
  const oldTitle = text(before["title"]);
  const newTitle = text(after["title"]);
  if (oldTitle !== newTitle)
    out.push({
      id: "title-changed",
      path,
      message: `the ${what}'s title changed`,
      before: oldTitle,
      after: newTitle,
      severity: "none",
    });
  if ((text(before["description"]) ?? "") !== (text(after["description"]) ?? ""))
    out.push({
      id: "description-changed",
      path,
      message: `the ${what}'s description changed`,
      before: null,
      after: null,
      severity: "none",
    });
  return out;
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}
