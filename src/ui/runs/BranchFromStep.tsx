/**
 * Start a new run from a skill of this step: the skill it ended with, or — steering — the
 * candidate the gate refused, to try it further.
 */
import type { StepDetail } from '../../worker/api-types';

export function BranchFromStep({
  detail,
  onBranch,
}: {
  detail: StepDetail;
  onBranch: (skill: string, label: string) => void;
}) {
  const s = detail.step;
  const accepted = s.action.includes('accept');
  // The skill the run had after this step: the candidate if it was let in, else the one before.
  const after = accepted ? detail.candidateSkill : detail.currentSkillBefore;
  return (
    <span className="input-row">
      {after !== null && (
        <button type="button" className="ghost" onClick={() => onBranch(after, `after step ${s.step}`)}>
          New run from this step
        </button>
      )}
      {!accepted && detail.candidateSkill !== null && (
        <button
          type="button"
          className="ghost"
          onClick={() => onBranch(detail.candidateSkill!, `step ${s.step} candidate (refused by the gate)`)}
        >
          New run from the refused candidate
        </button>
      )}
    </span>
  );
}
