// Gradient accumulation (algorithm doc §2.4, issue #11): `accumulation` batches are rolled out and
// reflected on per update step, their patches pooled into one update.
import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { trainOnce } from '../support/harness';
import { deriveSteps } from '../../src/core/config/run-config';

const server = sharedLlmServer();

describe('gradient accumulation', () => {
  it('two batches per step: half the steps, each rolled out and reflected on twice, one gate per step', async () => {
    const config = { epochs: 1, batchSize: 10, accumulation: 2 };
    const { outcome, store, runId } = await trainOnce({ url: server().url, config });
    expect(outcome.status).toBe('completed');
    const steps = await store.getSteps(runId);
    expect(steps).toHaveLength(deriveSteps({ ...config }, 40).totalSteps); // 40 train items / (10 × 2) = 2
    expect(steps).toHaveLength(2);
    const rows = await store.listRollouts(runId);
    const calls = await store.listCalls(runId);
    for (const s of steps) {
      const key = `s${String(s.step).padStart(4, '0')}`;
      expect(s.batches.map((b) => b.nItems)).toEqual([10, 10]);
      expect(s.rolloutN).toBe(20);
      // Each batch its own phase (spot checks of a deterministic target's noise aside: `…/r1`).
      expect(new Set(rows.filter((r) => r.phase.startsWith(`${key}/rollout/`) && !/\/r\d+$/.test(r.phase)).map((r) => r.phase))).toEqual(new Set([`${key}/rollout/b0`, `${key}/rollout/b1`]));
      // Analysts ran on each batch; their patches were merged into one candidate.
      for (const b of ['b0', 'b1']) expect(calls.filter((c) => c.key.startsWith(`${key}/${b}/`) && c.stage.startsWith('reflect_')).length).toBeGreaterThan(0);
      expect(s.nFailurePatches + s.nSuccessPatches).toBe(s.batches.reduce((a, b) => a + b.failurePatches + b.successPatches, 0));
    }
    expect(outcome.summary!.accepts).toBeGreaterThan(0);
  });
});
