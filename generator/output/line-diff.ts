/**
 * A small unified line diff (Myers' O(ND) algorithm) for `generate --check`: enough to show a
 * user what changed in a generated file, capped so a wholesale change prints a summary instead.
 */
type Op = { readonly kind: " " | "-" | "+"; readonly line: string; readonly a: number; readonly b: number };

const CONTEXT = 3;

export function unifiedDiff(
  oldText: string,
  newText: string,
  oldName: string,
  newName: string,
  maxLines = 40,
): string[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const ops = diffLines(a, b, 4000);
  if (ops === undefined)
    return [`--- ${oldName}`, `+++ ${newName}`, `@@ too many differences to show (${a.length} → ${b.length} lines) @@`];
  const out = [`--- ${oldName}`, `+++ ${newName}`];
  for (const hunk of hunks(ops)) {
    const first = hunk[0]!;
    const oldCount = hunk.filter((o) => o.kind !== "+").length;
    const newCount = hunk.filter((o) => o.kind !== "-").length;
    out.push(`@@ -${first.a + 1},${oldCount} +${first.b + 1},${newCount} @@`);
    for (const op of hunk) out.push(op.kind + op.line);
    if (out.length >= maxLines) break;
  }
  if (out.length > maxLines) return [...out.slice(0, maxLines), `… (diff cut at ${maxLines} lines)`];
  return out;
}

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Edit script from a to b, or undefined when more than `maxEdits` lines differ. */
export function diffLines(a: readonly string[], b: readonly string[], maxEdits: number): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, [...trace.slice(1), next], offset, d);
    }
    v = next;
  }
  return undefined;
}

function backtrack(
  a: readonly string[],
  b: readonly string[],
  trace: Int32Array[],
  offset: number,
  dEnd: number,
): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d - 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = v[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) ops.push({ kind: " ", line: a[--x]!, a: x, b: --y });
    if (x === prevX) ops.push({ kind: "+", line: b[--y]!, a: x, b: y });
    else ops.push({ kind: "-", line: a[--x]!, a: x, b: y });
  }
  while (x > 0 && y > 0) ops.push({ kind: " ", line: a[--x]!, a: x, b: --y });
  return ops.reverse();
}

/** Groups changes with up to CONTEXT unchanged lines around them; nearby changes share a hunk. */
function hunks(ops: readonly Op[]): Op[][] {
  const ranges: [number, number][] = [];
  ops.forEach((op, i) => {
    if (op.kind === " ") return;
    const lo = Math.max(0, i - CONTEXT);
    const hi = Math.min(ops.length - 1, i + CONTEXT);
    const last = ranges[ranges.length - 1];
    if (last && lo <= last[1] + 1) last[1] = hi;
    else ranges.push([lo, hi]);
  });
  return ranges.map(([lo, hi]) => ops.slice(lo, hi + 1));
}
