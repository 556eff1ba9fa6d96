import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RUN_CONFIG,
  deriveSteps,
  parseRunConfig,
  scaledDefaults,
  validateAgainstSplits,
  validateRunConfig,
  type RunConfig,
} from '../../../src/core/config/run-config';

const withChange = (patch: Partial<RunConfig>): RunConfig => ({ ...DEFAULT_RUN_CONFIG, ...patch });

describe('run config defaults (§4.3)', () => {
  // One departure: the edit budget starts at 6, not the reference's 4 (issue #40: behind the train check, its
  // repair and the posterior gate a larger first step is safe, and it reaches the top in fewer verdicts).
  it('carries the reference defaults and is valid', () => {
    expect(DEFAULT_RUN_CONFIG).toMatchObject({
      epochs: 4, batchSize: 40, accumulation: 1, seed: 42, minibatchSize: 8, mergeBatchSize: 8,
      editBudget: 6, minEditBudget: 2, editBudgetSchedule: 'cosine', gateMetric: 'hard', gateMixedWeight: 0.5,
      useSlowUpdate: true, slowUpdateSamples: 20, slowUpdateGated: true, pairPolicy: 'mixed', useMetaSkill: true, useGate: true,
    });
    expect(validateRunConfig(DEFAULT_RUN_CONFIG)).toEqual([]);
  });

  it('update modes and the skill-aware appendix: patch and off by default, validated by name', () => {
    expect(DEFAULT_RUN_CONFIG).toMatchObject({ updateMode: 'patch', skillAwareReflection: false, appendixSource: 'failure_only', appendixConsolidateThreshold: 40 });
    expect(validateRunConfig(withChange({ updateMode: 'rewrite' }))).toEqual([]);
    expect(validateRunConfig(withChange({ updateMode: 'edits' as RunConfig['updateMode'] }))[0].field).toBe('updateMode');
    expect(validateRunConfig(withChange({ skillAwareReflection: true }))).toEqual([]);
    expect(validateRunConfig(withChange({ skillAwareReflection: true, updateMode: 'full_rewrite' })).map((p) => p.field)).toEqual(['skillAwareReflection']);
    expect(validateRunConfig(withChange({ appendixSource: 'all' as RunConfig['appendixSource'] })).map((p) => p.field)).toEqual(['appendixSource']);
  });

  it('round-trips through JSON', () => {
    const parsed = parseRunConfig(JSON.parse(JSON.stringify(DEFAULT_RUN_CONFIG)));
    expect(parsed.config).toEqual(DEFAULT_RUN_CONFIG);
    expect(parsed.problems).toEqual([]);
    expect(parsed.warnings).toEqual([]);
  });

  it('fills gaps with defaults and reports unknown keys', () => {
    const parsed = parseRunConfig({ epochs: 2, max_analyst_rounds: 3, rollout: { preset: 'mcq' } });
    expect(parsed.config.epochs).toBe(2);
    expect(parsed.config.batchSize).toBe(40);
    expect(parsed.config.rollout).toEqual({ preset: 'mcq', contextLimit: 6000 });
    expect(parsed.warnings).toEqual(['unknown setting "max_analyst_rounds" was ignored']);
  });
});

describe('validation messages', () => {
  it.each([
    [{ mergeBatchSize: 1 }, 'merge batch size must be at least 2'],
    [{ batchSize: 0 }, 'batch size must be at least 1'],
    [{ batchSize: 2.5 }, 'batch size must be a whole number'],
    [{ epochs: 1000 }, 'epochs must be at most 100'],
    [{ minEditBudget: 7 }, 'minimum edit budget must not exceed the edit budget'],
    [{ gateMixedWeight: 1.5 }, 'mixed gate weight must be between 0 and 1'],
    [{ gateMetric: 'f1' as never }, 'gate metric must be one of hard, soft, mixed'],
    [{ editBudgetSchedule: 'step' as never }, 'edit budget schedule must be one of constant, linear, cosine, autonomous'],
    [{ scorer: { kind: 'bleu' } as never }, 'scorer must be one of exact, mcq, contains, numeric, regex, anls, judge'],
    [{ budget: { usd: -1 } }, 'budget cap (USD) must be a positive number'],
    [{ rollout: { preset: 'custom', contextLimit: 6000 } }, 'a custom rollout template needs a system or a user message'],
    [{ maxErrorRate: 2 }, 'maximum error rate must be between 0 and 1'],
  ] as [Partial<RunConfig>, string][])('%j → %s', (patch, message) => {
    expect(validateRunConfig(withChange(patch)).map((p) => p.message)).toContain(message);
  });

  it('checks the config against the splits', () => {
    expect(validateAgainstSplits(DEFAULT_RUN_CONFIG, { train: 0, val: 0, test: 5 }).map((p) => p.message)).toEqual([
      'the train split is empty: training needs train items',
      'the validation split is empty: the gate needs validation items',
    ]);
  });
});

describe('derived quantities (§2.1)', () => {
  it.each([
    [400, 40, 1, 4, 10, 40], // SearchQA
    [35, 40, 1, 4, 1, 4], // LiveMath
    [107, 40, 1, 4, 3, 12], // DocVQA
    [50, 40, 1, 4, 2, 8], // OfficeQA
    [100, 20, 2, 3, 3, 9],
    [0, 40, 1, 4, 0, 0],
  ])('train=%d B=%d acc=%d epochs=%d → %d steps/epoch, %d total', (train, batchSize, accumulation, epochs, spe, total) => {
    const d = deriveSteps({ batchSize, accumulation, epochs }, train);
    expect(d.stepsPerEpoch).toBe(spe);
    expect(d.totalSteps).toBe(total);
    expect(d.batchesPerEpoch).toBe(spe * accumulation);
  });

  it('scales defaults down for small datasets only', () => {
    expect(scaledDefaults(400)).toEqual({});
    expect(scaledDefaults(20)).toEqual({ batchSize: 10, minibatchSize: 3, slowUpdateSamples: 20 });
    expect(scaledDefaults(6)).toEqual({ batchSize: 3, minibatchSize: 2, slowUpdateSamples: 6 });
    expect(validateRunConfig({ ...DEFAULT_RUN_CONFIG, ...scaledDefaults(3) })).toEqual([]);
  });
});

describe('test tries (issue #43)', () => {
  it('are the setting, or when it is 0 three for an agent and one for a single answer', async () => {
    const { testTries } = await import('../../../src/core/config/run-config');
    expect(DEFAULT_RUN_CONFIG.testRepeats).toBe(0);
    expect(testTries(DEFAULT_RUN_CONFIG, true)).toBe(3);
    expect(testTries(DEFAULT_RUN_CONFIG, false)).toBe(1);
    expect(testTries({ testRepeats: 5 }, false)).toBe(5);
    expect(testTries({ testRepeats: 1 }, true)).toBe(1);
    // A config stored before the setting existed tried each item once.
    expect(testTries({} as { testRepeats: number }, true)).toBe(1);
    expect(validateRunConfig({ ...DEFAULT_RUN_CONFIG, testRepeats: 11 })).toEqual([{ field: 'testRepeats', message: 'test repeats must be at most 10' }]);
    expect(validateRunConfig({ ...DEFAULT_RUN_CONFIG, testRepeats: -1 })[0].field).toBe('testRepeats');
  });
});
