// Issue #9 item 4: the prices Connect shows are the prices a run is charged at — one rule
// (core/config/service-tier.ts) for the page and the runner's config.
import { describe, expect, it } from 'vitest';
import { chargedPrices } from '../../../src/core/config/service-tier';
import { presetPrice } from '../../../src/core/config/pricing';

const endpoint = (model: string) => ({ baseURL: 'https://api.example.com/v1', model });

describe('charged prices', () => {
  it('takes the list price of a known model when the user typed none (the run is not free)', () => {
    const p = chargedPrices({}, { target: endpoint('gpt-4o-mini-2024-07-18'), optimizer: endpoint('gpt-5') });
    expect(p).toEqual({ target: presetPrice('gpt-4o-mini'), optimizer: presetPrice('gpt-5') });
    expect(p.target).toEqual({ input: 0.15, output: 0.6, cachedInput: 0.075 });
  });

  it('prefers what the user typed, per role', () => {
    const typed = { input: 9, output: 99 };
    const p = chargedPrices({ optimizer: typed }, { target: endpoint('gpt-4.1'), optimizer: endpoint('gpt-5') });
    expect(p).toEqual({ target: presetPrice('gpt-4.1'), optimizer: typed });
  });

  it('leaves a role unpriced when the model is unknown and nothing was typed', () => {
    expect(chargedPrices({}, { target: endpoint('my-local-model'), optimizer: endpoint('another') })).toEqual({});
  });
});
