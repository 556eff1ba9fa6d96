/**
 * The train-batch check and bundle repair (issue #8): before the validation gate, the candidate
 * is scored on the step's own train items (as GEPA checks a minibatch), compared item by item
 * with the current skill's rollouts, and when it broke items the current skill passed, the
 * optimizer reads those items and repairs the bundle — drops the edits to blame, adds what a
 * removed rule was carrying. The check's rows and the repair call are checkpoints like any
 * rollout or optimizer call, so a resumed step replays them.
 */
import { compareOutcomes, improvedOn, isPass, type ItemDelta } from '../core/credit';
import { screenEdits } from '../core/edit-screen';
import type { Edit } from '../core/edits';
import { validatePayload } from '../core/json-extract';
import type { EngineContext } from './context';
import { callOptimizer, checkErrorRate } from './optimizer-call';
import { meanScores, okRows, rolloutPhase } from './rollout';
import { describeEdit, pickIndices } from './select';
import type { RolloutRow } from './types';
import type { CheckArtifact, DeltaSummary } from './step-artifacts';

export interface TrainCheck {
  delta: ItemDelta;
  rows: RolloutRow[];
  calls: number;
  /** Every item was scored; false when the check stopped because its verdict was certain. */
  complete: boolean;
  /** The candidate is better on the batch (hard, or equal hard and better soft). */
  improved: boolean;
  /** The candidate is strictly better in hard score on the batch. */
  strict: boolean;
}

/** Items per wave of the check: fixed, so where it stops (and what the repair sees) never depends on concurrency. */
export const CHECK_WAVE = 4;
const EPS = 1e-12;


/**
 * Score `candidate` on the items the current skill was rolled out on in this step: the items it
 * failed first (where a gain shows), then the ones it passed (where a regression shows). The
 * check stops as soon as its verdict is certain: the candidate cannot improve even if every
 * remaining item passes, or it is strictly better in hard score even if every remaining item
 * fails. So a candidate that fixes nothing costs about as many calls as the current skill has
 * failures, one that fixes much early on costs a wave or two, and a batch the current skill
 * already aces costs none. Regressions are seen on the items scored.
 */
export async function checkOnTrain(ctx: EngineContext, phase: string, currentRows: readonly RolloutRow[], candidate: string): Promise<TrainCheck> {
  const before = okRows(currentRows);
  const ordered = [...before.filter((r) => !isPass(r.hard)), ...before.filter((r) => isPass(r.hard))];
  const { hard: bHard, soft: bSoft } = meanScores(before);
  const canImprove = (h: number, s: number) => h > bHard + EPS || (h >= bHard - EPS && s > bSoft + EPS);
  const undecided = (uh: number, us: number, lh: number) => canImprove(uh, us) && !(lh > bHard + EPS);
  const r = await rolloutPhase(ctx, { phase, skill: candidate, itemIds: ordered.map((x) => x.itemId), canStillWin: undecided, wave: CHECK_WAVE });
  const after = okRows(r.rows);
  const delta = compareOutcomes(before, after);
  if (r.complete) return { delta, rows: r.rows, calls: r.calls, complete: true, improved: improvedOn(delta), strict: delta.after.hard > delta.before.hard + EPS };
  // Stopped early: the unscored items decide nothing — the verdict held for any outcome of theirs.
  const lower = after.reduce((a, x) => a + x.hard, 0) / Math.max(1, before.length);
  const sure = lower > bHard + EPS;
  return { delta, rows: r.rows, calls: r.calls, complete: false, improved: sure, strict: sure };
}

export interface RepairOutcome {
  /** The repaired bundle: kept edits, then the added ones. */
  edits: Edit[];
  dropped: Edit[];
  added: Edit[];
  reasoning: string;
  /** The bundle changed. */
  repaired: boolean;
}

export interface RepairInput {
  key: string;
  current: string;
  candidate: string;
  edits: readonly Edit[];
  check: TrainCheck;
  currentRows: readonly RolloutRow[];
  /** Most edits the repairer may add (the step's budget). */
  maxAdded: number;
  metaText: string;
}

function describeItem(ctx: EngineContext, id: string, before: RolloutRow | undefined, after: RolloutRow | undefined): string {
  const item = ctx.items.get(id);
  const expected = item?.correctChoice ?? item?.answers.join(' | ') ?? '';
  return [
    `### Task ${id}`,
    `Question: ${item?.question ?? ''}`,
    `Expected answer: ${expected}`,
    `Answer with the current skill: ${before?.predicted || 'N/A'}`,
    `Answer with the candidate: ${after?.predicted || 'N/A'}`,
  ].join('\n');
}

/** Ask the optimizer which edits broke the regressed items, and how to keep the gains. */
export async function repairBundle(ctx: EngineContext, a: RepairInput): Promise<RepairOutcome> {
  const before = new Map(a.currentRows.map((r) => [r.itemId, r]));
  const after = new Map(a.check.rows.map((r) => [r.itemId, r]));
  const render = (ids: readonly string[]) => ids.map((id) => describeItem(ctx, id, before.get(id), after.get(id))).join('\n\n');
  const r = await callOptimizer(ctx, `${a.key}/repair_edits`, 'repair_edits', {
    meta: a.metaText,
    skill: a.current,
    candidate: a.candidate,
    count: String(a.edits.length),
    edits: a.edits.map(describeEdit).join('\n'),
    regressed: render(a.check.delta.regressed.slice(0, 12)),
    improved: render(a.check.delta.improved.slice(0, 6)),
    budget: String(a.maxAdded),
  });
  checkErrorRate(ctx, 'repair', [r]);
  const unchanged: RepairOutcome = { edits: [...a.edits], dropped: [], added: [], reasoning: '', repaired: false };
  if (!r.json) return unchanged;
  const drop = new Set(pickIndices(r.json.drop_indices, a.edits.length, a.edits.length));
  const kept = a.edits.filter((_, i) => !drop.has(i));
  const proposed = validatePayload(r.json, 'add_edits');
  const raw = (proposed.ok ? proposed.items : []) as unknown as Edit[];
  // Added edits are screened against the candidate they extend, like any other edit.
  const added = screenEdits(a.candidate, raw.map((e) => ({ ...e, source_type: 'failure' as const }))).kept.slice(0, Math.max(0, a.maxAdded));
  const repaired = drop.size > 0 || added.length > 0;
  return {
    edits: repaired ? [...kept, ...added] : [...a.edits],
    dropped: a.edits.filter((_, i) => drop.has(i)),
    added,
    reasoning: String(r.json.reasoning ?? ''),
    repaired,
  };
}

/** An item delta as artifacts store it: `fixed` are the items that now pass. */
export function summariseDelta(d: ItemDelta): DeltaSummary {
  return { n: d.n, regressed: d.regressed, fixed: d.improved, before: d.before, after: d.after };
}

/** A train check as its step artifact stores it. */
export function checkArtifact(check: TrainCheck): CheckArtifact {
  return { ...summariseDelta(check.delta), complete: check.complete, improved: check.improved, strict: check.strict, calls: check.calls };
}
