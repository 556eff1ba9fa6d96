/**
 * Riders (issue #43, item 3a): an edit that rode into a bundle beside real gains and changes nothing.
 * A wrong guess for one family next to the right rule for another breaks no item, so neither the
 * repair nor leave-one-out blame (both read broken items) removes it — and once accepted it blocks
 * the right rule for its family, which then changes nothing either. Before the gate, each edit of
 * a bundle that gained train items is left out in turn on those gains — a pass, or part of an answer
 * (a paired family's prefix right before its grade mark comes) — stopping at the first one lost: an
 * edit whose absence loses none of them carries no gain on the evidence the check holds. The bundle without such edits is
 * checked on the same train items and goes on only if it keeps the verdict (an edit that kept items
 * passing, a replaced rule's family restored, shows there as items broken).
 *
 * Only edits with no evidence of their own are left out (the probes cost 6–11 % more training calls
 * when every edit was): an edit that names a gained item — a word it brings into the skill, rare in
 * the batch, is in that item's question or expected answer (a family's rule and its items) — is taken
 * to carry it and is not probed. A rider that happens to share such a word is kept, as without the
 * check; an edit with real evidence that names nothing (a deleted rule, a general habit) is probed.
 */
import { isPass } from '../../core/verdict/credit';
import { withoutEdit, type Edit } from '../../core/skill/edits';
import { putStepArtifact, type RidersArtifact } from '../artifacts';
import type { EngineContext } from '../context';
import { rolloutPhase } from '../rollout';
import type { RolloutRow } from '../types';
import { summariseDelta, type TrainCheck } from './credit-check';

/** Gained items a left-out edit is scored on per wave: it stops at the first gain lost (the edit carries it). */
const RIDER_WAVE = 2;

export interface RidersInput {
  key: string;
  current: string;
  edits: readonly Edit[];
  check: TrainCheck;
  /** The current skill's rows on the check's items. */
  base: readonly RolloutRow[];
  /** Checks a bundle on the step's train items, as the candidate's own check was. */
  checkEdits: (phase: string, edits: Edit[]) => Promise<TrainCheck>;
}

/** The bundle without its riders and its check, or null when every edit carried a gain (or none can be told apart). */
export async function dropRiders(
  ctx: EngineContext,
  a: RidersInput,
): Promise<{ edits: Edit[]; check: TrainCheck } | null> {
  const cand = new Map(a.check.rows.filter((r) => r.status === 'ok').map((r) => [r.itemId, r]));
  const gains = gainedItems(a.check, a.base, cand);
  if (a.edits.length < 2 || !gains.length) return null;
  const named = namingEdits(ctx, a, gains);
  const unnamed = a.edits.map((_, i) => i).filter((i) => !named.includes(i));
  // Every edit names a gain: none can be a rider by its own evidence, and nothing is probed.
  if (!unnamed.length) return null;
  const probes = await Promise.all(
    unnamed.map(async (index) => {
      const without = withoutEdit(a.current, a.edits, index);
      // Lost: scored below the candidate's own answer, a pass or part of the answer (a paired family's
      // prefix right, its grade mark still to come) gone. An errored answer is not evidence that nothing
      // was lost: it counts as lost, and the edit is kept.
      const lostIn = (rows: readonly RolloutRow[]) =>
        rows.filter((x) => x.status !== 'ok' || below(x, cand.get(x.itemId))).map((x) => x.itemId);
      const r = await rolloutPhase(ctx, {
        phase: `${a.key}/check-rider${index}`,
        skill: without,
        itemIds: gains,
        wave: RIDER_WAVE,
        canStillWin: (_uh, _us, _lh, _ls, rows) => !lostIn(rows).length,
      });
      return { index, lost: lostIn(r.rows) };
    }),
  );
  const riders = probes.filter((p) => !p.lost.length).map((p) => p.index);
  // Every edit a rider alone: the gains need two of them together, and none can be told apart.
  if (!riders.length || riders.length === a.edits.length) {
    await putStepArtifact(ctx, a.key, 'riders', ridersArtifact(gains, probes, a.edits, [], null, false, named));
    return null;
  }
  const edits = a.edits.filter((_, i) => !riders.includes(i));
  const check = await a.checkEdits(`${a.key}/check-riders`, edits);
  // The bundle without them must keep what it gained and break no more: riders taken out together
  // may have carried something between them (two copies of one rule) that none carried alone.
  const taken =
    check.improved &&
    check.delta.improved.length >= a.check.delta.improved.length &&
    check.delta.regressed.length <= a.check.delta.regressed.length;
  const dropped = riders.map((i) => a.edits[i]);
  await putStepArtifact(ctx, a.key, 'riders', ridersArtifact(gains, probes, a.edits, dropped, check, taken, named));
  return taken ? { edits, check } : null;
}

/** Words of a text, lower-cased; short ones (articles, "use") say nothing of an item. */
const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []);

/**
 * The edits (by index) that name a gained item: a word the edit brings into the skill (not in the
 * current skill) that at most half the check's items hold — "specimen" in every question names none —
 * is in a gained item's question or expected answer.
 */
function namingEdits(ctx: EngineContext, a: RidersInput, gains: readonly string[]): number[] {
  const textOf = (id: string) => {
    const item = ctx.items.get(id);
    return item ? words([item.question, ...item.answers, item.correctChoice ?? ''].join(' ')) : new Set<string>();
  };
  const batch = a.check.rows.map((r) => textOf(r.itemId));
  const rare = (w: string) => batch.filter((t) => t.has(w)).length <= batch.length / 2;
  const inSkill = words(a.current);
  const gained = gains.map(textOf);
  return a.edits
    .map((e, i) => ({ i, own: [...words(e.content ?? '')].filter((w) => !inSkill.has(w) && rare(w)) }))
    .filter(({ own }) => gained.some((t) => own.some((w) => t.has(w))))
    .map(({ i }) => i);
}

/**
 * The train items the candidate gained: its verdict's list, and the items where its answer scored above
 * the current skill's (a pass, or part of the answer: a step on the way to one).
 */
function gainedItems(check: TrainCheck, base: readonly RolloutRow[], cand: ReadonlyMap<string, RolloutRow>): string[] {
  const before = new Map(base.filter((r) => r.status === 'ok').map((r) => [r.itemId, r]));
  const scoredAbove = [...cand.values()].filter((r) => {
    const b = before.get(r.itemId);
    return !!b && below(b, r);
  });
  return [...new Set([...check.delta.improved.filter((id) => cand.has(id)), ...scoredAbove.map((r) => r.itemId)])];
}

/** `x` scored below `y`: a pass lost, or less of the answer (the soft score). */
function below(x: RolloutRow, y: RolloutRow | undefined): boolean {
  if (!y) return false;
  return (isPass(y.hard) && !isPass(x.hard)) || x.soft < y.soft - 1e-9;
}

function ridersArtifact(
  gains: string[],
  probes: { index: number; lost: string[] }[],
  edits: readonly Edit[],
  dropped: Edit[],
  check: TrainCheck | null,
  taken: boolean,
  named: number[],
): RidersArtifact {
  return {
    gains,
    named: named.map((index) => ({ index, edit: edits[index] })),
    probes: probes.map((p) => ({ index: p.index, edit: edits[p.index], lost: p.lost })),
    dropped,
    after: check ? summariseDelta(check.delta) : null,
    taken,
  };
}
