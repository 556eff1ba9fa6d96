/**
 * A stored run's HTML report (core/report/run-report.ts), gathered once over the store port — so the
 * page's export and the runner's report.html say the same thing: each gated step's items against
 * the skill it started from (step-records.ts), and the best skill's blame with each run
 * of lines' source and why (skill-blame.ts).
 */
import { compareOutcomes } from '../core/verdict/credit';
import { renderRunReport, type ReportData, type ReportGate } from '../core/report/run-report';
import { readStepArtifacts } from '../engine/artifacts';
import { reportData, reportGate } from './report-data';
import type { RunRecords } from './ports';
import { blameSkill } from './skill-blame';
import { readRunShared, readStepRecords } from './step-records';
import { reportTrajectories } from '../core/agent/report-trajectories';
import { stepKey } from '../engine/keys';
import type { RunRecord } from '../storage/schema';

/** Each gated step's row: the settled verdict's items, else the first answers' changes. */
async function gatesOf(records: RunRecords, runId: string, baseline: number | undefined): Promise<ReportGate[]> {
  const steps = await records.getSteps(runId);
  const shared = await readRunShared(records, runId);
  const gates: ReportGate[] = [];
  for (const s of steps.filter((x) => x.candidateHash)) {
    const r = await readStepRecords(records, runId, s.step, shared);
    if (!r) continue;
    const ok = <T extends { status: string }>(rows: T[]) => rows.filter((x) => x.status === 'ok');
    const delta = compareOutcomes(ok(r.currentRollouts), ok(r.gateRollouts));
    const previous = steps.find((x) => x.step === s.step - 1);
    gates.push(reportGate(s, readStepArtifacts(s.step, r.artifacts), delta, { previous, baseline }));
  }
  return gates;
}

/** The best skill's blame as the report lists it: runs of non-blank lines, their source and why. */
async function blameOf(records: RunRecords, runId: string, bestSkill: string): Promise<ReportData['blame']> {
  const blame = await blameSkill(records, runId, bestSkill);
  const lines = bestSkill.split('\n');
  return blame?.ranges
    .filter((r) => lines.slice(r.start - 1, r.end).some((l) => l.trim()))
    .map((r) => {
      const src = blame.sources[r.key];
      const inRange = blame.lines.slice(r.start - 1, r.end);
      const edits = [...new Set(inRange.flatMap((l) => (l.edit ? [`${l.edit.op} edit`] : [])))];
      const analysts = [...new Set(inRange.flatMap((l) => l.analysts ?? []))];
      return {
        start: r.start,
        end: r.end,
        source: src.action ? `${src.label} (${src.action.replace(/_/g, ' ')})` : src.label,
        detail: [...edits, ...analysts, ...(src.changeSummary ?? [])].join(' — '),
      };
    });
}

/**
 * An agent run's trajectories (issue #30): the exported skill's on the test split, failures first
 * (a run that was not tested: its last train batch's). Absent for a single-call run.
 */
async function agentsOf(records: RunRecords, run: RunRecord): Promise<ReportData['agents']> {
  const tested = await records.getRollouts(run.id, 'test/best');
  let rows = tested.filter((r) => r.trajectory);
  if (!rows.length) {
    const last = (await records.getSteps(run.id)).at(-1);
    if (last) rows = (await records.getRollouts(run.id, `${stepKey(last.step)}/rollout`)).filter((r) => r.trajectory);
  }
  if (!rows.length && run.state?.agentTurns === undefined) return undefined;
  return {
    turns: run.state?.agentTurns ?? null,
    trajectories: reportTrajectories(rows, run.config.toolResultChars ?? 400),
  };
}

/** The run's report as one HTML document; null when there is no such run. */
export async function reportHtml(records: RunRecords, runId: string): Promise<string | null> {
  const run = await records.getRun(runId);
  if (!run) return null;
  const bestSkill = run.state?.gate.bestSkill ?? run.initialSkill;
  const [steps, gates, blame, datasetName, agents] = await Promise.all([
    records.getSteps(runId),
    gatesOf(records, runId, run.state?.baselineScore),
    blameOf(records, runId, bestSkill),
    records.datasetName(run.datasetId),
    agentsOf(records, run),
  ]);
  const data = reportData({ run, state: run.state, steps, gates, datasetName: datasetName ?? run.datasetId, blame });
  return renderRunReport(agents ? { ...data, agents } : data);
}
