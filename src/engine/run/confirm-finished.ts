/**
 * Transfer after the fact (issue #42 item 5, the page's side): a finished run's starting and
 * best skills scored on test under one more target, added to the run's transfer report beside
 * the targets that confirmed before. Rows go to the run's own store under phases of their own
 * (`confirm/<n>/…`) and the rollout cache keys them by target: an interrupted confirm asked
 * again finds every answer it had and pays only for the rest.
 */
import type { RunConfig } from '../../core/config/run-config';
import type { PackageFile } from '../../core/skill/skill-package';
import type { Prices } from '../meter';
import type { RunDataset, RunState, StageUsage, TransferReport, TransferTarget } from '../types';
import { sessionContext, stoppedBy, type SessionDeps } from './evaluate';
import { confirmOn, trainedEntry, transferReportOf } from './transfer';

export interface ConfirmFinishedInput {
  runId: string;
  config: RunConfig;
  data: RunDataset;
  /** The finished run's state: its skills, its test and lift, its transfer so far. */
  state: RunState;
  /** The training target's name, and the name of the one that confirms now. */
  trained: string;
  label: string;
  prices?: Prices;
  packageFiles?: readonly PackageFile[];
}

export type ConfirmFinishedOutcome =
  | { ok: true; transfer: TransferReport; usage: Record<string, StageUsage>; calls: number; costUsd: number }
  | { ok: false; reason: string; kind: string };

/** The test items the run's own test scored. */
export const testIdsOf = (config: RunConfig, data: RunDataset): string[] =>
  config.testLimit > 0 ? data.splits.test.slice(0, config.testLimit) : data.splits.test;

/** Where this target goes among the confirming ones: its old place when it confirmed before, else last. */
function placeOf(before: readonly TransferTarget[], label: string): number {
  const others = before.filter((t) => !t.trained);
  const at = others.findIndex((t) => t.label === label);
  return at >= 0 ? at : others.length;
}

export async function confirmFinished(input: ConfirmFinishedInput, deps: SessionDeps): Promise<ConfirmFinishedOutcome> {
  const summary = input.state.summary;
  const trained = summary && trainedEntry(input.trained, summary.tests, summary.lift);
  if (!summary || !trained)
    return {
      ok: false,
      kind: 'not_finished',
      reason: 'This run has no lift on test to confirm: it has not finished its test.',
    };
  const before = summary.transfer?.targets ?? [trained];
  const place = placeOf(before, input.label);
  // Its own meter: the run's spending is closed; the confirm's calls are counted and shown apart.
  const ctx = await sessionContext(input.runId, { ...input, skill: input.state.gate.bestSkill }, deps);
  try {
    const ids = testIdsOf(input.config, input.data);
    const confirmed = await confirmOn(ctx, input.state, input.label, `confirm/${place + 1}`, ids);
    const others = before.filter((t) => !t.trained);
    others[place] = confirmed;
    const targets = [before.find((t) => t.trained) ?? trained, ...others];
    const calls = Object.values(ctx.meter.byStage).reduce((n, s) => n + s.calls, 0);
    return {
      ok: true,
      transfer: transferReportOf(ctx, targets),
      usage: ctx.meter.byStage,
      calls,
      costUsd: ctx.meter.totalCostUsd,
    };
  } catch (e) {
    return stoppedBy(e);
  }
}
