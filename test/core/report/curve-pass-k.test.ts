// pass^k on the learning curve (issue #43): a point tried k times per validation item carries pass^1,
// pass^k (C(c,k)/C(n,k)) and the item flip rate; a point tried fewer times has none, never a guess.
import { describe, expect, it } from 'vitest';
import { passKOfAsked } from '../../../src/core/verdict/pass-k';
import { learningCurve, type CurveMark } from '../../../src/core/report/learning-curve';
import { curveGeometry, pointText } from '../../../src/core/report/learning-curve-chart';
import { curveSection } from '../../../src/core/report/learning-curve-html';

const spend = (targetCalls: number) => ({ targetCalls, costUsd: 0 });
const T = true;
const F = false;

describe('passKOfAsked: one point’s k tries per item', () => {
  it('gives C(c,k)/C(n,k) per item, pass^1 over the same tries and the share of items that flipped', () => {
    // Four items, three tries each: always, never, two of three, one of three.
    const p = passKOfAsked(
      [
        [T, T, T],
        [F, F, F],
        [T, F, T],
        [F, F, T],
      ],
      3,
    )!;
    expect(p).toEqual({
      k: 3,
      passAt1: (1 + 0 + 2 / 3 + 1 / 3) / 4,
      passAtK: 1 / 4,
      flipRate: 2 / 4,
      items: 4,
      short: 0,
    });
  });

  it('equals pass^1 with no flip when every item answers alike', () => {
    const p = passKOfAsked(
      [
        [T, T],
        [F, F],
        [T, T],
      ],
      2,
    )!;
    expect(p.passAtK).toBe(p.passAt1);
    expect(p.passAt1).toBeCloseTo(2 / 3, 12);
    expect(p.flipRate).toBe(0);
  });

  it('counts only the first k tries, and leaves an errored try out of its item', () => {
    // A fourth try (a verdict settling its doubt) is not one of the k asked alike.
    expect(passKOfAsked([[T, T, F]], 2)).toMatchObject({ passAtK: 1, flipRate: 0 });
    // An errored try leaves its item short of k scored tries: counted as short, out of every figure.
    expect(
      passKOfAsked(
        [
          [T, F, T],
          [T, null, T],
          [F, F, F],
        ],
        3,
      ),
    ).toEqual({ k: 3, passAt1: 1 / 3, passAtK: 0, flipRate: 0.5, items: 2, short: 1 });
  });

  it('has no pass^k when an item was asked fewer than k times, or k is one', () => {
    expect(
      passKOfAsked(
        [
          [T, T, T],
          [T, T],
        ],
        3,
      ),
    ).toBeNull();
    expect(passKOfAsked([[T]], 1)).toBeNull();
    expect(passKOfAsked([], 3)).toBeNull();
    expect(passKOfAsked([[null, null]], 2)).toBeNull();
  });
});

const PASSK = { k: 3, passAt1: 0.7, passAtK: 0.55, flipRate: 0.25, items: 20, short: 0 };
const marks: CurveMark[] = [
  {
    kind: 'baseline',
    score: 0.6,
    n: 20,
    spend: spend(40),
    passK: { ...PASSK, passAt1: 0.6, passAtK: 0.6, flipRate: 0 },
  },
  {
    kind: 'step',
    step: 1,
    epoch: 1,
    action: 'skip_no_patches',
    score: null,
    n: null,
    complete: null,
    best: 0.6,
    spend: spend(60),
  },
  {
    kind: 'step',
    step: 2,
    epoch: 1,
    action: 'accept_new_best',
    score: 0.75,
    n: 20,
    complete: true,
    best: 0.75,
    spend: spend(150),
    passK: PASSK,
  },
  // Recorded before the setting, or with it off: pass^1 only.
  {
    kind: 'step',
    step: 3,
    epoch: 1,
    action: 'reject',
    score: 0.5,
    n: 20,
    complete: true,
    best: 0.75,
    spend: spend(200),
  },
];

describe('the curve’s points with pass^k', () => {
  it('carry the mark’s pass^1, pass^k and flip rate; a point without k tries has null', () => {
    const curve = learningCurve(marks);
    expect(curve.map((p) => p.passK?.passAtK ?? null)).toEqual([0.6, null, 0.55, null]);
    expect(curve[2].passK).toEqual(PASSK);
    expect(pointText(curve[2])).toContain('pass^1 0.700, pass^3 0.550 over 3 tries of 20 items, 25% of items flipped');
    expect(pointText(curve[3])).not.toContain('pass^');
  });

  it('drops a pass^k that is not made of numbers in range, keeping the point', () => {
    const bad = [
      { ...marks[0], passK: { ...PASSK, passAtK: 1.4 } },
      { ...marks[2], passK: { ...PASSK, k: 1 } },
      { ...marks[3], passK: 'x' },
    ];
    const curve = learningCurve(bad);
    expect(curve).toHaveLength(3);
    expect(curve.every((p) => p.passK === null)).toBe(true);
    // A run has one k: a point of another is not drawn on its series.
    const mixed = learningCurve([marks[0], { ...marks[2], passK: { ...PASSK, k: 5 } }]);
    expect(mixed.map((p) => p.passK?.k ?? null)).toEqual([3, null]);
  });

  it('draws pass^k as a second series through the points tried k times, at their pass^k', () => {
    const curve = learningCurve(marks);
    const g = curveGeometry(curve, 'calls');
    expect(g.passK!.k).toBe(3);
    expect(g.passK!.marks.map((m) => m.point.label)).toEqual(['Baseline', 'Step 2']);
    const [base, step2] = g.scored.filter((m) => m.point.passK);
    // The baseline's pass^k is its pass^1 here (no flip): the square sits on the circle.
    expect(g.passK!.marks[0].y).toBeCloseTo(base.y, 9);
    expect(g.passK!.marks[1].y).toBeGreaterThan(step2.y);
    expect(g.passK!.line).toMatch(/^M[\d.]+,[\d.]+L[\d.]+,[\d.]+$/);
    expect(curveGeometry(learningCurve([marks[3]]), 'calls').passK).toBeNull();
  });

  it('shows the series, its legend, the latest readout and the table columns in the report', () => {
    const html = curveSection(learningCurve(marks));
    expect(html).toContain('class="passk"');
    expect(html.match(/class="passk-mark"/g)).toHaveLength(2);
    expect(html).toContain('■ pass^3: all 3 tries of an item pass');
    expect(html).toContain('Step 2: pass^1 0.700, pass^3 0.550 over 3 tries of 20 items, 25% of items flipped.');
    expect(html).toContain('<th>pass^1</th><th>pass^3</th><th>Items flipped</th>');
    expect(html).toContain('<td>0.700</td><td>0.550</td><td>25.0%</td>');
    expect(html).toContain('<td>—</td><td>—</td><td>—</td>');
    const plain = curveSection(learningCurve([marks[3]]));
    expect(plain).not.toContain('pass^');
  });
});
