/**
 * A run's records as its learning curve's marks (core/learning-curve.ts): the baseline, each step
 * and each measured epoch boundary, with what the run had spent when it happened. The engine
 * announces each mark as it records it; the run service rebuilds them all from the stored
 * records with the same functions, so the live dashboard, the report and `--json` agree.
 * Records made before the spend was recorded have no mark.
 */
import type { CurveMark, Spend } from '../core/report/learning-curve';
import type { EpochStats, RunState, StepRecord } from './types';

/** A recorded spend (an imported bundle's field may hold anything). */
const spendOf = (s: unknown): Spend | null => (s && typeof s === 'object' ? (s as Spend) : null);

export function baselineMark(state: Pick<RunState, 'baselineScore' | 'baselineMark'>): CurveMark | null {
  const m = state.baselineMark;
  const spend = spendOf(m?.spend);
  return m && spend && state.baselineScore !== undefined
    ? { kind: 'baseline', score: state.baselineScore, n: m.n, spend, ...(m.curvePassK ? { passK: m.curvePassK } : {}) }
    : null;
}

export function stepMark(r: StepRecord): CurveMark | null {
  const spend = spendOf(r.spend);
  if (!spend) return null;
  return {
    kind: 'step',
    step: r.step,
    epoch: r.epoch,
    action: r.action,
    // The score the gate decided on (the measure of `best`); older runs kept only the first tries'.
    score: r.candidateSettledScore !== undefined ? r.candidateSettledScore : r.candidateGateScore,
    ...(r.candidateSettledScore !== undefined ? { firstTry: r.candidateGateScore } : {}),
    n: r.candidateGateScore !== null ? r.selectionN : null,
    complete: r.selectionComplete,
    best: r.bestScore,
    spend,
    ...(r.curvePassK ? { passK: r.curvePassK } : {}),
  };
}

/** An epoch boundary that measured a slow update on validation; `lastStep`: the epoch's last step. */
export function epochMark(e: EpochStats, lastStep: number): CurveMark | null {
  const u = e.slowUpdate;
  const spend = spendOf(e.spend);
  if (!spend || u?.gateScore === undefined) return null;
  return {
    kind: 'epoch',
    step: lastStep,
    epoch: e.epoch,
    action: u.action,
    score: u.gateScore,
    n: u.n ?? null,
    complete: u.complete ?? null,
    best: e.bestScoreAtEnd,
    spend,
    ...(u.curvePassK ? { passK: u.curvePassK } : {}),
  };
}

/** Every mark a run's stored records hold. */
export function curveMarks(state: RunState | undefined, steps: readonly StepRecord[]): CurveMark[] {
  const lastStep = (epoch: number) => Math.max(0, ...steps.filter((s) => s.epoch === epoch).map((s) => s.step));
  const marks = [
    state ? baselineMark(state) : null,
    ...steps.map(stepMark),
    ...(Array.isArray(state?.epochStats) ? state.epochStats : []).map((e) => epochMark(e, lastStep(e.epoch))),
  ];
  return marks.filter((m): m is CurveMark => m !== null);
}
