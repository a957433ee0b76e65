/**
 * Child process for the atomic-output test: replaces `target` with `count` files tagged `tag`
 * through the real lock + writeTree, announcing "writing" first so the parent can aim its kill
 * at the write itself rather than at start-up.
 */
import { acquireLock } from "../../generator/common/files.ts";
import { writeTree } from "../../generator/output/write.ts";

const [target, count, tag] = process.argv.slice(2) as [string, string, string];
const files = new Map<string, string>();
for (let i = 0; i < Number(count); i++)
  files.set(
    `v${i % 7}/file-${i}.ts`,
    `export const tag = ${JSON.stringify(tag)};\nexport const n = ${i};\n${"// padding\n".repeat(50)}`,
  );
// Stamped as generate stamps its output, so the next writer may replace these files.
files.set(
  ".bindgen-stamp",
  JSON.stringify({ input: tag, versions: [], files: Object.fromEntries([...files.keys()].map((path) => [path, ""])) }),
);
process.stdout.write("writing\n");
const release = acquireLock(target);
try {
  writeTree(target, files);
} finally {
  release();
}
process.stdout.write("done\n");
