/** JSDoc text safe to embed: a `*\/` inside a description would end the comment early. */
export function docText(text: string | undefined): string[] {
  if (text === undefined || text.trim() === "") return [];
  return [text.replace(/\*\//g, "*\\/")];
}
