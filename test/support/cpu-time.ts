/**
 * The CPU time (user + system, in ms) this process spends running `fn`. "Fast" is asserted on CPU
 * time, not wall time: beside a CPU-heavy job on two cores the wall time of the same work grows
 * 2–4× while its CPU time stays put, and a test must not fail for the machine's other work.
 */
export function cpuTimed<T>(fn: () => T): { value: T; cpuMs: number } {
  const start = process.cpuUsage();
  const value = fn();
  const used = process.cpuUsage(start);
  return { value, cpuMs: (used.user + used.system) / 1000 };
}
