// The run-start estimate prices the end-of-run section credit (issue #43 item 4): its budget of calls,
// every role's, at the target's prices — also for an agent, whose rollouts take several calls each —
// and says so among its assumptions; off, it adds nothing.
import { describe, expect, it } from 'vitest';
import { estimateCost } from '../../src/engine/cost-estimate';
import { rolloutTemplateOf } from '../../src/engine/context';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import { loadPrompts } from '../support/prompts';

const prompts = loadPrompts();
const args = (sectionCreditBudget: number) => ({
  config: { ...DEFAULT_RUN_CONFIG, sectionCreditBudget },
  items: [],
  splits: { train: 30, val: 15, test: 15 },
  skill: '# Skill\n\n## A\n\nOne rule.\n\n## B\n\nAnother.\n',
  template: rolloutTemplateOf(DEFAULT_RUN_CONFIG, prompts),
  prompts,
  prices: { target: { input: 1, output: 2 }, optimizer: { input: 3, output: 6 } },
});

describe('the estimate prices section credit at the end of a run', () => {
  it('adds its budget of calls at the target’s prices, and says so', () => {
    const off = estimateCost(args(0));
    const on = estimateCost(args(200));
    expect(off.stages.sectionCredit).toBeUndefined();
    expect(on.stages.sectionCredit!.calls).toBe(200);
    expect(on.totalCalls).toBe(off.totalCalls + 200);
    expect(on.low.stages.sectionCredit!.calls).toBe(200); // the credit runs whatever training learned
    expect(on.totalCostUsd!).toBeCloseTo(off.totalCostUsd! + on.stages.sectionCredit!.costUsd!, 9);
    expect(on.stages.sectionCredit!.costUsd!).toBeGreaterThan(0);
    expect(on.assumptions.some((a) => a.includes('section credit') && a.includes('at most 200 calls'))).toBe(true);
    expect(off.assumptions.some((a) => a.includes('section credit'))).toBe(false);
  });

  it('counts an agent’s credit by its budget of calls, not once per turn', () => {
    const on = estimateCost({ ...args(200), agent: { turns: 5, measured: true } });
    expect(on.stages.sectionCredit!.calls).toBe(200);
  });
});
