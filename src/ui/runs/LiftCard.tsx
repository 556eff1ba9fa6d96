import { liftIsNoisy, shownLift } from '../../core/verdict/lift';
import { testGain } from '../../core/report/test-lift';
import type { LiftReport, TestReport } from '../../worker/api-types';
import { Card } from '../common/Field';
import { PassK, PassKLine } from './PassKLine';
import { transferLifts } from '../../core/report/transfer-lifts';

const LABELS: Record<TestReport['skill'], string> = {
  none: 'No skill',
  initial: 'Starting skill',
  best: 'Best skill (exported)',
  final: 'Final skill',
};

const points = (d: number) => `${d >= 0 ? '+' : '−'}${Math.abs(d * 100).toFixed(1)} points`;
const range = (l: LiftReport) => `${points(l.interval[0])} to ${points(l.interval[1])}`;

/** One lift in words: the figure, its interval, and whether it can be told from noise. */
function LiftLine({ lift, over }: { lift: LiftReport; over: string }) {
  const noisy = liftIsNoisy(lift.noise);
  return (
    <li>
      Over {over}: <strong>{points(shownLift(lift))}</strong>, {Math.round(lift.level * 100)}% interval {range(lift)}
      {lift.uncertain ? (
        <span className="badge fail">cannot be told from noise</span>
      ) : (
        <span className="badge pass">{lift.interval[0] > 0 ? 'a real gain' : 'a real loss'}</span>
      )}
      {noisy && <span className="muted small"> (measured {points(lift.measured)} with the target's noise in it)</span>}
    </li>
  );
}

const SIDES = { above: 'a real gain', below: 'a real loss', unsure: 'cannot be told from noise' } as const;
const BADGES = { above: 'badge pass', below: 'badge fail', unsure: 'badge' } as const;

/**
 * The lift under each target that confirmed the run's skills (issue #42 item 5; a runner's run,
 * imported): a ranking flip said first. Read from the stored run as a file may hold it: an
 * entry not made of numbers is left out.
 */
function TransferLines({ transfer }: { transfer: unknown }) {
  const t = transferLifts(transfer);
  if (!t) return null;
  return (
    <>
      {t.verdict.words && (
        <p className={t.verdict.flipped ? 'warn' : 'muted'} role="note" aria-label="Transfer">
          <strong>{t.verdict.words}</strong>
        </p>
      )}
      <ul className="lift-lines" aria-label="Lift under each target">
        {t.rows.map((r) => (
          <li key={r.label}>
            Under {r.label}
            {r.trained ? ' (trained on)' : ''}: <strong>{points(r.lift)}</strong>, {Math.round(r.level * 100)}% interval{' '}
            {points(r.interval[0])} to {points(r.interval[1])}
            <span className={BADGES[r.side]}>{SIDES[r.side]}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * The lift on held-out test items: what the model does with no skill, with the starting skill
 * and with the trained one — the answer to "was the training worth it?" — and how sure that is
 * (issue #19): an interval over which test items were drawn and how the target's answers vary,
 * with the target's misses and guesses taken out of the figure.
 */
export function LiftCard({
  tests,
  lift,
  liftOverNone,
  transfer,
}: {
  tests: readonly TestReport[];
  lift?: LiftReport;
  liftOverNone?: LiftReport;
  /** The summary's transfer, as stored (a file's may hold anything). */
  transfer?: unknown;
}) {
  const of = (s: TestReport['skill']) => tests.find((t) => t.skill === s);
  const rows = (['none', 'initial', 'best'] as const).map(of).filter((t): t is TestReport => Boolean(t));
  const none = of('none');
  const initial = of('initial');
  const best = of('best');
  if (!best || rows.length < 2) return null;
  const noise = lift?.noise ?? liftOverNone?.noise;
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
      {lift || liftOverNone ? (
        <ul className="lift-lines" aria-label="Lift with its interval">
          {lift && <LiftLine lift={lift} over="the starting skill (training)" />}
          {liftOverNone && <LiftLine lift={liftOverNone} over="no skill (the skill as a whole)" />}
        </ul>
      ) : (
        <p>
          {initial && (
            <>
              Training: <strong>{points(testGain(tests, 'best', 'initial')!)}</strong> over the starting skill
            </>
          )}
          {none && (
            <>
              {initial ? '; ' : ''}the skill as a whole: <strong>{points(testGain(tests, 'best', 'none')!)}</strong>{' '}
              over no skill
            </>
          )}
          {` — on ${best.n} held-out test items.`}
        </p>
      )}
      <TransferLines transfer={transfer} />
      {best.passK && (
        <>
          <ul className="lift-lines" aria-label="Every time: pass^k beside pass^1">
            <PassKLine test={best} label="Best skill" />
            {initial && <PassKLine test={initial} label="Starting skill" />}
          </ul>
          <p className="muted small">
            Every time, not on average: each test item was tried {best.passK.k} times with each skill, and{' '}
            <PassK k={best.passK.k} /> is the chance that all {best.passK.k} tries pass (estimated from them without
            bias), beside <PassK k={1} /> over the same tries. Errored tries are not counted.
          </p>
        </>
      )}
      {noise && (
        <p className="muted small">
          On {best.n} held-out test items. The interval covers which items were drawn and how the target's answers vary
          {liftIsNoisy(noise)
            ? ` — this target missed about ${(noise.miss * 100).toFixed(0)}% of answers it knew and guessed about ${(noise.guess * 100).toFixed(0)}% of the others (fitted on ${noise.repeatedSamples} repeated answers), which the lift above is corrected for.`
            : ' — the target gave the same answer whenever it was asked again.'}
          {lift && lift.repeats > 1 ? ` ${lift.repeats} samples per test item.` : ''}
        </p>
      )}
    </Card>
  );
}
