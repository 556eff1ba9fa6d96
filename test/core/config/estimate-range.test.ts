// The estimate as an interval (issue #33): the low end is the run whose steps find nothing to
// change, never above the upper bound; time spreads each stage over its role's concurrency.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { estimateRunCalls, lowRunCalls, totalCalls } from '../../../src/core/config/call-count';
import { DEFAULT_RUN_CONFIG, type RunConfig } from '../../../src/core/config/run-config';
import { formatDuration, HOSTED_PACE, runSeconds } from '../../../src/core/config/run-duration';
import { DEMO_PACE } from '../../../src/core/simulators/demo-world';
import { estimateCost } from '../../../src/engine/cost-estimate';
import { rolloutTemplateOf } from '../../../src/engine/context';
import { loadPrompts } from '../../support/prompts';

describe('the low end of a run’s calls', () => {
  it('keeps what every step makes, drops what only a candidate calls, and never passes the upper bound', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        fc.boolean(),
        fc.constantFrom('exact', 'judge'),
        (train, val, test, testNoSkill, scorer) => {
          const c: RunConfig = { ...DEFAULT_RUN_CONFIG, testNoSkill, scorer: { kind: scorer } as RunConfig['scorer'] };
          const upper = estimateRunCalls(c, { train, val, test });
          const low = lowRunCalls(upper, c);
          for (const [stage, n] of Object.entries(low)) expect(n, stage).toBeLessThanOrEqual(upper[stage as keyof typeof upper]);
          expect([low.baseline, low.rollout, low.reflect, low.slowUpdate]).toEqual([upper.baseline, upper.rollout, upper.reflect, upper.slowUpdate]);
          expect([low.merge, low.rank, low.trainCheck, low.repair, low.gate]).toEqual([0, 0, 0, 0, 0]);
          // The starting skill only, and no skill at all when that is asked for.
          expect(low.test).toBe((testNoSkill ? 2 : 1) * test);
          expect(totalCalls(low)).toBeLessThan(totalCalls(upper));
        },
      ),
    );
  });

  it('is priced like the upper bound, stage by stage', () => {
    const items: never[] = [];
    const prompts = loadPrompts();
    const splits = { train: 30, val: 15, test: 15 };
    const e = estimateCost({ config: DEFAULT_RUN_CONFIG, items, splits, skill: '# Skill\n', template: rolloutTemplateOf(DEFAULT_RUN_CONFIG, prompts), prompts, prices: { target: { input: 1, output: 2 }, optimizer: { input: 3, output: 6 } } });
    expect(e.low.totalCalls).toBe(totalCalls(lowRunCalls(estimateRunCalls(DEFAULT_RUN_CONFIG, splits), DEFAULT_RUN_CONFIG)));
    expect(e.low.stages.rollout).toEqual(e.stages.rollout);
    expect(e.low.stages.gate).toBeUndefined();
    expect(e.low.totalCostUsd!).toBeGreaterThan(0);
    expect(e.low.totalCostUsd!).toBeLessThan(e.totalCostUsd!);
    expect(e.assumptions.some((a) => a.startsWith('The low figure:'))).toBe(true);
  });
});

describe('how long a run may take', () => {
  const stages = { rollout: { calls: 80, completionTokens: 80 * 150 }, reflect: { calls: 10, completionTokens: 10 * 700 } };
  it('spreads each stage over its role’s concurrency at the pace assumed', () => {
    const one = runSeconds(stages, { targetConcurrency: 1, optimizerConcurrency: 1 }, HOSTED_PACE);
    expect(one).toBeCloseTo(80 * (0.6 + 150 / 60) + 10 * (0.6 + 700 / 60), 6);
    expect(runSeconds(stages, { targetConcurrency: 8, optimizerConcurrency: 1 }, HOSTED_PACE)).toBeCloseTo(10 * (0.6 + 150 / 60) + 10 * (0.6 + 700 / 60), 6);
    // The demo's simulated model: its pause per call only.
    expect(runSeconds(stages, { targetConcurrency: 4, optimizerConcurrency: 4 }, DEMO_PACE)).toBeCloseTo((20 + 3) * 0.04, 6);
  });

  it('says seconds, minutes or hours', () => {
    expect([formatDuration(0.2), formatDuration(45), formatDuration(300), formatDuration(3 * 3600)]).toEqual(['1 s', '45 s', '5 min', '3.0 h']);
  });
});
