import { spawnSync, type SpawnSyncOptions } from "node:child_process";

/** Wall time of one child process, in ms; throws with its output if it fails. */
export function timeSpawn(command: string, args: readonly string[], options: SpawnSyncOptions = {}): number {
  const started = performance.now();
  const r = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...options });
  const ms = performance.now() - started;
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(" ")} exited ${r.status}:\n${String(r.stdout)}\n${String(r.stderr)}`);
  return ms;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Runs each of `runs` in turn, `rounds` times, so drift in machine load hits them alike; their medians, in order. */
export function alternate(rounds: number, ...runs: (() => number)[]): number[] {
  const times = runs.map((): number[] => []);
  for (let i = 0; i < rounds; i++) runs.forEach((run, j) => times[j]!.push(run()));
  return times.map(median);
}
