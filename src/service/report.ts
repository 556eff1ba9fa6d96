/**
 * A stored run's HTML report (core/run-report.ts), gathered once over the store port — so the
 * page's export and the runner's report.html say the same thing: each gated step's items against
 * the skill it started from (storage/step-records.ts), and the best skill's blame with each run
 * of lines' source and why (storage/skill-blame.ts).
 */
import { compareOutcomes } from '../core/credit';
import { renderRunReport, type ReportData, type ReportGate } from '../core/run-report';
import { readStepArtifacts } from '../engine/artifacts';
import { reportData, reportGate } from '../storage/report-data';
import type { RunRecords } from '../storage/run-records';
import { blameSkill } from '../storage/skill-blame';
import { readRunShared, readStepRecords } from '../storage/step-records';

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

/** The run's report as one HTML document; null when there is no such run. */
export async function reportHtml(records: RunRecords, runId: string): Promise<string | null> {
  const run = await records.getRun(runId);
  if (!run) return null;
  const bestSkill = run.state?.gate.bestSkill ?? run.initialSkill;
  const [steps, gates, blame, datasetName] = await Promise.all([
    records.getSteps(runId),
    gatesOf(records, runId, run.state?.baselineScore),
    blameOf(records, runId, bestSkill),
    records.datasetName(run.datasetId),
  ]);
  return renderRunReport(
    reportData({ run, state: run.state, steps, gates, datasetName: datasetName ?? run.datasetId, blame }),
  );
}
