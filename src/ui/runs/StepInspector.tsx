import { useEffect, useState } from 'react';
import { trainer } from '../../client/trainer-client';
import type { StepDetail } from '../../worker/api-types';
import type { Edit } from '../../core/skill/edits';
import type { RolloutRow } from '../../worker/api-types';
import { Card } from '../common/Field';
import { VirtualTable } from '../common/VirtualTable';
import { SkillDiff } from '../skill/LazyEditors';
import { CheckAndRepair, DroppedEdits } from './CreditPanel';
import { RewriteCard } from './RewriteCard';
import { AppendixCard } from './AppendixCard';
import { GateVerdict } from './GateVerdict';
import { RolloutsCard } from './RolloutsCard';
import { EditApplyReport } from './EditApplyReport';

function EditList({ edits, chosen }: { edits: Edit[]; chosen?: Set<number> }) {
  return (
    <ol className="edits">
      {edits.map((e, i) => (
        <li key={i} className={chosen && !chosen.has(i) ? 'dropped' : undefined}>
          <code>{String(e.op)}</code> {chosen?.has(i) && <span className="badge accept">chosen</span>}
          {e.target ? <div className="mono small">target: {String(e.target)}</div> : null}
          {e.content ? <div className="mono">{String(e.content)}</div> : null}
          <span className="muted small">
            {' '}
            support {e.support_count ?? 1} · {e.source_type ?? 'failure'}
          </span>
        </li>
      ))}
    </ol>
  );
}

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
  const chosen = new Set(
    ranked && merged ? ranked.edits.map((e) => merged.edits.indexOf(e)).filter((i) => i >= 0) : [],
  );
  if (ranked && merged && chosen.size === 0)
    ranked.edits.forEach((e) =>
      chosen.add(merged.edits.findIndex((m) => m.content === e.content && m.target === e.target && m.op === e.op)),
    );
  const analysts = detail.calls.filter((c) => c.stage.startsWith('reflect_'));
  return (
    <div className="inspector">
      <Card
        title={`Step ${s.step} — ${s.action.replace(/_/g, ' ')}`}
        actions={
          onBranch && (
            <span className="input-row">
              {(() => {
                // The skill the run had after this step: the candidate if it was let in, else the one before.
                const after = s.action.includes('accept') ? detail.candidateSkill : detail.currentSkillBefore;
                return (
                  after !== null && (
                    <button type="button" className="ghost" onClick={() => onBranch(after, `after step ${s.step}`)}>
                      New run from this step
                    </button>
                  )
                );
              })()}
              {!s.action.includes('accept') && detail.candidateSkill !== null && (
                <button
                  type="button"
                  className="ghost"
                  onClick={() => onBranch(detail.candidateSkill!, `step ${s.step} candidate (refused by the gate)`)}
                >
                  New run from the refused candidate
                </button>
              )}
            </span>
          )
        }
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
      {merged && (
        <Card title={`Merged patch and ranking (top ${ranked?.edits.length ?? 0} chosen)`}>
          <p className="muted small">{ranked?.reasoning ?? merged.reasoning}</p>
          <EditList edits={merged.edits} chosen={chosen} />
        </Card>
      )}
      {detail.artifacts.rewrite && <RewriteCard rewrite={detail.artifacts.rewrite} />}
      <CheckAndRepair
        check={detail.artifacts.check}
        repair={detail.artifacts.repair}
        tieBreak={gate?.tieBreak}
        skippedByCheck={gate?.skippedByCheck}
      />
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

/** Each validation item's change; with a settled verdict (noisy targets), its lists decide — not the first answers. */
function GateChanges({
  gate,
  before,
  settled,
}: {
  gate: RolloutRow[];
  before: RolloutRow[];
  settled?: { improved: string[]; regressed: string[] };
}) {
  const prev = new Map(before.map((r) => [r.itemId, r]));
  const rows = gate.map((g) => {
    const p = prev.get(g.itemId);
    const first = !p ? 'unknown' : g.hard > p.hard ? 'improved' : g.hard < p.hard ? 'regressed' : 'unchanged';
    const change =
      !settled || !p
        ? first
        : settled.improved.includes(g.itemId)
          ? 'improved'
          : settled.regressed.includes(g.itemId)
            ? 'regressed'
            : 'unchanged';
    return { g, p, change };
  });
  const n = (c: string) => rows.filter((r) => r.change === c).length;
  return (
    <>
      <p>
        <span className="badge pass">{n('improved')} improved</span>{' '}
        <span className="badge fail">{n('regressed')} regressed</span>{' '}
        <span className="badge">{n('unchanged')} unchanged</span>
        {n('unknown') ? <span className="badge"> {n('unknown')} not compared</span> : null}
      </p>
      <VirtualTable
        label="Validation items"
        rows={rows.filter((r) => r.change !== 'unchanged')}
        rowKey={(r) => r.g.itemId}
        columns={[
          { title: 'Item', width: '7rem', cell: (r) => <code>{r.g.itemId}</code> },
          {
            title: 'Change',
            width: '7rem',
            cell: (r) => (
              <span className={`badge ${r.change === 'improved' ? 'pass' : r.change === 'regressed' ? 'fail' : ''}`}>
                {r.change}
              </span>
            ),
          },
          { title: 'Before', cell: (r) => <span className="mono">{r.p?.predicted ?? '—'}</span> },
          { title: 'After', cell: (r) => <span className="mono">{r.g.predicted}</span> },
        ]}
      />
    </>
  );
}
