/**
 * The HTML report of a run in the runner's file store: the same report the page exports
 * (core/run-report.ts), gathered from the store's records instead of IndexedDB. The blame of the
 * best skill names the version each run of lines came from.
 */
import { compareOutcomes } from '../core/credit';
import { blameLines } from '../core/edit-blame';
import { skillHash } from '../core/hash';
import { renderRunReport, type ReportData, type ReportGate } from '../core/run-report';
import { reportData, reportGate } from '../storage/report-data';
import { originLabel } from '../core/version-origin';
import type { StepArtifacts } from '../engine/artifacts';
import { stepKey } from '../engine/keys';
import { lineageOf } from '../storage/skill-blame';
import type { FileRunStore } from './file-store';

export async function reportHtml(store: FileRunStore): Promise<string> {
  const run = store.run!;
  const state = await store.loadState();
  const [steps, versions, rollouts] = await Promise.all([
    store.getSteps(),
    store.getSkillVersions(),
    store.listRollouts(),
  ]);
  const okRowsOf = new Map<string, Map<string, (typeof rollouts)[number]>>();
  for (const r of rollouts) {
    if (r.status !== 'ok') continue;
    const m = okRowsOf.get(r.skillHash) ?? new Map();
    if (!m.has(r.itemId)) m.set(r.itemId, r);
    okRowsOf.set(r.skillHash, m);
  }
  const artifact = async <N extends keyof StepArtifacts>(step: number, name: N) =>
    (await store.getArtifact(run.id, `${stepKey(step)}/${name}`))?.value as StepArtifacts[N] | undefined;
  const gates: ReportGate[] = [];
  for (const s of steps.filter((x) => x.candidateHash)) {
    const gateRows = (await store.getRollouts(run.id, `${stepKey(s.step)}/gate`)).filter((r) => r.status === 'ok');
    // The skill the step started from: the latest version made before it.
    const made = versions.filter((v) => v.step < s.step);
    const before = made.length ? made[made.length - 1].text : run.initialSkill;
    const beforeRows = okRowsOf.get(await skillHash(before)) ?? new Map();
    const delta = compareOutcomes(
      gateRows.flatMap((g) => beforeRows.get(g.itemId) ?? []),
      gateRows,
    );
    const previous = steps.find((x) => x.step === s.step - 1);
    const a = {
      gate: await artifact(s.step, 'gate'),
      candidate_edits: await artifact(s.step, 'candidate_edits'),
      ranked: await artifact(s.step, 'ranked'),
    };
    gates.push(reportGate(s, a, delta, { previous, baseline: state?.baselineScore }));
  }
  const bestSkill = state?.gate.bestSkill ?? run.initialSkill;
  const keys = blameLines(lineageOf(bestSkill, run.initialSkill, versions));
  const blame: NonNullable<ReportData['blame']> = [];
  keys.forEach((key, i) => {
    const last = blame[blame.length - 1];
    if (last && last.source === key && last.end === i) last.end = i + 1;
    else blame.push({ start: i + 1, end: i + 1, source: key, detail: '' });
  });
  return renderRunReport(
    reportData({
      run,
      state,
      steps,
      gates,
      datasetName: store.dataset?.name ?? run.datasetId,
      blame: blame.map((b) => ({ ...b, source: originLabel(b.source) })),
    }),
  );
}
