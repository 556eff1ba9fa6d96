// One section's credit as a list item shows it, on the Skill screen and on a run's card: its
// verdict's key, heading and lines, effect with its interval, tokens and cost per task.
import type { CreditRow } from '../../core/report/section-credit-read';
import { effectText, points, VERDICT_TEXT } from './credit-marks';

/** A cost per task, or why there is none. */
export const creditUsd = (v: number | null) => (v === null ? 'no price set' : `$${v.toFixed(6)}`);

export function SectionEffect({ s }: { s: CreditRow }) {
  return (
    <>
      <span className={`blame-key credit-key-${s.verdict}`} aria-hidden="true" />
      <strong>{s.title}</strong>{' '}
      <span className="muted">
        lines {s.startLine}–{s.endLine}
      </span>
      <div>
        {effectText(s)} — {VERDICT_TEXT[s.verdict]}
      </div>
      <div className="small muted">
        {Math.round(s.tokens)} tokens per task, {creditUsd(s.costUsd)}
        {s.liftPerCent !== null && `; ${points(s.liftPerCent)} points per added cent`}
      </div>
    </>
  );
}
