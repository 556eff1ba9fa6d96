// "No worse" for a drop that saves tokens (issue #43 item 4): the posterior's chance of knowing fewer
// items within 1 − confidence, or no item worse under the mean comparator; a partial verdict says nothing.
import { describe, expect, it } from 'vitest';
import { noWorseVerdict } from '../../../src/core/verdict/no-worse';
import type { PairedVerdict } from '../../../src/core/verdict/paired-verdict';

const verdict = (p: Partial<PairedVerdict>): PairedVerdict => ({
  n: 10,
  improved: [],
  regressed: [],
  gain: 0,
  refScore: 0.5,
  candScore: 0.5,
  pValue: 1,
  resampled: 0,
  unsettled: 0,
  margin: 1,
  ...p,
});
const posterior = (pWorse: number) => ({ pBetter: 0.05, pWorse, gain: 0, refKnown: 0.5, candKnown: 0.5, refRate: 0.5, candRate: 0.5 });

describe('no worse', () => {
  it('under posterior verdicts: the chance of knowing fewer items within 1 − confidence', () => {
    expect(noWorseVerdict(verdict({ posterior: posterior(0.04) }), { confidence: 0.7, items: 10 })).toEqual({
      noWorse: true,
      pWorse: 0.04,
      words: 'a 4 % chance it knows fewer validation items (at most 30 %)',
    });
    expect(noWorseVerdict(verdict({ posterior: posterior(0.45) }), { confidence: 0.7, items: 10 }).noWorse).toBe(false);
    // A raw mean that ties says nothing when the posterior doubts it.
    expect(noWorseVerdict(verdict({ gain: 0, posterior: posterior(0.5) }), { confidence: 0.9, items: 10 }).noWorse).toBe(false);
  });

  it('under the mean comparator: no item worse after settling', () => {
    expect(noWorseVerdict(verdict({}), { confidence: 0, items: 10 })).toMatchObject({ noWorse: true, words: 'no validation item worse' });
    // A mean that ties by one item won and one lost is not "no worse".
    expect(noWorseVerdict(verdict({ improved: ['a'], regressed: ['b'] }), { confidence: 0, items: 10 }).noWorse).toBe(false);
  });

  it('says nothing from part of the items, or no comparison', () => {
    expect(noWorseVerdict(verdict({ n: 6, posterior: posterior(0.01) }), { confidence: 0.7, items: 10 })).toMatchObject({
      noWorse: false,
      words: 'only 6 of 10 validation items were compared',
    });
    expect(noWorseVerdict(null, { confidence: 0.7, items: 10 }).noWorse).toBe(false);
  });
});
