/**
 * A stored run as the HTML report's data (core/report/run-report.ts): the run service's report
 * (report.ts) gathers the records over the store port and maps them here, once for both hosts.
 */
import { targetValidationRows } from '../core/report/target-validation';
import type { ItemDelta } from '../core/verdict/credit';
import type { ReportData, ReportGate } from '../core/report/run-report';
import type { StepArtifacts } from '../engine/artifacts';
import type { RunState, StepRecord } from '../engine/types';
import type { RunRecord } from '../storage/schema';
import { curveMarks } from '../engine/curve-marks';
import { learningCurve } from '../core/report/learning-curve';

/**
 * One gated step's row: the settled verdict's items when there is one (issue #19), else the first
 * answers' changes; the score it had to beat is the one stored with it, else the step before's.
 */
export function reportGate(
  s: StepRecord,
  a: Partial<Pick<StepArtifacts, 'gate' | 'candidate_edits' | 'ranked'>>,
  delta: ItemDelta,
  before: { previous?: StepRecord; baseline?: number | null },
): ReportGate {
  const v = a.gate?.verdict;
  return {
    step: s.step,
    action: s.action,
    candidate: a.gate?.compared?.candidate ?? s.candidateGateScore,
    current:
      a.gate?.compared?.current ?? s.scoreBefore ?? before.previous?.currentScore ?? before.baseline ?? s.currentScore,
    fixed: v ? v.improved : delta.improved,
    broken: v ? v.regressed : delta.regressed,
    ...(v ? { verdict: { pValue: v.pValue, resampled: v.resampled, margin: v.margin } } : {}),
    ...(s.refusedBy ? { refusedBy: s.refusedBy } : {}),
    edits: (a.candidate_edits ?? a.ranked?.edits ?? []).map((e) => ({
      op: String(e.op),
      target: e.target,
      content: e.content,
    })),
  };
}

export function reportData(a: {
  run: RunRecord;
  state: RunState | undefined;
  steps: readonly StepRecord[];
  gates: ReportGate[];
  datasetName: string;
  blame: ReportData['blame'];
}): ReportData {
  const { run, state } = a;
  const summary = state?.summary;
  return {
    name: run.name,
    status: run.status,
    createdAt: `${new Date(run.createdAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    datasetName: a.datasetName,
    targetModel: run.endpoints.target.model,
    optimizerModel: run.endpoints.optimizer.model,
    config: run.config,
    baseline: state?.baselineScore ?? null,
    steps: a.steps.map((s) => ({
      step: s.step,
      epoch: s.epoch,
      action: s.action,
      candidate: s.candidateGateScore,
      current: s.currentScore,
      best: s.bestScore,
    })),
    gates: a.gates,
    curve: learningCurve(curveMarks(state, a.steps)),
    tests: summary?.tests ?? [],
    usage: summary?.usage ?? {},
    totalCostUsd: summary?.totalCostUsd ?? null,
    bestSkill: state?.gate.bestSkill ?? run.initialSkill,
    blame: a.blame,
    ...(summary?.diagnosis ? { diagnosis: summary.diagnosis } : {}),
    ...(summary?.lift ? { lift: summary.lift } : {}),
    ...(summary?.liftOverNone ? { liftOverNone: summary.liftOverNone } : {}),
    ...(summary?.transfer ? { transfer: summary.transfer } : {}),
    gateTargets: targetValidationRows(
      {
        label: run.endpoints.target.model,
        initial: summary?.baselineSelection ?? null,
        best: summary?.bestSelection ?? null,
      },
      summary?.gateTargets,
    ),
    ...(summary?.sectionCredit ? { sectionCredit: summary.sectionCredit } : {}),
    ...(state?.activation ? { activation: state.activation } : {}),
  };
}
