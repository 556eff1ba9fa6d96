// The bundled example datasets must import cleanly and be big enough to train on.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { importDatasetText } from '../../../src/core/dataset/dataset-import';
import { scoreResponse } from '../../../src/core/scoring/scoring';

const dir = new URL('../../../public/examples/', import.meta.url);
const index = JSON.parse(readFileSync(new URL('index.json', dir), 'utf8')) as { id: string; file: string; skill: string; scorer: 'exact' | 'mcq' }[];

describe('bundled examples', () => {
  it('lists at least two, one of them multiple choice', () => {
    expect(index.length).toBeGreaterThanOrEqual(2);
    expect(index.some((e) => e.scorer === 'mcq')).toBe(true);
  });
  it.each(index.map((e) => [e.id, e] as const))('%s imports with 60+ items, a starter skill, and answers its scorer accepts', (_id, e) => {
    const r = importDatasetText(readFileSync(new URL(e.file, dir), 'utf8'), { fileName: e.file });
    if (!r.ok) throw new Error(JSON.stringify(r.problems.slice(0, 3)));
    expect(r.dataset.items.length).toBeGreaterThanOrEqual(60);
    expect(existsSync(new URL(e.skill, dir))).toBe(true);
    for (const item of r.dataset.items) {
      const gold = e.scorer === 'mcq' ? item.correctChoice! : item.answers[0];
      expect(scoreResponse({ kind: e.scorer }, `<answer>${gold}</answer>`, item).hard).toBe(1);
    }
  });
});
