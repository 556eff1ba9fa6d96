/**
 * Held edits (issue #43, item 3): reflection over-reacts to a single bad trajectory (R2PO, HALO). An
 * analyst's edit says how many failures it explains — `support_count`, summed by the merges (the JSON
 * contract of the algorithm doc §1.6; a training step rolls each item out once, so one trajectory is
 * one item, one repeat). An edit only one trajectory supports is held out of the step's pool until a
 * later step's analysts propose it again from another failure: then its support adds up and it joins
 * the pool. A held edit not seen again within HOLD_STEPS steps is forgotten. Carried edits (a check
 * already found their bundle better) and edits whose support the merge lost are never held.
 */
import type { Edit } from '../../core/skill/edits';
import { getStepArtifact, type HeldEdit } from '../artifacts';
import type { EngineContext } from '../context';

/** Steps a held edit waits for a second failure to show its pattern. */
export const HOLD_STEPS = 3;

/** The same change: what an edit does, whatever its support and marks. */
const changeKey = (e: Edit) => [e.file ?? '', e.op, (e.target ?? '').trim(), (e.content ?? '').trim()].join('\u0000');

/** Drawn from one trajectory: a support the analysts or merges stated, of one. */
const single = (e: Edit) => !e.carried && typeof e.support_count === 'number' && e.support_count <= 1;

/**
 * The step's pool with its singles held: an edit a held one's pattern shows again is released with
 * both supports; a single new one is held; earlier held edits wait on until HOLD_STEPS have passed.
 */
export function holdSingles(
  pool: readonly Edit[],
  before: readonly HeldEdit[],
  step: number,
): { kept: Edit[]; held: HeldEdit[]; released: Edit[] } {
  const waiting = new Map(before.filter((h) => step - h.step <= HOLD_STEPS).map((h) => [changeKey(h.edit), h]));
  const kept: Edit[] = [];
  const released: Edit[] = [];
  const held: HeldEdit[] = [];
  for (const e of pool) {
    const k = changeKey(e);
    const h = waiting.get(k);
    if (h) {
      waiting.delete(k);
      const both = { ...e, support_count: (e.support_count ?? 1) + (h.edit.support_count ?? 1) };
      released.push(both);
      kept.push(both);
    } else if (single(e) && !held.some((x) => changeKey(x.edit) === k)) held.push({ edit: e, step });
    else if (!single(e)) kept.push(e);
  }
  return { kept, held: [...waiting.values(), ...held], released };
}

/** The edits held by the latest step before `step` that held any (its artifact), within HOLD_STEPS. */
export async function heldBefore(ctx: EngineContext, step: number): Promise<HeldEdit[]> {
  for (let s = step - 1; s >= Math.max(1, step - HOLD_STEPS); s--) {
    const a = await getStepArtifact(ctx.store, ctx.runId, s, 'held');
    if (a) return a.held;
  }
  return [];
}
