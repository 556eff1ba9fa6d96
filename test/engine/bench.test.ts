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
  expect(r.testAccuracy.best).toBeGreaterThan(r.testAccuracy.initial);
}, 60_000);
