// Prices with a date and a source (issue #44): every list price says when and where it was read,
// retiring models say when, cached prompt tokens are billed at the cached-input price, a model with
// no price stays unpriced (the estimate says unknown), and reasoning tokens are estimated per effort.
import { describe, expect, it } from 'vitest';
import { PRICE_PRESETS, listPrice, presetPrice, priceProblem, retirementOf } from '../../../src/core/config/pricing';
import { costOf } from '../../../src/engine/meter';
import { estimatedEffort } from '../../../src/core/config/capabilities';
import { tieredPrice } from '../../../src/core/config/service-tier';

describe('the price table', () => {
  it('dates and sources every entry; cached input is never dearer than input', () => {
    for (const [model, p] of Object.entries(PRICE_PRESETS)) {
      expect(p.checked, model).toMatch(/^\d{4}-\d\d-\d\d$/);
      expect(p.source.length, model).toBeGreaterThan(10);
      expect(priceProblem({ input: p.input, output: p.output, ...(p.cachedInput !== undefined ? { cachedInput: p.cachedInput } : {}) })).toBeNull();
      if (p.cachedInput !== undefined) expect(p.cachedInput, model).toBeLessThanOrEqual(p.input);
    }
  });

  it('marks retiring models, and retired ones once the date has passed', () => {
    expect(retirementOf('gpt-4o-mini', '2026-11-27')).toEqual({ date: '2027-01-14', retired: false });
    expect(retirementOf('gpt-5-mini-2025-08-07', '2026-12-11')).toEqual({ date: '2026-12-11', retired: true });
    expect(retirementOf('gpt-6-luna', '2026-11-27')).toBeUndefined();
    expect(listPrice('openai/gpt-6.2-sol')).toMatchObject({ model: 'gpt-6.2-sol', input: 2, cachedInput: 0.1, output: 10 });
  });

  it('has no price for a model it does not know: nothing is made up', () => {
    expect(presetPrice('my-local-llama')).toBeUndefined();
    expect(presetPrice('gpt-7-nova')).toBeUndefined();
  });

  it('bills cached prompt tokens at the cached-input price, and the tier scales it too', () => {
    const price = { input: 2, cachedInput: 0.1, output: 10 };
    const usage = { promptTokens: 1_000_000, completionTokens: 100_000, reasoningTokens: 0, cachedTokens: 600_000 };
    expect(costOf(usage, price)).toBeCloseTo(0.4 * 2 + 0.6 * 0.1 + 0.1 * 10, 10);
    // Without a cached price (or without cached tokens reported) every prompt token is full price.
    expect(costOf(usage, { input: 2, output: 10 })).toBeCloseTo(2 + 1, 10);
    expect(tieredPrice(price, 'flex')).toEqual({ input: 1, cachedInput: 0.05, output: 5 });
    expect(priceProblem({ input: 1, output: 2, cachedInput: -1 })).toMatch(/cachedInput/);
  });
});

describe('the effort the estimate counts reasoning tokens at', () => {
  const e = (model: string, extra = {}) => estimatedEffort({ baseURL: 'https://api.openai.com/v1', model, ...extra });
  it('the role’s effort; a reasoning model’s default (medium); none for a model that does not reason', () => {
    expect(e('gpt-4o-mini')).toBe('none');
    expect(e('gpt-6-luna')).toBe('medium');
    expect(e('gpt-6-luna', { reasoningEffort: 'xhigh' })).toBe('xhigh');
    expect(e('my-local-llama', { reasoningEffort: 'low' })).toBe('low');
  });

  it('moves it to what the probe found accepted', () => {
    const capabilities = {
      baseURL: 'https://api.openai.com/v1',
      model: 'gpt-6.2-sol',
      api: 'responses' as const,
      temperature: false,
      tokenLimit: 'max_completion_tokens' as const,
      efforts: ['low' as const, 'medium' as const, 'high' as const],
    };
    expect(e('gpt-6.2-sol', { capabilities, reasoningEffort: 'none' })).toBe('low');
    expect(e('gpt-6.2-sol', { capabilities: { ...capabilities, efforts: [] }, reasoningEffort: 'high' })).toBe('none');
  });
});

describe('the estimate counts reasoning tokens (issue #44)', () => {
  it('adds each role’s reasoning at its effort to the completion tokens, priced as output, and says so', async () => {
    const { estimateCost, ASSUMED_REASONING_TOKENS } = await import('../../../src/engine/cost-estimate');
    const { rolloutTemplateOf } = await import('../../../src/engine/context');
    const { DEFAULT_RUN_CONFIG } = await import('../../../src/core/config/run-config');
    const { loadPrompts } = await import('../../support/prompts');
    const prompts = loadPrompts();
    const args = {
      config: DEFAULT_RUN_CONFIG,
      items: [],
      splits: { train: 30, val: 15, test: 15 },
      skill: '# Skill\n',
      template: rolloutTemplateOf(DEFAULT_RUN_CONFIG, prompts),
      prompts,
      prices: { target: { input: 1, output: 2 }, optimizer: { input: 3, output: 6 } },
    };
    const plain = estimateCost(args);
    const reasoning = estimateCost({ ...args, reasoning: { target: 'low', optimizer: 'high' } });
    expect(reasoning.stages.rollout!.reasoningTokens).toBe(plain.stages.rollout!.calls * ASSUMED_REASONING_TOKENS.low);
    expect(reasoning.stages.reflect!.reasoningTokens).toBe(plain.stages.reflect!.calls * ASSUMED_REASONING_TOKENS.high);
    expect(reasoning.stages.rollout!.completionTokens).toBe(plain.stages.rollout!.completionTokens + reasoning.stages.rollout!.reasoningTokens);
    expect(reasoning.totalCostUsd!).toBeGreaterThan(plain.totalCostUsd!);
    expect(plain.stages.rollout!.reasoningTokens).toBe(0);
    expect(reasoning.assumptions.some((a) => a.includes('the target at effort low, about 400'))).toBe(true);
    expect(plain.assumptions.some((a) => a.startsWith('No reasoning tokens are counted'))).toBe(true);
    // A role with no price leaves the cost unknown, never $0.
    expect(estimateCost({ ...args, prices: { target: args.prices.target } }).totalCostUsd).toBeNull();
  });
});
