/**
 * Which section of the run's best skill earns its tokens (issue #43 item 4), when the run credited it
 * at its end: each section's effect on pass^1 with its interval and verdict, its tokens and cost per
 * task and the lift per added cent; the skill's own cost per task; what is worth dropping — which the
 * Skill screen puts to the gate. Read through core/report/section-credit-read.ts (an imported run's
 * summary may hold anything).
 */
import { readSectionCredit, signedPoints as points } from '../../core/report/section-credit-read';
import { creditUsd as usd, SectionEffect } from '../skill/SectionEffect';
import { Card } from '../common/Field';

export function SectionCreditCard({ credit }: { credit: unknown }) {
  const c = readSectionCredit(credit);
  if (!c) return null;
  if (!c.ok)
    return (
      <Card title="Section credit of the best skill">
        <p>
          Not made (a budget of {c.budget} calls): {c.reason}
        </p>
      </Card>
    );
  return (
    <Card title="Section credit of the best skill">
      <p>
        The skill costs <strong>{Math.round(c.skillTokens)} prompt tokens per task</strong> ({usd(c.skillCostUsd)}).
        With every section masked it scores {(c.base * 100).toFixed(1)} %
        {c.liftPerCent !== null && `; its sections add ${points(c.liftPerCent)} points per added cent`}.
      </p>
      <ul className="credit-list" aria-label="Section effects of the best skill">
        {c.rows.map((s) => (
          <li key={`${s.startLine}-${s.title}`}>
            <SectionEffect s={s} />
          </li>
        ))}
      </ul>
      {c.droppable.length > 0 && (
        <p>
          Worth dropping (harmful, or no evidence of help): {c.droppable.join(', ')}. Open the best skill on the Skill
          screen to put the drop to the gate — nothing is dropped silently.
        </p>
      )}
      <p className="muted small">
        {c.masks} masks (random halves of the sections kept, each with its complement) on {c.items} validation items:{' '}
        {c.calls} calls of a budget of {c.budget}
        {c.errors ? `, ${c.errors} errored rollouts not scored` : ''}
        {/* Without a target price the meter counts no cost: none is shown rather than $0. */}
        {c.skillCostUsd === null ? '' : `, $${c.costUsd.toFixed(4)}`}. Effects on pass^1 with{' '}
        {Math.round(c.level * 100)} % intervals over items; the text above the first section is always kept.
      </p>
    </Card>
  );
}
