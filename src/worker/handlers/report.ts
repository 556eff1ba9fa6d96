/** A run's HTML report: gathered from storage, rendered by core/run-report.ts. */
import { compareOutcomes } from '../../core/credit';
import { renderRunReport, type ReportGate } from '../../core/run-report';
import { reportData, reportGate } from '../../storage/report-data';
import { readStepArtifacts } from '../../engine/artifacts';
import { getDataset, getDatasetIndex } from '../../storage/datasets-repo';
import { toEvalsFile } from '../../core/evals-export';
import { getRun } from '../../storage/runs-repo';
import { readRunShared, readStepRecords } from '../../storage/step-records';
import { blameSkill } from '../../storage/skill-blame';
import type { ReportApi } from '../api-types';
import { fail, type ApiContext } from './context';

export function reportHandlers(c: ApiContext): ReportApi {
  const { dbp } = c;
  return {
    async exportReport(runId) {
      const db = await dbp;
      const run = await getRun(db, runId);
      if (!run) return fail('not_found', 'That run is not in this browser.');
      const steps = await db.getAll('steps', IDBKeyRange.bound([runId, 0], [runId, Infinity]));
      const gates: ReportGate[] = [];
      const shared = await readRunShared(db, runId);
      for (const s of steps.filter((x) => x.candidateHash)) {
        const r = await readStepRecords(db, runId, s.step, shared);
        if (!r) continue;
        const a = readStepArtifacts(s.step, r.artifacts);
        const delta = compareOutcomes(
          r.currentRollouts.filter((x) => x.status === 'ok'),
          r.gateRollouts.filter((x) => x.status === 'ok'),
        );
        gates.push(
          reportGate(s, a, delta, {
            previous: steps.find((x) => x.step === s.step - 1),
            baseline: run.state?.baselineScore,
          }),
        );
      }
      const bestSkill = run.state?.gate.bestSkill ?? run.initialSkill;
      const blame = await blameSkill(db, runId, bestSkill);
      const html = renderRunReport(
        reportData({
          run,
          state: run.state,
          steps,
          gates,
          datasetName: (await getDatasetIndex(db, run.datasetId))?.name ?? run.datasetId,
          blame: blame?.ranges
            .filter((r) =>
              bestSkill
                .split('\n')
                .slice(r.start - 1, r.end)
                .some((l) => l.trim()),
            )
            .map((r) => {
              const src = blame.sources[r.key];
              const lines = blame.lines.slice(r.start - 1, r.end);
              const edits = [...new Set(lines.flatMap((l) => (l.edit ? [`${l.edit.op} edit`] : [])))];
              const analysts = [...new Set(lines.flatMap((l) => l.analysts ?? []))];
              const why = [...edits, ...analysts, ...(src.changeSummary ?? [])].join(' — ');
              return {
                start: r.start,
                end: r.end,
                source: src.action ? `${src.label} (${src.action.replace(/_/g, ' ')})` : src.label,
                detail: why,
              };
            }),
        }),
      );
      return { ok: true, file: new Blob([html], { type: 'text/html' }) };
    },

    async exportEvals(runId) {
      const db = await dbp;
      const run = await getRun(db, runId);
      if (!run) return fail('not_found', 'That run is not in this browser.');
      const dataset = await getDataset(db, run.datasetId);
      if (!dataset) return fail('not_found', 'The run’s dataset is no longer in this browser.');
      const summary = run.state?.summary;
      const file = toEvalsFile({
        skillName: run.skillMeta?.name || run.name,
        items: dataset.items,
        splits: dataset.splits,
        runName: run.name,
        tests: summary?.tests,
        lift: summary?.lift,
      });
      return { ok: true, file: new Blob([`${JSON.stringify(file, null, 2)}\n`], { type: 'application/json' }) };
    },
  };
}
