/**
 * Looking one step ahead from a candidate on a plateau (issue #32): a bundle that neither fixes nor
 * breaks a train item but changes how some failures are answered — an over-broad rule replaced by
 * its precise form, the families it carried restored, but the rules its failures need not in yet —
 * is progress the check cannot see. Instead
 * of rejecting it, the step does what the next step would: the failure analysts read what still
 * fails with the candidate, their edits are merged and ranked within the step's budget, added to
 * the bundle, and the extended bundle is checked on the same train items. It goes on only if the
 * check finds it better; else the step rejects as before. Every call is a checkpoint like any
 * other stage's, so a resumed step replays it.
 *
 * The escape (issue #40) is the same look aimed at the items a bundle broke when its repair left
 * them broken: an over-broad rule replaced by precise ones loses the families it carried, and a
 * repairer that does not restore them locks the run at its start. The failure analysts read those
 * items with the candidate, as the next step would, and propose their rules.
 */
import { screenEdits } from '../../core/skill/edit-screen';
import { isPass } from '../../core/verdict/credit';
import type { Edit } from '../../core/skill/edits';
import type { EngineContext } from '../context';
import type { RolloutRow } from '../types';
import { aggregate, mergedPatch } from './aggregate';
import type { TrainCheck } from './credit-check';
import { rankAndSelect } from './rank-edits';
import { reflect } from './reflect';

/**
 * A candidate on a plateau: it fixed and broke no train item, yet it moved — on some item both
 * skills fail, it answers differently (a wrong prefix now right, the grade mark still missing). A
 * candidate that changed nothing the target does (a rewording) is not on the way anywhere.
 */
export function onPlateau(check: TrainCheck, currentRows: readonly RolloutRow[]): boolean {
  // A partial credit (a soft gain) is no fix: the item still fails, and the gate would see a tie.
  if (check.strict || check.delta.regressed.length || check.delta.improved.length) return false;
  const before = new Map(currentRows.filter((r) => r.status === 'ok').map((r) => [r.itemId, r]));
  return check.rows.some((r) => {
    const b = before.get(r.itemId);
    return !!b && r.status === 'ok' && !isPass(r.hard) && !isPass(b.hard) && answerOf(r) !== answerOf(b);
  });
}

const answerOf = (r: RolloutRow) => r.predicted.trim().toLowerCase();

export interface LookAheadInput {
  key: string;
  current: string;
  /** The neutral bundle and the candidate it makes. */
  edits: readonly Edit[];
  candidate: string;
  check: TrainCheck;
  budget: number;
  batchSeed: number;
  bufferText: string;
  metaText: string;
  /** Only these failing items are read (a repair aimed at what the bundle broke); default every failure. */
  focus?: readonly string[];
  /** Where its calls are kept: `${key}/ahead` by default. */
  keyPrefix?: string;
}

/** What one step ahead proposes for the neutral candidate: the failures it read, and the edits ranked in. */
export interface Ahead {
  failing: string[];
  proposed: number;
  edits: Edit[];
}

/** The edits one step ahead would add to the neutral candidate (none: nothing to look at, or nothing proposed). */
export async function editsAhead(ctx: EngineContext, a: LookAheadInput): Promise<Ahead> {
  const focus = a.focus ? new Set(a.focus) : null;
  const failing: RolloutRow[] = a.check.rows.filter(
    (r) => r.status === 'ok' && !isPass(r.hard) && (!focus || focus.has(r.itemId)),
  );
  const none = { failing: failing.map((r) => r.itemId), proposed: 0, edits: [] };
  if (!failing.length || a.budget <= 0) return none;
  const keyPrefix = a.keyPrefix ?? `${a.key}/ahead`;
  // The failures the candidate still has, read by the failure analysts as the next step would.
  const seen = await reflect(ctx, {
    keyPrefix,
    rows: failing,
    skill: a.candidate,
    batchSeed: a.batchSeed,
    bufferText: a.bufferText,
    metaText: a.metaText,
  });
  if (!seen.failure.length) return none;
  const agg = await aggregate(ctx, keyPrefix, seen.failure, [], a.candidate, a.metaText);
  const merged = mergedPatch(agg.merged);
  const pool = ctx.config.screenEdits ? screenEdits(a.candidate, merged.edits).kept : merged.edits;
  const sel = await rankAndSelect(ctx, keyPrefix, { ...merged, edits: pool }, a.budget, a.candidate, a.metaText);
  return { ...none, proposed: merged.edits.length, edits: sel.ranked.edits };
}
