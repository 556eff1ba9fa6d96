// The benchmark script itself stays working: its formulas hold and its JSON carries the keys
// issue #3 names. (Run at zero latency here; `npm run bench` uses 200 ms.)
import { expect, it, vi } from 'vitest';
import { main } from '../support/bench';

it('npm run bench -- --json: formulas hold and the JSON has every key', async () => {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((s: string) => void lines.push(s));
  try {
    expect(await main(['--json', '--latency=0', '--quick'])).toBe(0);
  } finally {
    spy.mockRestore();
  }
  const r = JSON.parse(lines[lines.length - 1]);
  for (const key of ['calls', 'expectedCalls', 'criticalPathRatio', 'earlyStopSavedCalls', 'cacheHits', 'cpuMsPer1000Rollouts']) expect(r).toHaveProperty(key);
  expect(r.calls.rollout).toBe(r.expectedCalls.rollout);
  // Issue #45: each step's wall cut stage by stage sums to the step's wall, and the stages' bounds
  // to the step's bound with the train check's and the verdicts' round trips.
  for (const key of ['criticalPathRatioWithCheck', 'criticalPathRatioWithoutVerdictRounds', 'stageTotals']) expect(r).toHaveProperty(key);
  type Step = { wallMs: number; roundTrips: number; checkRoundTrips: number; verdictRoundTrips: number; stages: { wallMs: number; trips: number }[] };
  for (const s of r.steps as Step[]) {
    expect(s.stages.reduce((a, f) => a + f.wallMs, 0)).toBeCloseTo(s.wallMs, 3);
    expect(s.stages.reduce((a, f) => a + f.trips, 0)).toBe(s.roundTrips + s.checkRoundTrips + s.verdictRoundTrips);
  }
  // The bench's run asks again on its gate (its target flips): those rounds are in the bound.
  expect((r.steps as Step[]).reduce((a, s) => a + s.verdictRoundTrips, 0)).toBeGreaterThan(0);
  expect(r.testAccuracy.best).toBeGreaterThan(r.testAccuracy.initial);
}, 60_000);
