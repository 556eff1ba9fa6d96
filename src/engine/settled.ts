/**
 * The settled stop (issue #40, `settledStop`): a skill at the top still pays a full rollout every
 * step, and on a noisy target its slips look like failures. After a step that left the current skill
 * unchanged, each failure on the step's batch and on validation gets a second answer (a repeat: its
 * cache key is the one later verdicts read, so none is wasted), and so does each known gap — a train
 * item whose latest rollout, an earlier skill's, failed — after its first answer from this skill.
 * When every such failure passes on it, the step found nothing to learn; after `settledStop` such
 * steps in a row, the remaining steps skip their rollouts while that skill stands, and an epoch
 * boundary skips its comparison, slow update and meta skill (epoch/boundary.ts). A failure that fails
 * again — a family the skill lacks, whether validation sees it or not — keeps the run going, and a
 * target that has never changed an answer gets no second answers: there a failure is real.
 */
import { skillHash } from '../core/basics/hash';
import { isPass } from '../core/verdict/credit';
import type { NoisePolicy } from '../core/verdict/noise';
import type { EngineContext } from './context';
import { rolloutCacheKey, rolloutPhase } from './rollout';
import type { RunDataset, RolloutRow, RunState } from './types';
import { selectionIds } from './validation-score';

/** More failures than this share of a batch (or of validation) are not slips: no second answers. */
const MOST_SLIPS = 0.2;

/** The run's remaining steps are skipped: the current skill was found settled often enough in a row. */
export async function isSettled(ctx: EngineContext, state: RunState): Promise<boolean> {
  const need = ctx.config.settledStop ?? 0;
  const s = state.settled;
  if (!(need > 0) || !s || s.steps < need) return false;
  const hash = await skillHash(state.gate.currentSkill);
  return s.hash === hash || s.hash === carriedFrom(state, hash);
}

/**
 * The skill whose answers stand for this one's: the first epoch's boundary places an empty slow-update
 * block in the skill and carries its validation score over (epoch/boundary.ts); its answers carry too.
 */
const carriedFrom = (state: RunState, hash: string): string | undefined => state.selectionCache[hash]?.carriedFrom;

/** The hashes whose answers count as the skill's: the one it carries over from, if any, then its own. */
async function answeringHashes(state: RunState, skill: string): Promise<{ hash: string; hashes: string[] }> {
  const hash = await skillHash(skill);
  const from = carriedFrom(state, hash);
  return { hash, hashes: from ? [from, hash] : [hash] };
}

/**
 * After a step that left `current` standing: the run's new settled count — one more when every
 * failure of the skill on the step's rows, on the run's known gaps and on validation passes on
 * another answer, else 0.
 */
export async function settledAfter(
  ctx: EngineContext,
  state: RunState,
  a: { key: string; current: string; rows: readonly RolloutRow[]; data: RunDataset; policy: NoisePolicy },
): Promise<RunState['settled']> {
  if (!(ctx.config.settledStop > 0)) return undefined;
  const { hash, hashes } = await answeringHashes(state, a.current);
  const same = !!state.settled && hashes.includes(state.settled.hash);
  const before = same ? state.settled!.steps : 0;
  const batch = a.rows.map((r) => r.itemId);
  const gaps = await knownGaps(ctx, a.data, hashes, batch);
  const clean =
    batch.length > 0 &&
    gaps !== null &&
    (await slipsOnly(ctx, a, hashes, [...batch, ...gaps], `${a.key}/settle`)) &&
    (await slipsOnly(ctx, a, hashes, selectionIds(ctx.config, a.data), `${a.key}/settle-val`));
  return { hash, steps: clean ? before + 1 : 0 };
}

/**
 * Every failure of the step's batch passes on a second answer (slips, not gaps), on a noisy target:
 * what the analysts made of them explains noise, so the step proposes nothing. The repeats are the
 * ones the step's settle and a check would ask (the same cache keys). False when nothing failed.
 */
export async function slipsOnBatch(
  ctx: EngineContext,
  state: RunState,
  a: { key: string; current: string; rows: readonly RolloutRow[]; policy: NoisePolicy },
): Promise<boolean> {
  if (!(ctx.config.settledStop > 0) || !a.rows.some((r) => r.status === 'ok' && !isPass(r.hard))) return false;
  const { hashes } = await answeringHashes(state, a.current);
  const batch = a.rows.map((r) => r.itemId);
  return slipsOnly(ctx, a, hashes, batch, `${a.key}/settle`);
}

/**
 * The run's known gaps: train items outside the batch whose latest step rollout failed (an earlier
 * skill's) and that this skill has not answered since. The steps still to come would roll them out;
 * a settled skill must answer them first — a family validation never sees fails here, not silently.
 * Items an earlier skill passed stand. Null when there are more gaps than a batch: not settled yet.
 */
async function knownGaps(
  ctx: EngineContext,
  data: RunDataset,
  hashes: readonly string[],
  batch: readonly string[],
): Promise<string[] | null> {
  const latest = new Map<string, { step: number; row: RolloutRow }>();
  for (const row of await ctx.store.listRollouts(ctx.runId)) {
    const step = /^s(\d+)\/rollout(\/b\d+)?$/.exec(row.phase);
    if (!step || row.status !== 'ok') continue;
    const at = latest.get(row.itemId);
    if (!at || Number(step[1]) > at.step) latest.set(row.itemId, { step: Number(step[1]), row });
  }
  const inBatch = new Set(batch);
  const gaps: string[] = [];
  for (const id of data.splits.train) {
    const last = latest.get(id);
    if (inBatch.has(id) || !last || isPass(last.row.hard) || hashes.includes(last.row.skillHash)) continue;
    const answered = await Promise.all(hashes.map((h) => samplesOf(ctx, h, id, 1)));
    if (!answered.some((rows) => rows.length)) gaps.push(id);
  }
  return gaps.length > ctx.config.batchSize ? null : gaps;
}

/**
 * Every item has a passing answer of the skill, once each item it has not answered is asked, and each
 * whose answers all fail is asked once more — when the target has been seen to change its answers and
 * the failures are few enough to be slips.
 */
async function slipsOnly(
  ctx: EngineContext,
  a: { current: string; policy: NoisePolicy },
  hashes: readonly string[],
  itemIds: readonly string[],
  phase: string,
): Promise<boolean> {
  const max = a.policy.maxSamples;
  const held = async () =>
    Promise.all(itemIds.map(async (id) => (await Promise.all(hashes.map((h) => samplesOf(ctx, h, id, max)))).flat()));
  const first = (await held()).flatMap((rows, i) => (rows.length ? [] : [itemIds[i]]));
  if (first.length) {
    // Never answered by this skill: its first answer, under the cache key every later rollout reads.
    const r = await rolloutPhase(ctx, { phase, skill: a.current, itemIds: first });
    if (r.rows.some((row) => row.status !== 'ok')) return false;
  }
  const answers = await held();
  const failing = itemIds.flatMap((id, i) =>
    answers[i].some((r) => isPass(r.hard)) ? [] : [{ id, n: answers[i].length }],
  );
  if (!failing.length) return true;
  const noisy = (a.policy.flips?.minority ?? 0) > 0;
  if (!noisy || failing.length > Math.max(1, Math.floor(MOST_SLIPS * itemIds.length))) return false;
  if (failing.some((f) => f.n >= max)) return false;
  // One more answer each, grouped by its sample number under the skill's own hash (a repeat's cache key names it).
  const own = hashes[hashes.length - 1];
  const byK = new Map<number, string[]>();
  for (const f of failing) {
    const k = (await samplesOf(ctx, own, f.id, max)).length;
    byK.set(k, [...(byK.get(k) ?? []), f.id]);
  }
  for (const [k, ids] of byK) {
    const r = await rolloutPhase(ctx, { phase: `${phase}/r${k}`, skill: a.current, itemIds: ids, repeat: k });
    if (r.rows.some((row) => row.status !== 'ok' || !isPass(row.hard))) return false;
  }
  return true;
}

/** The skill's answers on an item so far, its first sample and the repeats after it, in order. */
async function samplesOf(ctx: EngineContext, hash: string, itemId: string, max: number): Promise<RolloutRow[]> {
  const rows: RolloutRow[] = [];
  for (let k = 0; k < max; k++) {
    const row = await ctx.store.findRollout(ctx.runId, rolloutCacheKey(hash, itemId, ctx.targetKey, k));
    if (row?.status !== 'ok') break;
    rows.push(row);
  }
  return rows;
}
