// Issue #9 item 21 (part): the step buffer the analysts see stays bounded on a large dataset.
import { describe, expect, it } from 'vitest';
import { BUFFER_LIMIT, boundBuffer, makeBufferEntry, renderBuffer } from '../../src/engine/step/step-buffer';
import { loadPrompts } from '../support/prompts';
import type { RolloutRow } from '../../src/engine/types';

const row = (i: number): RolloutRow =>
  ({ runId: 'r', phase: 'p', order: i, itemId: `i${i}`, skillHash: 'h', cacheKey: `k${i}`, status: 'ok', response: '', predicted: 'x', hard: 0, soft: 0, failReason: `EM=0: predicted 'x' but expected '${i}'`, usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0 }, latencyMs: 0, cached: false }) as RolloutRow;

const entry = (step: number) =>
  makeBufferEntry({
    step,
    action: 'reject',
    rows: Array.from({ length: 20 }, (_, i) => row(step * 100 + i)),
    analystSummaries: ['x'.repeat(400)],
    scoreBefore: 0.5,
    scoreAfter: 0.4,
    edits: Array.from({ length: 4 }, (_, i) => ({ op: 'append' as const, content: `- rule ${step}.${i} ${'y'.repeat(250)}` })),
  });

describe('step buffer bounds', () => {
  it('keeps and shows only the most recent steps, within the character budget', () => {
    const all = Array.from({ length: 250 }, (_, i) => entry(i + 1));
    expect(boundBuffer(all).map((e) => e.step)).toEqual(Array.from({ length: BUFFER_LIMIT.entries }, (_, i) => 250 - BUFFER_LIMIT.entries + 1 + i));
    const text = renderBuffer(all, loadPrompts());
    expect(text.length).toBeLessThan(BUFFER_LIMIT.chars + 2_000);
    expect(text).toContain('Step 250 — REJECT');
    expect(text).not.toContain('Step 1 — REJECT');
    expect(text).toMatch(/\(\d+ earlier steps of this epoch not shown\)/);
  });

  it('a short epoch is shown whole', () => {
    const text = renderBuffer([entry(1), entry(2)], loadPrompts());
    expect(text).toContain('Step 1 — REJECT');
    expect(text).toContain('Step 2 — REJECT');
    expect(text).not.toContain('not shown');
  });
});
