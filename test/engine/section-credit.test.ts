// Which section earns its tokens (issue #43 item 4), through the real SDK and the test LLM server:
// the simulated target answers by the skill's text, so the credit world's planted sections — one
// helpful, one harmful, one neutral — have known effects that masking must recover; a drop meets
// the same gate as any edit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { testEndpoint } from '../support/endpoints';
import { loadPrompts } from '../support/prompts';
import { CREDIT_SECTIONS, CREDIT_SKILL, creditWorldItems, plantedEffects } from '../support/credit-world';
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import { DEFAULT_RUN_CONFIG, type RunConfig } from '../../src/core/config/run-config';
import { createLlmPort } from '../../src/llm/openai-client';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { creditSections } from '../../src/engine/run/section-credit';
import { gateDrop } from '../../src/engine/run/gate-drop';
import type { RunDataset } from '../../src/engine/types';

let steady: LlmTestServer;
let noisy: LlmTestServer;
const NOISE = { miss: 0.1, guess: 0.05 };
beforeAll(async () => {
  [steady, noisy] = await Promise.all([startLlmServer({}), startLlmServer({ targetNoise: NOISE, noiseSeed: 4 })]);
});
afterAll(() => Promise.all([steady.close(), noisy.close()]));

const items = creditWorldItems(24);
const planted = plantedEffects(
  CREDIT_SKILL,
  items.filter((i) => i.split === 'val'),
);

function data(): RunDataset {
  const r = importDatasetText(JSON.stringify(items), { fileName: 'credit.json' });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return { items: r.dataset.items, splits: r.dataset.splits };
}

function deps(server: LlmTestServer) {
  const llm = createLlmPort(
    {
      target: testEndpoint(server.url, 'sim-target', { concurrency: 8 }),
      optimizer: testEndpoint(server.url, 'sim-optimizer'),
    },
    { backoffBaseMs: 5, maxBackoffMs: 50 },
  );
  return { llm, store: new MemoryRunStore(), prompts: loadPrompts() };
}

const config: RunConfig = { ...DEFAULT_RUN_CONFIG, targetConcurrency: 8, seed: 11 };
const targetCalls = (s: LlmTestServer) => s.log.filter((e) => e.stage === 'target').length;

describe('section credit through the target port (issue #43 item 4)', () => {
  it('recovers the helpful, harmful and neutral sections within their intervals, calls counted within the budget', async () => {
    expect(planted).toEqual([0.1875, -0.4375, 0]);
    steady.log.length = 0;
    const r = await creditSections({ skill: CREDIT_SKILL, config, data: data(), budget: 300 }, deps(steady));
    if (!r.ok) throw new Error(r.reason);
    expect(r.plan).toEqual({ masks: 12, items: 24, rollouts: 288 });
    expect(r.calls).toBe(288);
    expect(targetCalls(steady)).toBe(288);
    expect(r.report.sections.map((s) => s.title)).toEqual(CREDIT_SECTIONS);
    r.report.sections.forEach((s, j) => {
      expect(s.low!, s.title).toBeLessThanOrEqual(planted[j]);
      expect(s.high!, s.title).toBeGreaterThanOrEqual(planted[j]);
      // A deterministic target and fold-over masks: the harmful rule spoiling amber answers does not leak.
      expect(s.effect!, s.title).toBeCloseTo(planted[j], 9);
    });
    expect(r.report.sections.map((s) => s.verdict)).toEqual(['helps', 'harms', 'nil']);
    expect(r.report.droppable).toEqual([1, 2]);
    // The test server counts a quarter token per character: each section's measured cost is its text's.
    const tone = r.report.sections[2];
    expect(tone.tokens).toBeGreaterThan(8);
    expect(tone.tokens).toBeLessThan(16);
  });

  it('recovers them on a target that slips, scaled by how often it answers what it knows', async () => {
    const r = await creditSections({ skill: CREDIT_SKILL, config, data: data(), budget: 24 * 30 }, deps(noisy));
    if (!r.ok) throw new Error(r.reason);
    const scale = 1 - NOISE.miss - NOISE.guess;
    r.report.sections.forEach((s, j) => {
      expect(s.low!, s.title).toBeLessThanOrEqual(planted[j] * scale);
      expect(s.high!, s.title).toBeGreaterThanOrEqual(planted[j] * scale);
    });
    expect(r.report.sections[0].verdict).toBe('helps');
    expect(r.report.sections[1].verdict).toBe('harms');
  });

  it('refuses a budget too small for its sections before making a call', async () => {
    steady.log.length = 0;
    const r = await creditSections({ skill: CREDIT_SKILL, config, data: data(), budget: 11 }, deps(steady));
    expect(r).toMatchObject({ ok: false, kind: 'invalid_config' });
    expect(!r.ok && r.reason).toContain('at least 16');
    expect(targetCalls(steady)).toBe(0);
  });

  it('puts a drop to the gate: the harmful section’s drop is better, the neutral’s no worse and cheaper, the helpful’s refused', async () => {
    const drop = async (sections: number[]) => {
      const r = await gateDrop({ skill: CREDIT_SKILL, config, data: data(), sections }, deps(steady));
      if (!r.ok) throw new Error(r.reason);
      return r;
    };
    const harmful = await drop([1]);
    expect(harmful).toMatchObject({ accepted: true, current: 0.5, score: 1 });
    expect(harmful.candidate).not.toContain('When unsure');
    expect(harmful.calls).toBeGreaterThan(0);
    expect(harmful.basis).toBe('better');
    // A tie the gate itself refuses (it asks for a gain) is taken as no worse and cheaper: the tokens it saves.
    const neutral = await drop([2]);
    expect(neutral).toMatchObject({ accepted: true, basis: 'no_worse_cheaper', action: 'reject' });
    expect(neutral.gain).toBeCloseTo(0, 9);
    expect(neutral.noWorse).toMatch(/^a \d+ % chance it knows fewer validation items \(at most 30 %\)$/);
    // The Tone section is about 12 prompt tokens (the test server counts a quarter token per character).
    expect(neutral.tokensSaved).toBeGreaterThan(8);
    expect(neutral.tokensSaved).toBeLessThan(16);
    const helpful = await drop([0]);
    expect(helpful).toMatchObject({ accepted: false, basis: 'refused' });
    expect(helpful.gain).toBeLessThan(0);
    expect(helpful.tokensSaved).toBeGreaterThan(0); // cheaper, but worse: refused
    expect(helpful.noWorse).toMatch(/over 30 %/);
  });
});
