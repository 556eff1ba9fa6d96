/**
 * Transfer (issue #42 item 5): after the run's own test, the starting and the best skill are
 * scored on the test split again under each target that confirms them (trained in the cheap tool
 * loop, confirmed in a real CLI; trained on one model, confirmed on another) — each under phases
 * of its own (`confirm/<n>/best`), its calls counted and capped with the run's — and the lifts
 * are read side by side for a ranking flip (core/verdict/transfer.ts).
 */
import { contextUnder, type EngineContext } from '../context';
import type { TransferSetup } from '../session';
import type { RunState, RunSummary, TestReport, TransferReport, TransferTarget } from '../types';
import { shownLift } from '../../core/verdict/lift';
import { transferVerdict } from '../../core/verdict/transfer';
import { scoreOnTest, type TestRole } from './test-split';

/** The training target's entry, from the run's own test. */
export function trainedEntry(
  label: string,
  tests: readonly TestReport[],
  lift: RunSummary['lift'],
): TransferTarget | null {
  if (!lift) return null;
  return { label, trained: true, tests: tests.filter((t) => t.skill === 'initial' || t.skill === 'best'), lift };
}

/** Score the starting and best skills on `testIds` under each confirming target; null when there is none to read. */
export async function confirmTransfer(
  ctx: EngineContext,
  state: RunState,
  setup: TransferSetup,
  own: { tests: readonly TestReport[]; lift: RunSummary['lift'] },
  testIds: readonly string[],
): Promise<TransferReport | null> {
  const trained = trainedEntry(setup.trained, own.tests, own.lift);
  if (!trained || !setup.confirm.length) return null;
  const targets: TransferTarget[] = [trained];
  // One target after another: each has the whole of its own concurrency, and the run's meter counts them all.
  for (const [i, c] of setup.confirm.entries()) {
    const other = await contextUnder(ctx, c.llm, c.target);
    targets.push(await confirmOn(other, state, c.label, `confirm/${i + 1}`, testIds));
  }
  return transferReportOf(ctx, targets);
}

/** The starting and best skills scored on test under the context's target, which confirms them. */
export async function confirmOn(
  ctx: EngineContext,
  state: RunState,
  label: string,
  prefix: string,
  testIds: readonly string[],
): Promise<TransferTarget> {
  const roles: TestRole[] = [
    ['best', state.gate.bestSkill],
    ['initial', state.initialSkill],
  ];
  const scored = await scoreOnTest(ctx, state, roles, testIds, { prefix, noise: 'own' });
  const lift = scored.lifts.lift!;
  ctx.emit({
    type: 'log',
    level: 'info',
    message: `Confirmed on ${label}: the best skill's test lift over the starting skill is ${(shownLift(lift) * 100).toFixed(1)} points.`,
  });
  return { label, trained: false, tests: scored.tests, lift };
}

/** The targets' lifts read side by side for a ranking flip, said in the log when there is one. */
export function transferReportOf(ctx: Pick<EngineContext, 'emit'>, targets: TransferTarget[]): TransferReport {
  const verdict = transferVerdict(
    targets.map((t) => ({
      label: t.label,
      trained: t.trained,
      shown: shownLift(t.lift),
      interval: t.lift.interval,
      level: t.lift.level,
    })),
  );
  if (verdict.words) ctx.emit({ type: 'log', level: 'warn', message: verdict.words });
  return { targets, verdict };
}
