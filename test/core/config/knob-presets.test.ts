// Presets by situation (issue #33): rows of the knob table that set knobs over the defaults, keep
// the user's own ones, say when the settings have left them, and reach the runner's config.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { KNOB_PRESETS, KNOBS, knobsMarkdown, presetDrift, presetFollowingData, presetSets, withPreset, type Knob, type PresetId } from '../../../src/core/config/knobs';
import { DEFAULT_RUN_CONFIG, parseRunConfig, scaledDefaults, validateRunConfig, type RunConfig } from '../../../src/core/config/run-config';
import { estimateRunCalls, totalCalls } from '../../../src/core/config/call-count';

const D = DEFAULT_RUN_CONFIG as unknown as Record<string, unknown>;
const ids = KNOB_PRESETS.map((p) => p.id);
const knob = (key: string) => (KNOBS as readonly Knob[]).find((k) => k.key === key)!;

describe('presets', () => {
  it('each sets knobs it governs to valid values, and all but Standard move away from the defaults', () => {
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of KNOB_PRESETS) {
      for (const key of Object.keys(p.settings)) expect(knob(key).presetsKeep, `${p.id} ${key}`).toBeUndefined();
      const c = withPreset(DEFAULT_RUN_CONFIG, p.id, D);
      expect(validateRunConfig(c), p.id).toEqual([]);
      expect(c.preset).toBe(p.id);
    }
    expect(withPreset(DEFAULT_RUN_CONFIG, 'standard', D)).toEqual({ ...DEFAULT_RUN_CONFIG, preset: 'standard' });
    for (const id of ids.filter((i) => i !== 'standard')) expect(presetDrift(D, id, D).length, id).toBeGreaterThan(0);
  });

  it('keeps the user’s own settings and the ones with editors of their own, and resets the rest', () => {
    const mine: RunConfig = { ...DEFAULT_RUN_CONFIG, targetConcurrency: 2, seed: 7, budget: { usd: 3 }, activationTrack: true, scorer: { kind: 'mcq' }, epochs: 9, carryEdits: true };
    const c = withPreset(mine, 'careful', D);
    expect([c.targetConcurrency, c.seed, c.budget, c.activationTrack, c.scorer]).toEqual([2, 7, { usd: 3 }, true, { kind: 'mcq' }]);
    expect([c.epochs, c.carryEdits, c.reviewEdits, c.gateRule, c.editBudget]).toEqual([4, false, true, 'no_regression', 2]);
  });

  it('over a dataset’s scaled defaults, and says which knobs left the preset', () => {
    const base = { ...D, ...scaledDefaults(30) };
    const c = withPreset(DEFAULT_RUN_CONFIG, 'noisy', base) as unknown as Record<string, unknown>;
    expect([c.batchSize, c.maxSamples]).toEqual([15, 5]);
    expect(presetDrift(c, 'noisy', base)).toEqual([]);
    // The user's own knobs never make the settings custom; any other does.
    expect(presetDrift({ ...c, targetConcurrency: 1, seed: 3 }, 'noisy', base)).toEqual([]);
    expect(presetDrift({ ...c, epochs: 2 }, 'noisy', base).map((k) => k.key)).toEqual(['epochs']);
    // A knob that does not apply under the settings is not counted.
    expect(presetDrift({ ...c, gateSignificanceK: 3 }, 'noisy', base)).toEqual([]);
    expect(presetDrift({ ...c, gateRule: 'significance', gateSignificanceK: 3 }, 'noisy', base).map((k) => k.key)).toEqual(['gateRule', 'gateSignificanceK']);
  });

  it('follows the data: a preset chosen before the dataset’s size arrived stays that preset, scaled (issue #39)', () => {
    // The Train screen draws before the dataset list arrives: a click on Standard then is made over the unscaled defaults.
    const scaled = { ...D, ...scaledDefaults(40) };
    const early = withPreset({ ...DEFAULT_RUN_CONFIG, seed: 5 }, 'standard', D);
    expect(presetDrift(early as unknown as Record<string, unknown>, 'standard', scaled).map((k) => k.key)).toEqual(['batchSize', 'minibatchSize']);
    const followed = presetFollowingData(early, D, scaled)!;
    expect(presetDrift(followed as unknown as Record<string, unknown>, 'standard', scaled)).toEqual([]);
    expect([followed.preset, followed.batchSize, followed.seed]).toEqual(['standard', 20, 5]);
    // Another dataset: the preset's batch sizes follow it too.
    const other = { ...D, ...scaledDefaults(10) };
    expect(presetFollowingData(followed, scaled, other)!.batchSize).toBe(5);
    // Settings that had left the preset stay as the person set them; settings that already are it need nothing.
    expect(presetFollowingData({ ...early, epochs: 7 }, D, scaled)).toBeNull();
    expect(presetFollowingData(followed, D, scaled)).toBeNull();
    expect(presetFollowingData(followed, scaled, scaled)).toBeNull();
  });

  it('says what it sets in the form’s words', () => {
    expect(presetSets(KNOB_PRESETS.find((p) => p.id === 'careful')!)).toEqual([
      'Edit budget 2',
      'Minimum edit budget 1',
      'Gate rule Higher mean, no item regresses',
      'Review edits before the gate on',
    ]);
  });

  it('Quick look makes fewer calls than Standard on any dataset', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 1, max: 500 }), fc.integer({ min: 0, max: 500 }), (train, val, test) => {
        const base = { ...D, ...scaledDefaults(train) };
        const calls = (id: PresetId) => totalCalls(estimateRunCalls(withPreset(DEFAULT_RUN_CONFIG, id, base), { train, val, test }));
        return calls('quick-look') < calls('standard');
      }),
    );
  });

  it('reach the runner’s config: the preset’s knobs, then the settings given beside it', () => {
    const { config, problems, warnings } = parseRunConfig({ preset: 'careful', editBudget: 3 });
    expect([problems, warnings]).toEqual([[], []]);
    expect(config).toEqual({ ...withPreset(DEFAULT_RUN_CONFIG, 'careful', D), editBudget: 3 });
    expect(parseRunConfig({ preset: 'fast' }).problems).toEqual([{ field: 'preset', message: 'preset must be one of quick-look, standard, noisy, careful, agent' }]);
    expect(parseRunConfig({}).config).toEqual(DEFAULT_RUN_CONFIG);
  });

  it('are named in the docs table with what they set', () => {
    const md = knobsMarkdown(D);
    for (const p of KNOB_PRESETS) expect(md).toContain(`| ${p.label} | \`${p.id}\` |`);
    expect(md).toContain('Samples per item 5; Noise probe 32; Test repeats 3');
  });
});

describe('the settings search', () => {
  it('finds a setting by every word of its name, key, help or section', async () => {
    const { knobMatches, knobText } = await import('../../../src/core/config/knobs');
    const found = (q: string) => (KNOBS as readonly Knob[]).filter((k) => knobMatches(k, q)).map((k) => k.key);
    expect(found('concurrency')).toEqual(['targetConcurrency', 'optimizerConcurrency']);
    expect(found('REPAIR rounds')).toEqual(['repairRounds']);
    expect(found('  ')).toHaveLength(KNOBS.length);
    expect(found('steering')).toEqual(['reviewEdits']);
    expect(knobText(knob('gateRule'), { gateRule: 'no_regression' })).toBe('Gate rule Higher mean, no item regresses');
  });
});
