// The learning curve speaks of one measure: on a noisy target a candidate's first tries score otherwise
// than the gate settled it (a lucky first answer asked again; a re-checked new best). The dot, its
// interval, the best-so-far line and the readout are all the settled score the run's best is in; the
// first tries are said apart, labelled, where they differ.
import { describe, expect, it } from 'vitest';
import { stepMark } from '../../../src/engine/curve-marks';
import { learningCurve, wilsonInterval, type CurveMark } from '../../../src/core/report/learning-curve';
import { curveGeometry, curveSummary, pointText } from '../../../src/core/report/learning-curve-chart';
import { curveSection } from '../../../src/core/report/learning-curve-html';
import type { StepRecord } from '../../../src/engine/types';

const spend = (targetCalls: number) => ({ targetCalls, costUsd: targetCalls / 1000 });

/** The fields of a step record its mark reads (the rest are the step's own business). */
const record = (o: Partial<StepRecord>): StepRecord =>
  ({
    step: 1,
    epoch: 1,
    action: 'accept_new_best',
    selectionN: 20,
    selectionComplete: true,
    candidateGateScore: null,
    bestScore: 0.1,
    ...o,
  }) as StepRecord;

// The run of the screenshot that showed the disagreement: first tries 0.45 and 0.70, settled 0.36 and 0.615.
const marks: CurveMark[] = [
  { kind: 'baseline', score: 0.1, n: 20, spend: spend(60) },
  stepMark(
    record({ step: 1, candidateGateScore: 0.45, candidateSettledScore: 0.36, bestScore: 0.36, spend: spend(160) }),
  )!,
  stepMark(
    record({ step: 2, candidateGateScore: 0.7, candidateSettledScore: 0.615, bestScore: 0.615, spend: spend(260) }),
  )!,
];

describe('a point whose first tries scored otherwise than the gate settled', () => {
  it('draws its dot and interval in the settled score, the measure of its best so far', () => {
    const curve = learningCurve(marks);
    expect(curve.map((p) => p.score)).toEqual([0.1, 0.36, 0.615]);
    expect(curve.map((p) => p.best)).toEqual([0.1, 0.36, 0.615]);
    expect(curve.map((p) => p.firstTry)).toEqual([0.1, 0.45, 0.7]);
    const [low, high] = wilsonInterval(0.615, 20);
    expect(curve[2]).toMatchObject({ low, high, n: 20 });
  });

  it('puts each new best’s dot on the best-so-far line', () => {
    const g = curveGeometry(learningCurve(marks), 'calls');
    // The line's last level is where its last dot is: "M…H…V<y>" ends on the y of the latest best.
    const lastLevel = Number(g.best.split('V').at(-1));
    expect(lastLevel).toBeCloseTo(g.scored[2].y, 1);
    const secondLevel = Number(g.best.split('V')[1].split('H')[0]);
    expect(secondLevel).toBeCloseTo(g.scored[1].y, 1);
  });

  it('says the same best in the readout and labels the first tries where they differ', () => {
    const curve = learningCurve(marks);
    const summary = curveSummary(curve);
    expect(summary).toContain('best 0.615, reached at 260 calls');
    expect(summary).toContain('Scores are as the gate settled them; first tries differ (in the table).');
    expect(pointText(curve[2])).toMatch(/^Step 2: 0\.615 \(95% .*kept; first tries 0\.700; best so far 0\.615;/);
    expect(pointText(curve[0])).not.toContain('first tries');
  });

  it('gives the report the same dot and a labelled first-tries column', () => {
    const html = curveSection(learningCurve(marks));
    expect(html).toContain('<th>First tries</th>');
    expect(html).toMatch(/<td>Step 2<\/td>.*?<td>0\.615<\/td>.*?<td>0\.700<\/td>/);
    const y = curveGeometry(learningCurve(marks), 'calls').scored[2].y.toFixed(1);
    expect(html).toContain(`cy="${y}"`);
  });

  it('has no first-tries column or note when every point’s first tries are its settled score', () => {
    const steady = learningCurve([
      marks[0],
      stepMark(record({ candidateGateScore: 0.5, candidateSettledScore: 0.5, bestScore: 0.5, spend: spend(100) }))!,
    ]);
    expect(steady[1]).toMatchObject({ score: 0.5, firstTry: 0.5 });
    expect(pointText(steady[1])).not.toContain('first tries');
    expect(curveSummary(steady)).not.toContain('first tries');
    expect(curveSection(steady)).not.toContain('First tries');
  });

  it('keeps a run recorded before the settled score was: its first tries, the only score it has', () => {
    const old = stepMark(record({ candidateGateScore: 0.45, bestScore: 0.36, spend: spend(160) }))!;
    expect(learningCurve([marks[0], old])[1]).toMatchObject({ score: 0.45, firstTry: null, best: 0.36 });
  });

  it('has no score and no first tries where validation never scored the candidate', () => {
    const skipped = stepMark(
      record({ action: 'reject', candidateGateScore: null, candidateSettledScore: null, spend: spend(100) }),
    )!;
    expect(learningCurve([marks[0], skipped])[1]).toMatchObject({ score: null, firstTry: null, low: null });
  });
});
