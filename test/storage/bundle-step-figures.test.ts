// A bundle's step figures are drawn by the Runs screen and the learning curve (issue #39 M7): when
// present they must be numbers, or the bundle is refused naming the field; absent ones are fine.
import { describe, expect, it } from 'vitest';
import { BUNDLE_FORMAT, parseBundle } from '../../src/storage/bundle';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';

function withStep(step: Record<string, unknown>): string {
  const items = ['a', 'b', 'c'].map((id) => ({ id, question: `q ${id}`, answers: ['x'], fields: {} }));
  const endpoint = { baseURL: 'http://x/v1', model: 'm' };
  return JSON.stringify({
    format: BUNDLE_FORMAT,
    version: 1,
    exportedAt: '2025-01-01T00:00:00Z',
    run: {
      id: 'r', name: 'r', datasetId: 'd', createdAt: 0, updatedAt: 0, status: 'paused', config: DEFAULT_RUN_CONFIG,
      initialSkill: '# s\n', endpoints: { target: endpoint, optimizer: endpoint }, prices: {},
    },
    dataset: {
      id: 'd', name: 'd', createdAt: 0, fieldNames: [], items, splits: { train: ['a'], val: ['b'], test: ['c'] },
      mapping: {}, format: 'json', splitSource: 'ratio', ratio: [1, 1, 1], splitSeed: 1, warnings: [],
    },
    skills: [], rollouts: [], calls: [], artifacts: [],
    steps: [{ runId: 'r', step: 1, epoch: 1, action: 'reject', ...step }],
  });
}

describe('a bundle’s step figures', () => {
  it('takes numbers, nulls where a figure may be missing, and older steps without them', () => {
    expect(parseBundle(withStep({})).ok).toBe(true);
    const figures = { candidateGateScore: 0.5, bestScore: 0.5, selectionN: 20, selectionComplete: true, spend: { targetCalls: 10, costUsd: 0.01 } };
    expect(parseBundle(withStep(figures)).ok).toBe(true);
    expect(parseBundle(withStep({ ...figures, candidateGateScore: null, selectionN: null, selectionComplete: null })).ok).toBe(true);
  });

  it.each([
    ['candidateGateScore', { candidateGateScore: '<b>0.9</b>' }, 'steps.0.candidateGateScore'],
    ['spend.costUsd', { spend: { targetCalls: 1, costUsd: 'free' } }, 'steps.0.spend.costUsd'],
    ['bestScore', { bestScore: null }, 'steps.0.bestScore'],
    ['rolloutHard', { rolloutHard: [] }, 'steps.0.rolloutHard'],
    ['selectionComplete', { selectionComplete: 'yes' }, 'steps.0.selectionComplete'],
  ])('refuses %s that is not a number, naming it', (_name, step, path) => {
    const r = parseBundle(withStep(step));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(path);
  });

  it('refuses a figure written as 1e999 (JSON’s way to an infinity)', () => {
    const r = parseBundle(withStep({}).replace('"action":"reject"', '"action":"reject","currentScore":1e999'));
    expect(r).toMatchObject({ ok: false, error: expect.stringContaining('steps.0.currentScore') });
  });
});
