/**
 * Two skills compared item by item with a noise-aware verdict (issue #19; core/verdict/paired-verdict.ts).
 * The candidate is scored on the items in a fixed order, in waves; after each wave the items where
 * the two skills disagree are asked again — both skills, fresh samples — until each side's outcome
 * is settled (one answer leads by the noise policy's margin) or its samples run out. A deterministic
 * target (margin 1) is never asked again. An optional early stop sees the verdict so far and the
 * most the unscored items could still add, so a candidate that can no longer win stops costing calls.
 * The k-th sample of a skill on an item has its own cache key: drawn once, reused by every verdict.
 */
import { isGain } from '../core/verdict/epsilon';
import { skillHash } from '../core/basics/hash';
import { isPass } from '../core/verdict/credit';
import { resamples, type NoisePolicy } from '../core/verdict/noise';
import {
  disagree,
  isSettled,
  itemValue,
  pairedVerdict,
  type ItemPair,
  type PairedVerdict,
  type Sample,
  type ValueOptions,
} from '../core/verdict/paired-verdict';
import type { EngineContext } from './context';
import { rolloutCacheKey, rolloutPhase } from './rollout';
import type { RolloutRow } from './types';

/** Samples of one skill on one item, by `${skill hash}|${item id}`: what the run's flip tally counts. */
export type FlipUnits = Record<string, boolean[]>;

/** Two skills on the same items, as every comparison takes them (the mean's here, the posterior's in weigh.ts). */
export interface SkillPair {
  /** Phase of the candidate's first samples; its repeats go to `${phase}/r<k>`. */
  phase: string;
  /** Phase of the reference's first samples when they are not given (default `${phase}-current`). */
  refPhase?: string;
  ref: string;
  cand: string;
  /** The items, in the order the candidate is scored. */
  itemIds: readonly string[];
  /** The reference's first samples, when already at hand (the step's own rollouts). */
  refRows?: readonly RolloutRow[];
  policy: NoisePolicy;
}

/** How the mean comparison settles a pair of skills: its values, when it may stop, what it settles. */
export interface CompareOptions extends SkillPair {
  values: Omit<ValueOptions, 'margin'>;
  /**
   * Early stop, after each wave: the verdict on the items scored so far, its summed gain, the most
   * the unscored items can add to that sum, and the most they can take from it. Return false to stop.
   */
  continueWhile?: (sofar: PairedVerdict, gainSum: number, leftMax: number, leftMin: number) => boolean;
  /** Items per wave when stopping early (default: the target concurrency). */
  wave?: number;
  /** Settle every item the candidate wins too, not only as many as the verdict needs. */
  settleAllWins?: boolean;
  /** Start from every sample either skill already holds (up to `upTo` repeats), not the first ones only. */
  gather?: { upTo: number };
}

export interface Comparison {
  verdict: PairedVerdict;
  pairs: ItemPair[];
  /** The candidate's first samples (the items scored), and the reference's. */
  candRows: RolloutRow[];
  refRows: RolloutRow[];
  /** Every item was scored. */
  complete: boolean;
  /** Target calls made: the candidate's first samples and every re-sample. */
  calls: number;
  resampleCalls: number;
  units: FlipUnits;
}

const asSample = (r: RolloutRow): Sample => ({ hard: r.hard, soft: r.soft });

export async function compareSkills(ctx: EngineContext, o: CompareOptions): Promise<Comparison> {
  const refPhase = o.refPhase ?? `${o.phase}-current`;
  const [refHash, candHash] = await Promise.all([skillHash(o.ref), skillHash(o.cand)]);
  const position = new Map(o.itemIds.map((id, i) => [id, i]));
  const refRollout = o.refRows ? null : await rolloutPhase(ctx, { phase: refPhase, skill: o.ref, itemIds: o.itemIds });
  const refFirst = refRollout ? refRollout.rows : o.refRows!.filter((r) => position.has(r.itemId));
  const ref = new Map<string, RolloutRow[]>();
  for (const r of refFirst) if (r.status === 'ok') ref.set(r.itemId, [r]);
  const cand = new Map<string, RolloutRow[]>();
  const vopts: ValueOptions = { ...o.values, margin: o.policy.margin };
  const pairOf = (id: string): ItemPair => ({
    itemId: id,
    ref: (ref.get(id) ?? []).map(asSample),
    cand: (cand.get(id) ?? []).map(asSample),
  });
  const refValue = (id: string) => itemValue((ref.get(id) ?? []).map(asSample), vopts);

  let resampleCalls = 0;
  const settled = new Set<string>();
  const settle = async (ids: readonly string[]) => {
    const fresh = ids.filter((id) => !settled.has(id));
    fresh.forEach((id) => settled.add(id));
    if (fresh.length && resamples(o.policy)) {
      resampleCalls += await settleItems(ctx, {
        phase: o.phase,
        refPhase,
        policy: o.policy,
        refSkill: o.ref,
        candSkill: o.cand,
        ref,
        cand,
        ids: fresh,
        position,
        vopts,
      });
    }
  };
  const gainOf = (id: string) => itemValue(pairOf(id).cand, vopts) - itemValue(pairOf(id).ref, vopts);
  const both = (id: string) => ref.has(id) && cand.has(id);
  // Items the candidate loses are always settled: a regression decides repairs and tie-breaks.
  const settleLosses = (ids: readonly string[]) => settle(ids.filter((id) => both(id) && isGain(-gainOf(id))));

  let scored: string[] = [];
  const take = (rows: readonly RolloutRow[]) => {
    for (const r of rows) if (r.status === 'ok' && !cand.has(r.itemId)) cand.set(r.itemId, [r]);
    scored = rows.map((r) => r.itemId);
  };
  const stop = o.continueWhile
    ? async (_uh: number, _us: number, _lh: number, _ls: number, rows: readonly RolloutRow[]) => {
        take(rows);
        await settleLosses(scored);
        const sofar = pairedVerdict(scored.map(pairOf), vopts);
        const rest = o.itemIds.slice(rows.length).filter((id) => ref.has(id));
        const left = rest.reduce((a, id) => a + 1 - refValue(id), 0);
        return o.continueWhile!(sofar, sofar.gain * sofar.n, left, -rest.reduce((a, id) => a + refValue(id), 0));
      }
    : undefined;
  const r = await rolloutPhase(ctx, {
    phase: o.phase,
    skill: o.cand,
    itemIds: o.itemIds,
    canStillWin: stop,
    wave: o.wave,
  });
  take(r.rows);
  if (o.gather) {
    // Every repeat already drawn for either skill on these items (the k-th sample of a skill is one cache key).
    for (const [hash, side] of [
      [refHash, ref],
      [candHash, cand],
    ] as const) {
      for (const [id, rows] of side) {
        for (let k = 1; k <= o.gather.upTo; k++) {
          const row = await ctx.store.findRollout(ctx.runId, rolloutCacheKey(hash, id, ctx.targetKey, k));
          if (row?.status === 'ok') rows.push(row);
        }
      }
    }
  }
  await settleLosses(scored);
  // Where both skills failed, a gain may hide behind one unlucky answer: ask the candidate once more.
  if (resamples(o.policy) && o.values.metric !== 'soft') {
    const shared = scored.filter(
      (id) =>
        both(id) &&
        !settled.has(id) &&
        cand.get(id)!.length === 1 &&
        !isPass(ref.get(id)![0].hard) &&
        !isPass(cand.get(id)![0].hard),
    );
    if (shared.length) {
      const again = await rolloutPhase(ctx, {
        phase: `${o.phase}/r1`,
        skill: o.cand,
        itemIds: shared,
        orders: shared.map((id) => position.get(id) ?? 0),
        repeat: 1,
      });
      resampleCalls += again.calls;
      for (const row of again.rows) if (row.status === 'ok') cand.get(row.itemId)!.push(row);
      // Those that now pass disagree with the reference: settle them like any other.
      await settle(shared.filter((id) => isPass(cand.get(id)!.at(-1)!.hard)));
    }
  }
  // Wins are settled only as far as the verdict needs: in order, until the gain stays positive
  // even if every win not settled yet came to nothing ("repeat samples only where a verdict is close").
  for (;;) {
    const pending = scored.filter((id) => both(id) && !settled.has(id) && isGain(gainOf(id)));
    if (!pending.length || !resamples(o.policy)) break;
    // The gain the items already settled (or never in doubt) give: positive means decided.
    const sure = scored.filter((id) => both(id) && !pending.includes(id)).reduce((a, id) => a + gainOf(id), 0);
    if (!o.settleAllWins && isGain(sure)) break;
    // As many wins as could make it positive if each settled as a win.
    const chunk = o.settleAllWins ? pending.length : Math.floor(Math.max(0, -sure)) + 1;
    await settle(pending.slice(0, chunk));
  }
  const pairs = scored.map(pairOf);
  const units: FlipUnits = {};
  for (const [hash, side] of [
    [refHash, ref],
    [candHash, cand],
  ] as const) {
    for (const [id, rows] of side) if (rows.length > 1) units[`${hash}|${id}`] = rows.map((x) => isPass(x.hard));
  }
  return {
    verdict: pairedVerdict(pairs, vopts),
    pairs,
    candRows: r.rows,
    refRows: refFirst,
    complete: r.complete,
    calls: r.calls + resampleCalls + (refRollout?.calls ?? 0),
    resampleCalls,
    units,
  };
}

/**
 * Ask again where the two skills disagree: rounds of one more sample for every side not settled
 * yet, until both sides of every such item are settled or out of samples. Returns the calls made.
 */
async function settleItems(
  ctx: EngineContext,
  a: {
    phase: string;
    refPhase: string;
    policy: NoisePolicy;
    refSkill: string;
    candSkill: string;
    ref: Map<string, RolloutRow[]>;
    cand: Map<string, RolloutRow[]>;
    ids: readonly string[];
    position: ReadonlyMap<string, number>;
    vopts: ValueOptions;
  },
): Promise<number> {
  const { policy } = a;
  // Only items the two skills disagree on at first are settled; each stays until both sides are.
  const open = a.ids.filter((id) => {
    const p = { itemId: id, ref: (a.ref.get(id) ?? []).map(asSample), cand: (a.cand.get(id) ?? []).map(asSample) };
    return disagree(p, a.vopts);
  });
  const exhausted = new Set<string>();
  let calls = 0;
  for (;;) {
    const asks: { side: 'ref' | 'cand'; id: string; k: number }[] = [];
    for (const id of open) {
      for (const side of ['ref', 'cand'] as const) {
        const rows = (side === 'ref' ? a.ref : a.cand).get(id) ?? [];
        if (!rows.length || exhausted.has(`${side}|${id}`)) continue;
        // The first samples were chosen for disagreeing: an item settles on one vote more than the margin.
        if (isSettled(rows.map(asSample), policy.margin + 1) || rows.length >= policy.maxSamples) continue;
        asks.push({ side, id, k: rows.length });
      }
    }
    if (!asks.length) return calls;
    // One rollout per side and sample number: the same skill's k-th samples go together.
    const groups = new Map<string, typeof asks>();
    for (const x of asks) groups.set(`${x.side}|${x.k}`, [...(groups.get(`${x.side}|${x.k}`) ?? []), x]);
    const results = await Promise.all(
      [...groups.values()].map((g) =>
        rolloutPhase(ctx, {
          phase: `${g[0].side === 'ref' ? a.refPhase : a.phase}/r${g[0].k}`,
          skill: g[0].side === 'ref' ? a.refSkill : a.candSkill,
          itemIds: g.map((x) => x.id),
          orders: g.map((x) => a.position.get(x.id) ?? 0),
          repeat: g[0].k,
        }).then((res) => ({ g, res })),
      ),
    );
    for (const { g, res } of results) {
      calls += res.calls;
      for (const [i, row] of res.rows.entries()) {
        const x = g[i];
        if (row.status !== 'ok') exhausted.add(`${x.side}|${x.id}`);
        else (x.side === 'ref' ? a.ref : a.cand).get(x.id)!.push(row);
      }
    }
  }
}
