// Transfer in the report (issue #42 item 5): per target the two skills' test accuracy and the lift
// with its interval, the verdict made again from the numbers, and nothing from a file unescaped.
import { describe, expect, it } from 'vitest';
import { transferLifts } from '../../../src/core/report/transfer-lifts';
import { transferSection } from '../../../src/core/report/transfer-html';

const lift = (interval: [number, number], measured = (interval[0] + interval[1]) / 2) => ({
  against: 'initial',
  measured,
  estimate: measured,
  interval,
  level: 0.95,
  n: 12,
  uncertain: interval[0] <= 0 && interval[1] >= 0,
  noise: { miss: 0, guess: 0, flipRate: 0, repeatedSamples: 8 },
  repeats: 1,
});
const target = (label: string, trained: boolean, initial: number, best: number, interval: [number, number]) => ({
  label,
  trained,
  tests: [
    { skill: 'initial', hard: initial, n: 12 },
    { skill: 'best', hard: best, n: 12 },
  ],
  lift: lift(interval, best - initial),
});

describe('transfer in the report', () => {
  it('reads each target’s scores and lift, and flags the flip', () => {
    const t = transferLifts({
      targets: [target('a', true, 0.25, 0.75, [0.25, 0.75]), target('b', false, 1, 0.25, [-1, -0.5])],
      verdict: { flipped: false, words: 'a stored verdict is not trusted' },
    })!;
    expect(t.rows.map((r) => [r.label, r.initial, r.best, r.lift, r.side])).toEqual([
      ['a', 0.25, 0.75, 0.5, 'above'],
      ['b', 1, 0.25, -0.75, 'below'],
    ]);
    expect(t.verdict.flipped).toBe(true);
    const html = transferSection({ targets: [target('a', true, 0.25, 0.75, [0.25, 0.75]), target('b', false, 1, 0.25, [-1, -0.5])] });
    expect(html).toContain('<td>a (trained on)</td><td>25.0%</td><td>75.0%</td><td>+50.0 points (95 % interval +25.0 to +75.0)</td><td>a real gain</td>');
    expect(html).toContain('<td>b</td><td>100.0%</td><td>25.0%</td><td>−75.0 points (95 % interval −100.0 to −50.0)</td><td>a real loss</td>');
    expect(html).toContain('<p class="flip"><strong>⚠ Ranking flip: the best skill scores below the starting skill on b');
  });

  it('says the lift holds when the targets agree', () => {
    const html = transferSection({ targets: [target('a', true, 0.2, 0.7, [0.3, 0.7]), target('b', false, 0.2, 0.6, [0.2, 0.6])] });
    expect(html).toContain('The lift holds on every target');
    expect(html).not.toContain('Ranking flip');
  });

  it('shows nothing without a confirming target, and leaves out what is not made of numbers', () => {
    expect(transferSection(undefined)).toBe('');
    expect(transferSection({ targets: [target('a', true, 0.2, 0.7, [0.3, 0.7])] })).toBe('');
    const bad = { ...target('<b>x</b>', false, 0, 1, [0.1, 0.9]), lift: { ...lift([0.1, 0.9]), measured: 'lots' } };
    expect(transferSection({ targets: [target('a', true, 0.2, 0.7, [0.3, 0.7]), bad] })).toBe('');
    const named = transferSection({ targets: [target('a', true, 0.2, 0.7, [0.3, 0.7]), target('<b>x</b>', false, 0, 1, [0.1, 0.9])] });
    expect(named).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(named).not.toContain('<b>x</b>');
  });
});
