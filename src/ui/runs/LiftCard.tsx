import type { TestReport } from '../../worker/api-types';
import { Card } from '../common/Field';

const LABELS: Record<TestReport['skill'], string> = { none: 'No skill', initial: 'Starting skill', best: 'Best skill (exported)', final: 'Final skill' };

const points = (d: number) => `${d >= 0 ? '+' : '−'}${Math.abs(d * 100).toFixed(1)} points`;

/**
 * The lift on held-out test items: what the model does with no skill, with the starting skill
 * and with the trained one — the answer to "was the training worth it?".
 */
export function LiftCard({ tests }: { tests: readonly TestReport[] }) {
  const of = (s: TestReport['skill']) => tests.find((t) => t.skill === s);
  const rows = (['none', 'initial', 'best'] as const).map(of).filter((t): t is TestReport => Boolean(t));
  const none = of('none');
  const initial = of('initial');
  const best = of('best');
  if (!best || rows.length < 2) return null;
  return (
    <Card title="Lift on the test split">
      <ul className="lift" aria-label="Test accuracy by skill">
        {rows.map((t) => (
          <li key={t.skill} className={t.skill === 'best' ? 'best' : undefined}>
            <span className="lift-label">{LABELS[t.skill]}</span>
            <span className="lift-bar" aria-hidden="true">
              <span style={{ width: `${Math.max(0.5, t.hard * 100)}%` }} />
            </span>
            <span className="lift-value">{(t.hard * 100).toFixed(1)}%</span>
          </li>
        ))}
      </ul>
      <p>
        {initial && (
          <>
            Training: <strong>{points(best.hard - initial.hard)}</strong> over the starting skill
          </>
        )}
        {none && (
          <>
            {initial ? '; ' : ''}the skill as a whole: <strong>{points(best.hard - none.hard)}</strong> over no skill
          </>
        )}
        {` — on ${best.n} held-out test items.`}
      </p>
    </Card>
  );
}
