// The activation card's words (issue #40): what an undecided verdict bought, said as the main gate
// says it, and the gate's verdict in the run's comparator's terms, not a mean comparison's.
import { describe, expect, it } from 'vitest';
import { evidenceBought } from '../../src/ui/runs/EvidenceBought';
import { rewriteVerdict } from '../../src/ui/runs/activation-verdict';

describe('the evidence-bought sentence', () => {
  it('gives the chances before, the samples and calls bought, and the chance after', () => {
    const e = {
      asked: 'samples' as const,
      samples: 6,
      calls: 41,
      before: { pBetter: 0.5234, pWorse: 0.0412 },
      after: { pBetter: 0.81649, pWorse: 0.01 },
    };
    const { lead, after } = evidenceBought(e);
    expect(lead + after).toBe(
      'Undecided on the run’s samples (better with probability 0.523, worse 0.041): instead of saying no, the gate ' +
        'asked again where a change was plausible, up to 6 answers per item (41 calls) → better with probability 0.816',
    );
    expect(evidenceBought({ ...e, calls: 1 }).lead).toContain('(1 call)');
  });
});

describe('the activation gate’s verdict', () => {
  const shares = { valCurrent: 0.6, valCandidate: 0.7 };
  it('under posterior verdicts a higher share rejected is "not sure enough", not a contradiction', () => {
    expect(rewriteVerdict({ action: 'reject', ...shares }, 0.7)).toBe(
      'rewrite rejected: the chance it is better stayed below 0.7 (validation 60.0% → 70.0%)',
    );
    expect(rewriteVerdict({ action: 'accept', ...shares }, 0.7)).toBe(
      'rewrite kept: better with probability 0.7 or more (validation 60.0% → 70.0%)',
    );
  });
  it('under the mean comparison (gateConfidence 0) it is about the share', () => {
    expect(rewriteVerdict({ action: 'accept', ...shares }, 0)).toBe(
      'rewrite kept: a higher share (validation 60.0% → 70.0%)',
    );
    expect(rewriteVerdict({ action: 'reject', valCurrent: 0.7, valCandidate: 0.6 }, 0)).toBe(
      'rewrite rejected: no higher share (validation 70.0% → 60.0%)',
    );
  });
  it('names a gate rule that refused, and says why no rewrite met the gate', () => {
    const rule = {
      rule: 'no_regression' as const,
      allowed: false,
      n: 10,
      regressed: ['q3'],
      gain: 0.1,
      se: 0.05,
      reason: '',
    };
    expect(rewriteVerdict({ action: 'reject', ...shares, rule }, 0.7, 'first rewrite')).toBe(
      'first rewrite rejected by the gate rule “Higher mean, no item regresses” (validation 60.0% → 70.0%)',
    );
    expect(rewriteVerdict({ action: 'no_misfires' }, 0.7)).toBe('no misfires to fix');
    expect(rewriteVerdict({ action: 'no_candidate' }, 0.7)).toBe('no usable rewrite');
  });
});
