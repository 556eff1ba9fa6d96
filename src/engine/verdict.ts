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
  const refRollout = o.refRows ? null : await rolloutPhase(ctx, { phase: refPhase, skill: o.ref, itemIds: o.itemIds });
  const p = new PairSamples(ctx, o, refPhase);
  const refFirst = refRollout ? refRollout.rows : o.refRows!.filter((r) => p.position.has(r.itemId));
  for (const r of refFirst) if (r.status === 'ok') p.ref.set(r.itemId, [r]);
  const stop = o.continueWhile
    ? async (_uh: number, _us: number, _lh: number, _ls: number, rows: readonly RolloutRow[]) => {
        p.take(rows);
        await p.settleLosses();
        const sofar = pairedVerdict(
          p.scored.map((id) => p.pairOf(id)),
          p.vopts,
        );
        const rest = o.itemIds.slice(rows.length).filter((id) => p.ref.has(id));
        const left = rest.reduce((a, id) => a + 1 - p.refValue(id), 0);
        return o.continueWhile!(sofar, sofar.gain * sofar.n, left, -rest.reduce((a, id) => a + p.refValue(id), 0));
      }
    : undefined;
  const r = await rolloutPhase(ctx, {
    phase: o.phase,
    skill: o.cand,
    itemIds: o.itemIds,
    canStillWin: stop,
    wave: o.wave,
  });
  p.take(r.rows);
  const sides = [
    [refHash, p.ref],
    [candHash, p.cand],
  ] as const;
  if (o.gather) await gatherRepeats(ctx, sides, o.gather.upTo);
  await p.settleLosses();
  await p.askSharedFailures();
  await p.settleWins();
  const pairs = p.scored.map((id) => p.pairOf(id));
  return {
    verdict: pairedVerdict(pairs, p.vopts),
    pairs,
    candRows: r.rows,
    refRows: refFirst,
    complete: r.complete,
    calls: r.calls + p.resampleCalls + (refRollout?.calls ?? 0),
    resampleCalls: p.resampleCalls,
    units: flipUnits(sides),
  };
}

/** One skill's samples by item id. */
type Samples = Map<string, RolloutRow[]>;

/**
 * The two skills' samples on the items of one comparison, and what settles them: items the
 * candidate loses are always settled (a regression decides repairs and tie-breaks), wins only as
 * far as the verdict needs, and an item both failed is asked of the candidate once more.
 */
class PairSamples {
  readonly ref: Samples = new Map();
  readonly cand: Samples = new Map();
  readonly position: ReadonlyMap<string, number>;
  readonly vopts: ValueOptions;
  /** The items the candidate was scored on, in order. */
  scored: string[] = [];
  resampleCalls = 0;
  private readonly settled = new Set<string>();

  constructor(
    private readonly ctx: EngineContext,
    private readonly o: CompareOptions,
    private readonly refPhase: string,
  ) {
    this.position = new Map(o.itemIds.map((id, i) => [id, i]));
    this.vopts = { ...o.values, margin: o.policy.margin };
  }

  pairOf(id: string): ItemPair {
    return { itemId: id, ref: (this.ref.get(id) ?? []).map(asSample), cand: (this.cand.get(id) ?? []).map(asSample) };
  }
  refValue(id: string): number {
    return itemValue((this.ref.get(id) ?? []).map(asSample), this.vopts);
  }
  private gainOf(id: string): number {
    const p = this.pairOf(id);
    return itemValue(p.cand, this.vopts) - itemValue(p.ref, this.vopts);
  }
  private both(id: string): boolean {
    return this.ref.has(id) && this.cand.has(id);
  }

  /** The candidate's first samples so far. */
  take(rows: readonly RolloutRow[]): void {
    for (const r of rows) if (r.status === 'ok' && !this.cand.has(r.itemId)) this.cand.set(r.itemId, [r]);
    this.scored = rows.map((r) => r.itemId);
  }

  /** Ask again where the two disagree, each item once per comparison. */
  private async settle(ids: readonly string[]): Promise<void> {
    const fresh = ids.filter((id) => !this.settled.has(id));
    fresh.forEach((id) => this.settled.add(id));
    if (!fresh.length || !resamples(this.o.policy)) return;
    const { o } = this;
    this.resampleCalls += await settleItems(this.ctx, {
      phase: o.phase,
      refPhase: this.refPhase,
      policy: o.policy,
      refSkill: o.ref,
      candSkill: o.cand,
      ref: this.ref,
      cand: this.cand,
      ids: fresh,
      position: this.position,
      vopts: this.vopts,
    });
  }

  /** Items the candidate loses are always settled: a regression decides repairs and tie-breaks. */
  settleLosses(): Promise<void> {
    return this.settle(this.scored.filter((id) => this.both(id) && isGain(-this.gainOf(id))));
  }

  /** Where both skills failed, a gain may hide behind one unlucky answer: ask the candidate once more. */
  async askSharedFailures(): Promise<void> {
    const { o, ref, cand } = this;
    if (!resamples(o.policy) || o.values.metric === 'soft') return;
    const shared = this.scored.filter(
      (id) =>
        this.both(id) &&
        !this.settled.has(id) &&
        cand.get(id)!.length === 1 &&
        !isPass(ref.get(id)![0].hard) &&
        !isPass(cand.get(id)![0].hard),
    );
    if (!shared.length) return;
    const again = await rolloutPhase(this.ctx, {
      phase: `${o.phase}/r1`,
      skill: o.cand,
      itemIds: shared,
      orders: shared.map((id) => this.position.get(id) ?? 0),
      repeat: 1,
    });
    this.resampleCalls += again.calls;
    if (again.calls) this.ctx.verdictRounds.push(again.calls);
    for (const row of again.rows) if (row.status === 'ok') cand.get(row.itemId)!.push(row);
    // Those that now pass disagree with the reference: settle them like any other.
    await this.settle(shared.filter((id) => isPass(cand.get(id)!.at(-1)!.hard)));
  }

  /**
   * Wins are settled only as far as the verdict needs: in order, until the gain stays positive
   * even if every win not settled yet came to nothing ("repeat samples only where a verdict is close").
   */
  async settleWins(): Promise<void> {
    for (;;) {
      const pending = this.scored.filter((id) => this.both(id) && !this.settled.has(id) && isGain(this.gainOf(id)));
      if (!pending.length || !resamples(this.o.policy)) return;
      // The gain the items already settled (or never in doubt) give: positive means decided.
      const sure = this.scored
        .filter((id) => this.both(id) && !pending.includes(id))
        .reduce((a, id) => a + this.gainOf(id), 0);
      if (!this.o.settleAllWins && isGain(sure)) return;
      // As many wins as could make it positive if each settled as a win.
      const chunk = this.o.settleAllWins ? pending.length : Math.floor(Math.max(0, -sure)) + 1;
      await this.settle(pending.slice(0, chunk));
    }
  }
}

/** Every repeat already drawn for either skill on these items (the k-th sample of a skill is one cache key). */
async function gatherRepeats(
  ctx: EngineContext,
  sides: readonly (readonly [hash: string, samples: Samples])[],
  upTo: number,
): Promise<void> {
  for (const [hash, side] of sides)
    for (const [id, rows] of side)
      for (let k = 1; k <= upTo; k++) {
        const row = await ctx.store.findRollout(ctx.runId, rolloutCacheKey(hash, id, ctx.targetKey, k));
        if (row?.status === 'ok') rows.push(row);
      }
}

/** Each skill's samples on an item where it drew more than one: what the run's flip tally counts. */
function flipUnits(sides: readonly (readonly [hash: string, samples: Samples])[]): FlipUnits {
  const units: FlipUnits = {};
  for (const [hash, side] of sides)
    for (const [id, rows] of side) if (rows.length > 1) units[`${hash}|${id}`] = rows.map((x) => isPass(x.hard));
  return units;
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
    const before = calls;
    for (const { g, res } of results) {
      calls += res.calls;
      for (const [i, row] of res.rows.entries()) {
        const x = g[i];
        if (row.status !== 'ok') exhausted.add(`${x.side}|${x.id}`);
        else (x.side === 'ref' ? a.ref : a.cand).get(x.id)!.push(row);
      }
    }
    if (calls > before) ctx.verdictRounds.push(calls - before);
  }
}
