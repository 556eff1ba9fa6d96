/**
 * What the step did with its edits before and around the gate (issue #8): edits dropped before
 * ranking with their reasons, the train-batch check, the bundle repair, a look one step ahead (from
 * a plateau, or the escape aimed at what a repair left broken: issue #40) and the validation
 * tie-break. Reads the step's artifacts; a run with these mechanisms off shows none of it.
 */
import { DROP_REASON_TEXT } from '../../core/skill/edit-screen';
import type {
  CheckArtifact,
  LookAheadArtifact,
  RepairArtifact,
  ScreenedArtifact,
  TieBreakRecord,
} from '../../worker/api-types';
import type { Edit } from '../../core/skill/edits';
import { Card } from '../common/Field';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Which checked bundle went on to the gate. */
const CHOSEN: Record<NonNullable<RepairArtifact['chosen']>, string> = {
  proposed: 'the proposed bundle',
  repaired: 'the repaired bundle',
  pruned: 'the pruned bundle',
};

const afterText = (d: { fixed: string[]; regressed: string[] }) =>
  `${d.fixed.length} fixed, ${d.regressed.length} broken on the train items`;
const text = (e: { op: string; target?: string; content?: string }) => String(e.content || e.target || '(empty)');

function EditLine({ e }: { e: Edit }) {
  return (
    <li>
      <code>{String(e.op)}</code> <span className="mono small">{text({ ...e, op: String(e.op) })}</span>
    </li>
  );
}

/** Edits dropped before ranking, with the reason for each. */
export function DroppedEdits({ screened }: { screened?: ScreenedArtifact }) {
  if (!screened) return null;
  return (
    <Card title={`Dropped before ranking (${screened.dropped.length} of ${screened.pool})`}>
      <p className="muted small">
        Edits that could never help are removed before they take a slot of the step's budget.
        {screened.carried
          ? ` ${screened.carried} edit${screened.carried === 1 ? ' was' : 's were'} carried from the previous step's rejected candidate.`
          : ''}
      </p>
      {screened.dropped.length === 0 ? (
        <p className="muted">Nothing dropped: every edit could apply.</p>
      ) : (
        <table className="table" aria-label="Edits dropped before ranking">
          <thead>
            <tr>
              <th>#</th>
              <th>Op</th>
              <th>Reason</th>
              <th>Edit</th>
            </tr>
          </thead>
          <tbody>
            {screened.dropped.map((d) => (
              <tr key={d.index}>
                <td>{d.index}</td>
                <td>
                  <code>{d.op}</code>
                </td>
                <td>
                  <span className="badge fail">{DROP_REASON_TEXT[d.reason] ?? d.reason}</span>
                </td>
                <td className="small mono">
                  {d.reason === 'target_absent' || d.reason === 'target_protected'
                    ? `target: ${d.target || '(empty)'}`
                    : text(d)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

/**
 * A look one step ahead (issues #32, #40): from a plateau, the analysts read what the candidate still
 * fails; as an escape, what its repair left broken. What they added, and whether it went on.
 */
function LookAhead(a: { look: LookAheadArtifact; from: 'plateau' | 'regressed'; repaired: boolean }) {
  const { look, from } = a;
  const read = `${look.failing.length} train item${look.failing.length === 1 ? '' : 's'}`;
  return (
    <Card title={from === 'plateau' ? 'Looked one step ahead' : 'Escape: a repair aimed at what the bundle broke'}>
      <p>
        {from === 'plateau'
          ? `The candidate fixed and broke no train item, yet answered failures differently: the failure analysts read the ${read} it still fails, as the next step would.`
          : `${a.repaired ? `The repair left ${read} broken` : `The bundle broke ${read}`}: instead of rejecting, the failure analysts read those items with the candidate, as the next step would.`}{' '}
        {look.added.length
          ? `${look.added.length} edit${look.added.length === 1 ? '' : 's'} joined the bundle`
          : 'Nothing was added'}
        {look.after ? <> → {afterText(look.after)}</> : ''}
        {from === 'plateau' && look.after && !look.after.fixed.length && (look.expectedGain ?? 0) > 0
          ? ` (none sure on its own, about ${look.expectedGain!.toFixed(1)} gained in expectation)`
          : ''}{' '}
        → <strong>{look.taken ? 'the extended bundle went on' : 'not taken: the bundle stayed as it was'}</strong>.
      </p>
      {look.added.length > 0 && (
        <ul className="edits">
          {look.added.map((e, i) => (
            <EditLine key={i} e={e} />
          ))}
        </ul>
      )}
    </Card>
  );
}

/** The train-batch check, the bundle repair, a look ahead and the tie-break, after ranking. */
export function CheckAndRepair(a: {
  check?: CheckArtifact;
  repair?: RepairArtifact;
  escape?: LookAheadArtifact;
  ahead?: LookAheadArtifact;
  tieBreak?: TieBreakRecord | null;
  skippedByCheck?: boolean;
}) {
  const { check, repair, tieBreak } = a;
  if (!check && !repair && !tieBreak && !a.ahead && !a.escape) return null;
  return (
    <>
      {check && (
        <Card title="Train-batch check">
          <p>
            Candidate on this step's train items: {pct(check.after.hard)} vs current {pct(check.before.hard)} on the{' '}
            {check.n} items scored
            {check.complete ? '' : ' (stopped once the verdict was certain)'} —{' '}
            <span className="badge pass">{check.fixed.length} fixed</span>{' '}
            <span className="badge fail">{check.regressed.length} broken</span> →{' '}
            <strong>{check.improved ? 'better: on to the validation gate' : 'not better'}</strong>
            {a.skippedByCheck ? ', rejected without spending validation calls.' : '.'}
          </p>
          {check.verdict?.posterior && check.verdict.resampled > 0 && (
            <p className="muted small">
              {check.verdict.resampled} item{check.verdict.resampled === 1 ? '' : 's'} weighed on more than one answer,
              the target’s noise taken out; {check.resampleCalls ?? 0} calls asked again where a change was plausible,
              until the check was decided.
            </p>
          )}
          {check.verdict && !check.verdict.posterior && check.verdict.resampled > 0 && (
            <p className="muted small">
              {check.verdict.resampled} item{check.verdict.resampled === 1 ? '' : 's'} asked again (both skills) until
              one answer led by {check.verdict.margin} votes
              {check.verdict.unsettled ? `, ${check.verdict.unsettled} still split` : ''} — {check.resampleCalls ?? 0}{' '}
              calls; sign test p = {check.verdict.pValue.toFixed(3)}.
            </p>
          )}
        </Card>
      )}
      {repair && (
        <Card
          title={
            repair.repaired
              ? `Bundle repaired${repair.chosen ? ` (${CHOSEN[repair.chosen]} went on)` : ''}`
              : 'Bundle repair: no change'
          }
        >
          <p>
            The candidate broke {repair.regressed.length} train item{repair.regressed.length === 1 ? '' : 's'} the
            current skill passed (<span className="mono small">{repair.regressed.join(', ')}</span>); the optimizer was
            asked which edits to blame.
          </p>
          {repair.reasoning && <p className="muted small">{repair.reasoning}</p>}
          {repair.steps && repair.steps.length > 0 ? (
            <ol className="repair-steps" aria-label="Repair rounds and blame">
              {repair.steps.map((st, i) => (
                <li key={i}>
                  {st.kind === 'repair' ? (
                    <>
                      <strong>Repair round {st.round}</strong>:{' '}
                      {st.changed ? `dropped ${st.dropped.length}, added ${st.added.length}` : 'no change'}
                      {st.after && <> → {afterText(st.after)}</>}
                      {st.added.length > 0 && (
                        <ul className="edits">
                          {st.added.map((e, j) => (
                            <EditLine key={j} e={e} />
                          ))}
                        </ul>
                      )}
                    </>
                  ) : (
                    <>
                      <strong>Leave-one-out blame</strong>: each of the {st.probes.length} edits left out in turn on a
                      few broken and fixed items —{' '}
                      {st.dropped.length ? `${st.dropped.length} to blame, dropped` : 'no single edit to blame'}
                      {st.after && <> → {afterText(st.after)}</>}
                      {st.dropped.length > 0 && (
                        <ul className="edits">
                          {st.dropped.map((e, j) => (
                            <EditLine key={j} e={e} />
                          ))}
                        </ul>
                      )}
                    </>
                  )}
                </li>
              ))}
            </ol>
          ) : (
            <>
              {repair.dropped.length > 0 && (
                <>
                  <h4>Removed from the bundle</h4>
                  <ul className="edits">
                    {repair.dropped.map((e, i) => (
                      <EditLine key={i} e={e} />
                    ))}
                  </ul>
                </>
              )}
              {repair.added.length > 0 && (
                <>
                  <h4>Added to keep what a removed rule carried</h4>
                  <ul className="edits">
                    {repair.added.map((e, i) => (
                      <EditLine key={i} e={e} />
                    ))}
                  </ul>
                </>
              )}
            </>
          )}
        </Card>
      )}
      {a.escape && <LookAhead look={a.escape} from="regressed" repaired={!!repair} />}
      {a.ahead && <LookAhead look={a.ahead} from="plateau" repaired={!!repair} />}
      {tieBreak && (
        <Card title="Validation tie-break">
          <p>
            The candidate tied the current skill on validation. It was strictly better on the train batch, and{' '}
            {tieBreak.regressed.length === 0
              ? 'no validation item it passed before fails now'
              : `${tieBreak.regressed.length} validation item(s) regressed (${tieBreak.regressed.join(', ')})`}{' '}
            → <strong>{tieBreak.accepted ? 'accepted as the new current skill' : 'rejected'}</strong>.
          </p>
        </Card>
      )}
    </>
  );
}
