/** Code-point order: independent of the locale, so output never depends on LANG. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
