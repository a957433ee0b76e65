/**
 * One row of the bench table: a figure of ours against a baseline measured in the same run.
 * `ratio` is ours ÷ baseline; `target` says which way is good (`≤ 0.4×`, `≥ 0.5×`), on the
 * ratio, or on our own figure when it carries a unit (`≤ 8,000 B`, `< 500 ms`).
 */
export interface BenchRow {
  readonly section: string;
  readonly measure: string;
  readonly ours: string;
  readonly baseline: string;
  readonly ratio: number | null;
  /** Our figure in the row's unit, for targets that bound it rather than the ratio. */
  readonly value: number;
  readonly target?: { readonly op: "≤" | "≥" | "<"; readonly value: number; readonly unit?: string };
  /** Why a row has no figures (a module not generated yet, a tool missing). */
  readonly note?: string;
}

export function row(
  section: string,
  measure: string,
  ours: number,
  baseline: number,
  unit: string,
  target?: BenchRow["target"],
): BenchRow {
  return {
    section,
    measure,
    ours: formatValue(ours, unit),
    value: ours,
    baseline: formatValue(baseline, unit),
    ratio: baseline === 0 ? null : ours / baseline,
    ...(target ? { target } : {}),
  };
}

export function missingRow(section: string, measure: string, note: string): BenchRow {
  return { section, measure, ours: "n/a", baseline: "n/a", value: Number.NaN, ratio: null, note };
}

function formatValue(value: number, unit: string): string {
  if (unit === "B") return `${Math.round(value).toLocaleString("en-US")} B`;
  if (unit === "ops/s") return `${Math.round(value).toLocaleString("en-US")} ops/s`;
  if (unit === "MB") return `${value.toFixed(1)} MB`;
  if (unit === "") return Math.round(value).toLocaleString("en-US");
  return `${value >= 100 ? Math.round(value) : value.toFixed(2)} ${unit}`;
}

function verdict(r: BenchRow): string {
  if (r.note) return r.note;
  if (!r.target || r.ratio === null) return "";
  const { op, value, unit } = r.target;
  const figure = unit === undefined ? r.ratio : r.value;
  const met = op === "≤" ? figure <= value : op === "<" ? figure < value : figure >= value;
  return `${op} ${unit === undefined ? `${value}×` : formatValue(value, unit)} ${met ? "met" : "MISSED"}`;
}

/** A Markdown table, readable as plain text too. */
export function renderTable(rows: readonly BenchRow[]): string {
  const header = ["section", "measure", "ours", "baseline", "ratio", "target"];
  const cells = rows.map((r) => [
    r.section,
    r.measure,
    r.ours,
    r.baseline,
    r.ratio === null ? "–" : `${r.ratio.toFixed(3)}×`,
    verdict(r),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => `| ${c.map((x, i) => x.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}
