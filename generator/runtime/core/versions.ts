// Choosing a protocol version. The lists are the generated releases (newest first), passed in by
// the root `runtime.ts`, so these rules hold for whichever releases a project generates.

/** The newest legacy version both sides support; if there is none, the newest legacy version (`initialize` negotiates again anyway). */
export function pickLegacyVersion(legacy: readonly string[], supported: readonly string[]): string {
  return legacy.find((v) => supported.includes(v)) ?? (legacy[0] as string);
}

/** A generated modern version, or an unlisted one newer than every legacy version (a probe of a future release). */
export function towardsModern(
  version: string,
  legacy: readonly string[],
  modern: readonly string[],
): boolean {
  return modern.includes(version) || (!legacy.includes(version) && version > (legacy[0] ?? ""));
}
