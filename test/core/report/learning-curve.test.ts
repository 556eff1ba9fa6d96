import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { learningCurve, wilsonInterval, type CurveMark, type GateMark } from '../../../src/core/report/learning-curve';

const spend = (targetCalls: number, costUsd = targetCalls / 1000) => ({ targetCalls, costUsd });
const step = (s: number, o: Partial<GateMark> = {}): CurveMark => ({
  kind: 'step',
  step: s,
  epoch: 1,
  action: 'reject',
  score: 0.5,
  n: 20,
  complete: true,
  best: 0.5,
  spend: spend(s * 50),
  ...o,
});

describe('wilsonInterval', () => {
  it('matches the textbook figures and stays inside [0, 1]', () => {
    const [lo, hi] = wilsonInterval(0.5, 20);
    expect(lo).toBeCloseTo(0.2993, 3);
    expect(hi).toBeCloseTo(0.7007, 3);
    expect(wilsonInterval(1, 20)[1]).toBe(1);
    expect(wilsonInterval(1, 20)[0]).toBeCloseTo(0.8389, 3);
    expect(wilsonInterval(0, 20)[0]).toBe(0);
    expect(wilsonInterval(0.3, 0)).toEqual([0, 1]);
  });

  it('holds its score and narrows as items are added (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 200 }), (k, n0) => {
        const n = Math.max(n0, k, 1);
        const p = k / n;
        const [lo, hi] = wilsonInterval(p, n);
        const [lo4, hi4] = wilsonInterval(p, 4 * n);
        expect(lo).toBeLessThanOrEqual(p);
        expect(hi).toBeGreaterThanOrEqual(p);
        expect(hi4 - lo4).toBeLessThan(hi - lo);
      }),
    );
  });
});

describe('learningCurve', () => {
  it('draws the baseline, each step and a measured epoch boundary in the order they happened', () => {
    const marks: CurveMark[] = [
      { kind: 'epoch', step: 2, epoch: 1, action: 'reject', score: 0.6, n: 20, complete: true, best: 0.7, spend: spend(130) },
      step(2, { action: 'accept_new_best', score: 0.7, best: 0.7, spend: spend(100) }),
      { kind: 'baseline', score: 0.4, n: 20, spend: spend(20) },
      step(1, { action: 'skip_no_patches', score: null, n: null, complete: null, best: 0.4, spend: spend(40) }),
    ];
    const curve = learningCurve(marks);
    expect(curve.map((p) => p.label)).toEqual(['Baseline', 'Step 1', 'Step 2', 'Epoch 1 boundary']);
    expect(curve.map((p) => p.targetCalls)).toEqual([20, 40, 100, 130]);
    expect(curve.map((p) => p.accepted)).toEqual([true, false, true, false]);
    expect(curve.map((p) => p.best)).toEqual([0.4, 0.4, 0.7, 0.7]);
    // A step that never reached validation has no score and no interval, but keeps its spend.
    expect(curve[1]).toMatchObject({ score: null, low: null, high: null, complete: true });
    expect(curve[2].low).toBeCloseTo(wilsonInterval(0.7, 20)[0], 12);
    expect(curve[2].high).toBeCloseTo(wilsonInterval(0.7, 20)[1], 12);
  });

  it('has no score where the gate stopped before its first item (the candidate could not win)', () => {
    const [p] = learningCurve([step(1, { score: 1, n: 0, complete: false })]);
    expect(p).toMatchObject({ score: null, low: null, high: null, targetCalls: 50 });
  });

  it('marks an early-stopped gate score and a forced slow update', () => {
    const curve = learningCurve([
      step(1, { complete: false, score: 0.3 }),
      { kind: 'epoch', step: 1, epoch: 1, action: 'force_inject', score: 0.55, n: 20, complete: true, best: 0.55, spend: spend(90) },
    ]);
    expect(curve[0].complete).toBe(false);
    expect(curve[1].accepted).toBe(true);
  });

  it('keeps calls in order, the best never falling and every interval around its score (property)', () => {
    const markArb = fc.record({
      action: fc.constantFrom('accept', 'accept_new_best', 'accept_tie', 'reject', 'skip_no_patches'),
      score: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
      n: fc.integer({ min: 0, max: 200 }),
      best: fc.double({ min: 0, max: 1, noNaN: true }),
      calls: fc.integer({ min: 0, max: 500 }),
      cost: fc.double({ min: 0, max: 1, noNaN: true }),
      boundary: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(markArb, { maxLength: 30 }), fc.double({ min: 0, max: 1, noNaN: true }), (raw, baseline) => {
        // Spend only grows as the run goes: cumulative sums in the run's own order.
        let calls = 10;
        let cost = 0;
        const marks: CurveMark[] = [{ kind: 'baseline', score: baseline, n: 20, spend: spend(calls, cost) }];
        raw.forEach((r, i) => {
          calls += r.calls;
          cost += r.cost;
          marks.push(step(i + 1, { action: r.action, score: r.score, n: r.n, best: r.best, spend: spend(calls, cost) }));
          if (r.boundary) {
            calls += 1;
            marks.push({ kind: 'epoch', step: i + 1, epoch: 1, action: 'reject', score: r.score, n: r.n, complete: true, best: r.best, spend: spend(calls, cost) });
          }
        });
        // The marks arrive in any order (a store's, a resumed run's): the curve is the same.
        const shuffled = [...marks].reverse();
        const curve = learningCurve(shuffled);
        expect(curve).toEqual(learningCurve(marks));
        expect(curve).toHaveLength(marks.length);
        for (let i = 1; i < curve.length; i++) {
          expect(curve[i].targetCalls).toBeGreaterThanOrEqual(curve[i - 1].targetCalls);
          expect(curve[i].costUsd).toBeGreaterThanOrEqual(curve[i - 1].costUsd);
          expect(curve[i].best).toBeGreaterThanOrEqual(curve[i - 1].best);
        }
        for (const p of curve) {
          if (p.score === null) expect([p.low, p.high]).toEqual([null, null]);
          else {
            expect([typeof p.low, typeof p.high]).toEqual(['number', 'number']);
            expect(p.low!).toBeLessThanOrEqual(p.score);
            expect(p.high!).toBeGreaterThanOrEqual(p.score);
          }
          expect(p.best).toBeGreaterThanOrEqual(baseline);
        }
        expect(curve[0].best).toBe(baseline);
      }),
    );
  });

  it('leaves out marks a crafted bundle filled with text or infinities, for the page, --json and the report alike (issue #39 M7)', () => {
    const markup = '<img src=x onerror=alert(1)>';
    const marks: unknown[] = [
      { kind: 'baseline', score: 0.3, n: 20, spend: spend(10) },
      step(1, { score: markup as unknown as number }),
      step(2, { spend: { targetCalls: 100, costUsd: markup as unknown as number } }),
      step(3, { best: Infinity }),
      step(4, { n: '20' as unknown as number }),
      step(5, { complete: 'yes' as unknown as boolean }),
      { ...step(6), kind: 'other' },
      { ...step(7), spend: null },
      null,
      'step 8',
      step(9, { score: 0.6, best: 0.6 }),
    ];
    const curve = learningCurve(marks);
    expect(curve.map((p) => p.label)).toEqual(['Baseline', 'Step 9']);
    expect(curve.every((p) => [p.score, p.low, p.high, p.costUsd, p.targetCalls, p.best].every(Number.isFinite))).toBe(true);
    expect(curve[1].best).toBe(0.6);
  });
});
