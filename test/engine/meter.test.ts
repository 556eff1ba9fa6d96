// The meter: what each call costs and where it is billed (issue #9 item 5, part; issue #8 stages).
import { describe, expect, it } from 'vitest';
import { Meter, usageStageOfPhase, usageStageOfPrompt } from '../../src/engine/meter';

const usage = { promptTokens: 1_000_000, completionTokens: 1_000_000, reasoningTokens: 0 };

describe('meter', () => {
  it('bills judge calls at the optimizer price when the judge has none (never $0)', () => {
    const m = new Meter({ optimizer: { input: 1, output: 2 } }, {});
    m.add('judge', 'judge', usage);
    expect(m.totalCostUsd).toBe(3);
    const own = new Meter({ optimizer: { input: 1, output: 2 }, judge: { input: 0.5, output: 0.5 } }, {});
    own.add('judge', 'judge', usage);
    expect(own.totalCostUsd).toBe(1);
  });

  it('reserves judge calls against the cap too', () => {
    const m = new Meter({ optimizer: { input: 1000, output: 1000 } }, { usd: 0.01 });
    expect(() => m.reserve('judge', 30_000)).toThrow(/budget cap of \$0\.01/);
  });

  it('bills the train check and the tie-break replay to their own stages', () => {
    expect(usageStageOfPhase('s0003/check')).toBe('train_check');
    expect(usageStageOfPhase('s0003/check-repaired')).toBe('train_check');
    expect(usageStageOfPhase('s0003/gate-current')).toBe('gate');
    expect(usageStageOfPhase('s0003/rollout/b1')).toBe('rollout');
    expect(usageStageOfPrompt('repair_edits')).toBe('repair');
  });
});
