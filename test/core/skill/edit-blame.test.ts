import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { blameLines, blameRanges, keptLines } from '../../../src/core/skill/edit-blame';

describe('edit blame: which version introduced each line', () => {
  it('keeps the origin of kept lines, even when an insertion above moves them', () => {
    const keys = blameLines([
      { key: 'initial_skill', text: '# S\n- a\n- b\n' },
      { key: 'step_0001', text: '# S\n- new\n- a\n- b\n' },
      { key: 'step_0002', text: '# S\n- new\n- a changed\n- b\n- tail\n' },
    ]);
    expect(keys).toEqual(['initial_skill', 'step_0001', 'step_0002', 'initial_skill', 'step_0002']);
    expect(blameRanges(keys)).toEqual([
      { start: 1, end: 1, key: 'initial_skill' },
      { start: 2, end: 2, key: 'step_0001' },
      { start: 3, end: 3, key: 'step_0002' },
      { start: 4, end: 4, key: 'initial_skill' },
      { start: 5, end: 5, key: 'step_0002' },
    ]);
    expect(blameRanges(['a', 'a', 'b', 'b', 'b'])).toEqual([
      { start: 1, end: 2, key: 'a' },
      { start: 3, end: 5, key: 'b' },
    ]);
  });

  it('a blank line goes with the line above it', () => {
    expect(blameLines([
      { key: 'v0', text: '# S\n\n- a\n' },
      { key: 'v1', text: '# S\n\n- a\n\n- b\n' },
    ])).toEqual(['v0', 'v0', 'v0', 'v0', 'v1']);
  });

  it('a line deleted and written back later belongs to the version that wrote it back', () => {
    expect(blameLines([
      { key: 'v0', text: 'x\ny\n' },
      { key: 'v1', text: 'x\n' },
      { key: 'v2', text: 'x\ny\n' },
    ])).toEqual(['v0', 'v2']);
  });

  const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd', '- rule', ''), { maxLength: 12 });

  it('property: kept lines are equal and in order (a common subsequence), and as long as a brute-force LCS', () => {
    const lcsLength = (a: string[], b: string[]): number => {
      const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
      for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) dp[i][j] = a[i] === b[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
      return dp[0][0];
    };
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const kept = keptLines(a, b);
        const pairs = kept.map((i, j) => [i, j] as const).filter(([i]) => i >= 0);
        for (const [i, j] of pairs) expect(a[i]).toBe(b[j]);
        for (let k = 1; k < pairs.length; k++) expect(pairs[k][0]).toBeGreaterThan(pairs[k - 1][0]);
        expect(pairs.length).toBe(lcsLength(a, b));
      }),
    );
  });

  it('property: every line of the last version is blamed on a version, and an unchanged chain blames the first', () => {
    fc.assert(
      fc.property(fc.array(lines, { minLength: 1, maxLength: 5 }), (texts) => {
        const versions = texts.map((t, i) => ({ key: `v${i}`, text: t.join('\n') }));
        const keys = blameLines(versions);
        expect(keys).toHaveLength(versions[versions.length - 1].text.replace(/\n$/, '').split('\n').length);
        for (const k of keys) expect(versions.map((v) => v.key)).toContain(k);
        expect(new Set(blameLines(texts.map((_, i) => ({ key: `v${i}`, text: texts[0].join('\n') }))))).toEqual(new Set(['v0']));
      }),
    );
  });
});
