// The meter: what each call costs and where it is billed (issue #9 item 5, part; issue #8 stages).
import { describe, expect, it } from 'vitest';
import { Meter } from '../../src/engine/meter';
import { CALL_STAGES, callStageOfPhase, callStageOfPrompt, priceTagOfPhase } from '../../src/core/config/stages';
import { sharedLlmServer } from '../support/shared-server';
import { trainOnce } from '../support/harness';

const server = sharedLlmServer();

const usage = { promptTokens: 1_000_000, completionTokens: 1_000_000, reasoningTokens: 0 };

describe('meter', () => {
  it('bills a confirming target at its own price, holds the cap at it, and keeps it when restored (issue #42 item 5)', () => {
    expect(
      ['confirm/2/best', 'confirm/2/initial/r1', 'confirm/12/best', 'test/best', 'confirm'].map(priceTagOfPhase),
    ).toEqual(['confirm/2', 'confirm/2', 'confirm/12', undefined, undefined]);
    const prices = { target: { input: 1, output: 1 } };
    const m = new Meter(prices, {}, {}, { 'confirm/2': { input: 10, output: 30 } });
    m.add('test', 'target', usage);
    m.add('confirm', 'target', usage, 1, 1, priceTagOfPhase('confirm/1/best'));
    m.add('confirm', 'target', usage, 1, 1, priceTagOfPhase('confirm/2/best'));
    // The target's 2, the first confirming target's (no price of its own) 2, the second's 40.
    expect(m.byStage.test.costUsd).toBe(2);
    expect(m.byStage.confirm.costUsd).toBe(42);
    const again = new Meter(prices, {}, {}, { 'confirm/2': { input: 10, output: 30 } });
    again.restore(m.snapshot());
    expect(again.totalCostUsd).toBe(44);
    // The cap is held at the price the call is billed at.
    const capped = new Meter(prices, { usd: 0.5 }, { target: 1000 }, { 'confirm/1': { input: 1e6, output: 1e6 } });
    expect(() => capped.reserve('target', 300)).not.toThrow();
    expect(() => capped.reserve('target', 300, 1, 'confirm/1')).toThrow(/budget cap/);
  });

  it('bills judge calls at the optimizer price when the judge has none (never $0)', () => {
    const m = new Meter({ optimizer: { input: 1, output: 2 } }, {});
    m.add('judge', 'judge', usage);
    expect(m.totalCostUsd).toBe(3);
    const own = new Meter({ optimizer: { input: 1, output: 2 }, judge: { input: 0.5, output: 0.5 } }, {});
    own.add('judge', 'judge', usage);
    expect(own.totalCostUsd).toBe(1);
  });

  it('bills what an agent CLI reported when its role has no price; a given price wins; a restored meter keeps it (issue #42)', () => {
    const reported = { ...usage, reportedUsd: 0.25 };
    const m = new Meter({ target: { input: 1, output: 2 } }, {});
    m.add('reflect', 'optimizer', reported);
    m.add('reflect', 'optimizer', { ...usage, reportedUsd: 0.5 });
    expect(m.totalCostUsd).toBe(0.75);
    const again = new Meter({ target: { input: 1, output: 2 } }, {});
    again.restore(m.snapshot());
    expect(again.totalCostUsd).toBe(0.75);
    const priced = new Meter({ optimizer: { input: 1, output: 2 } }, {});
    priced.add('reflect', 'optimizer', reported);
    expect(priced.totalCostUsd).toBe(3);
  });

  it('reserves judge calls against the cap too', () => {
    const m = new Meter({ optimizer: { input: 1000, output: 1000 } }, { usd: 0.01 });
    expect(() => m.reserve('judge', 30_000)).toThrow(/budget cap of \$0\.01/);
  });

  it('bills the train check and the tie-break replay to their own stages', () => {
    expect(callStageOfPhase('s0003/check')).toBe('trainCheck');
    expect(callStageOfPhase('s0003/check-repaired')).toBe('trainCheck');
    expect(callStageOfPhase('s0003/gate-current')).toBe('gate');
    expect(callStageOfPhase('s0003/rollout/b1')).toBe('rollout');
    // A learning-curve point's repeats (issue #43) are billed with the scoring they extend.
    expect(callStageOfPhase('baseline/curve/r1')).toBe('baseline');
    expect(callStageOfPhase('s0003/curve/r2')).toBe('gate');
    expect(callStageOfPhase('e02/curve/r1')).toBe('slowUpdateGate');
    expect(callStageOfPrompt('repair_edits')).toBe('repair');
  });

  it('a run bills its usage under call stages only', async () => {
    const { outcome } = await trainOnce({ url: server().url, config: { epochs: 2 } });
    const billed = Object.keys(outcome.summary?.usage ?? {});
    expect(billed.length).toBeGreaterThan(4);
    for (const stage of billed) expect(Object.keys(CALL_STAGES)).toContain(stage);
  });
});
