// One table per knob (issue #21): every setting has one row, its default lies in its range, and
// validation speaks from the row — the range the form shows is the range enforced.
import { describe, expect, it } from 'vitest';
import { KNOBS, knobShown, settingsSummary, type Knob } from '../../../src/core/config/knobs';
import { DEFAULT_RUN_CONFIG, validateRunConfig, type RunConfig } from '../../../src/core/config/run-config';

const knobs = KNOBS as readonly Knob[];
// Structured settings with editors of their own (scorer, rollout template, prompt overrides).
const OWN_EDITORS = new Set(['scorer', 'rollout', 'promptOverrides']);

describe('the knob table', () => {
  it('has exactly one row per setting', () => {
    const keys = knobs.map((k) => k.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(Object.keys(DEFAULT_RUN_CONFIG).filter((k) => !OWN_EDITORS.has(k)).sort());
  });

  it('holds every default inside its own range or choices', () => {
    const d = DEFAULT_RUN_CONFIG as unknown as Record<string, unknown>;
    for (const k of knobs) {
      const c = k.control;
      if (c.kind === 'int' || c.kind === 'number') expect([k.key, d[k.key]]).toEqual([k.key, expect.toSatisfy((v: number) => v >= c.min && v <= c.max)]);
      if (c.kind === 'choice') expect(c.options.map((o) => o.value)).toContain(d[k.key]);
      if (c.kind === 'toggle') expect(typeof d[k.key]).toBe('boolean');
    }
    expect(validateRunConfig(DEFAULT_RUN_CONFIG)).toEqual([]);
  });

  it('is what validation enforces: one past each bound is refused, named as the row names it', () => {
    for (const k of knobs) {
      const c = k.control;
      if (c.kind !== 'int' && c.kind !== 'number') continue;
      const over = c.kind === 'int' ? c.max + 1 : c.max + c.step;
      const problems = validateRunConfig({ ...DEFAULT_RUN_CONFIG, [k.key]: over } as RunConfig);
      expect(problems.find((p) => p.field === k.key)?.message, k.key).toMatch(new RegExp(`^${k.noun.replace(/[()]/g, '\\$&')} must be (at most|between)`));
      const atMax = validateRunConfig({ ...DEFAULT_RUN_CONFIG, [k.key]: c.max } as RunConfig);
      expect(atMax.filter((p) => p.field === k.key && / must be (at most|between|a whole)/.test(p.message))).toEqual([]);
    }
    expect(validateRunConfig({ ...DEFAULT_RUN_CONFIG, editBudget: 1000 })[0].message).toBe('edit budget must be at most 999');
    expect(validateRunConfig({ ...DEFAULT_RUN_CONFIG, pairPolicy: 'odd' as never })[0].message).toBe('pair policy must be one of mixed, changed, unchanged');
    expect(validateRunConfig({ ...DEFAULT_RUN_CONFIG, trainCheck: 'yes' as never })[0].message).toBe('train-batch check must be on or off');
  });

  it('shows a dependent knob only under its setting', () => {
    const k = knobs.find((x) => x.key === 'gateSignificanceK')!;
    expect(knobShown(k, { ...DEFAULT_RUN_CONFIG })).toBe(false);
    expect(knobShown(k, { ...DEFAULT_RUN_CONFIG, gateRule: 'significance' })).toBe(true);
  });

  it('summarises a run’s settings for its report: the basics, then what differs from the defaults', () => {
    const d = DEFAULT_RUN_CONFIG as unknown as Record<string, unknown>;
    expect(settingsSummary(d, d)).toEqual(['Epochs 4', 'Batch size 40', 'Update mode Patch — bounded edits (paper default)', 'Edit budget 6', 'Gate metric hard', 'Gate rule Higher mean (SkillOpt)']);
    const changed = { ...DEFAULT_RUN_CONFIG, carryEdits: true, gateMetric: 'soft', gateMixedWeight: 0.8, budget: { usd: 5 } } as unknown as Record<string, unknown>;
    const line = settingsSummary(changed, d);
    expect(line).toContain('Carry promising edits on');
    expect(line).toContain('Budget cap (USD) $5');
    // A knob that does not apply under these settings is left out, even when changed.
    expect(line.some((x) => x.startsWith('Mixed gate weight'))).toBe(false);
  });
});
