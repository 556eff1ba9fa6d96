import { useEffect, useState } from 'react';
import { trainer } from '../../client/trainer-client';
import type { StepDetail } from '../../worker/api-types';
import { Card } from '../common/Field';
import { SkillDiff } from '../skill/LazyEditors';
import { CheckAndRepair, DroppedEdits } from './CreditPanel';
import { RidersCard } from './RidersCard';
import { RewriteCard } from './RewriteCard';
import { AppendixCard } from './AppendixCard';
import { GateVerdict } from './GateVerdict';
import { RolloutsCard } from './RolloutsCard';
import { EditApplyReport } from './EditApplyReport';
import { BranchFromStep } from './BranchFromStep';
import { GateChanges } from './GateChanges';
import { MergedEdits } from './MergedEdits';

/**
 * One step in full. `onBranch` starts a new run from a skill of this step: the skill it ended
 * with, or — steering — the candidate the gate refused, to try it further.
 */
export function StepInspector({
  runId,
  step,
  onBranch,
}: {
  runId: string;
  step: number;
  onBranch?: (skill: string, label: string) => void;
}) {
  const [detail, setDetail] = useState<StepDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void trainer()
      .getStepDetail(runId, step)
      .then((r) => (r.ok ? setDetail(r.detail) : setError(r.error.message)));
  }, [runId, step]);
  if (error) return <p className="muted">{error}</p>;
  if (!detail) return <p className="muted">Loading step {step}…</p>;
  const s = detail.step;
  const { merged, ranked, apply_report: report, gate } = detail.artifacts;
  const analysts = detail.calls.filter((c) => c.stage.startsWith('reflect_'));
  return (
    <div className="inspector">
      <Card
        title={`Step ${s.step} — ${s.action.replace(/_/g, ' ')}`}
        actions={onBranch && <BranchFromStep detail={detail} onBranch={onBranch} />}
      >
        <p>
          Train batch: {(s.rolloutHard * 100).toFixed(1)}% on {s.rolloutN} items
          {s.rolloutErrors ? `, ${s.rolloutErrors} errored (not scored)` : ''}. {s.nFailurePatches} failure and{' '}
          {s.nSuccessPatches} success patches → {s.nEditsMerged} merged edits → {s.nEditsRanked} applied (budget{' '}
          {s.editBudget ?? '—'}).
        </p>
        {gate && <GateVerdict gate={gate} />}
      </Card>
      <RolloutsCard rollouts={detail.rollouts} />
      <Card title="Analysts">
        {analysts.length === 0 && <p className="muted">No analyst calls.</p>}
        {analysts.map((c) => (
          <details key={c.key}>
            <summary>
              {c.key.split('/').slice(1).join(' / ')} {c.ok ? '' : '— no usable JSON'}
            </summary>
            <pre className="mono small scroll">{c.raw}</pre>
          </details>
        ))}
      </Card>
      <DroppedEdits screened={detail.artifacts.screened} />
      {merged && <MergedEdits merged={merged} ranked={ranked} />}
      {detail.artifacts.rewrite && <RewriteCard rewrite={detail.artifacts.rewrite} />}
      <CheckAndRepair
        check={detail.artifacts.check}
        repair={detail.artifacts.repair}
        escape={detail.artifacts.escape}
        ahead={detail.artifacts.ahead}
        tieBreak={gate?.tieBreak}
        skippedByCheck={gate?.skippedByCheck}
      />
      {detail.artifacts.riders && <RidersCard riders={detail.artifacts.riders} />}
      {report && report.length > 0 && <EditApplyReport report={report} />}
      {detail.candidateSkill && detail.currentSkillBefore !== null && (
        <Card title="Candidate vs current skill">
          <SkillDiff original={detail.currentSkillBefore} modified={detail.candidateSkill} height={360} />
        </Card>
      )}
      {detail.artifacts.appendix && <AppendixCard flush={detail.artifacts.appendix} />}
      {detail.gateRollouts.length > 0 && (
        <Card title="Gate: per-item changes on validation">
          <GateChanges
            gate={detail.gateRollouts}
            before={detail.currentRollouts}
            settled={gate?.verdict ?? undefined}
          />
        </Card>
      )}
    </div>
  );
}
