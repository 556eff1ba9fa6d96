/**
 * Two skills weighed item by item until the verdict is sure (issue #32; core/paired-posterior.ts).
 * Every sample either skill already holds on the items is counted first — repeats drawn by earlier
 * verdicts included (the k-th sample of a skill on an item is one cache key, drawn once). The
 * candidate is then scored in fixed waves, and after each wave and each round of repeats the
 * posterior says whether the candidate is better with the confidence asked (stop: sure), or could
 * no longer become so even if every answer still to come went its way (stop: it cannot). Only the
 * items where a change is plausible are asked again while their samples last: the skill whose answers
 * are in doubt (`askDoubtfulSide`), else both. Waves are fixed, never the concurrency, so where a
 * verdict stops never depends on it.
 */
import { skillHash } from '../core/basics/hash';
import { isPass } from '../core/verdict/credit';
import { pairedVerdict, type ItemPair, type Sample, type ValueOptions } from '../core/verdict/paired-verdict';
import {
  CHANGE_LEVELS,
  CHANGE_PRIOR,
  knownPrior,
  noiseLevels,
  posteriorOverNoise,
  withNeutral,
  type ChangeLevel,
  type ChangePrior,
  type NoiseLevel,
  type NoiseRates,
  type ItemChange,
  type ItemTallies,
  type PosteriorVerdict,
  type Tally,
} from '../core/verdict/paired-posterior';
import type { NoisePolicy, RepeatUnit } from '../core/verdict/noise';
import { noiseMixture, perItemPosterior } from '../core/verdict/item-noise';
import type { EngineContext } from './context';
import { rolloutCacheKey, rolloutPhase } from './rollout';
import type { RolloutRow } from './types';
import type { Comparison, FlipUnits, SkillPair } from './verdict';

/** How the posterior weighs a pair of skills (`SkillPair`, verdict.ts): when it is sure, and what it settles. */
export interface WeighOptions extends SkillPair {
  /** Stop as sure once P(better) reaches this (with `lead`, P(better) − P(worse)). */
  accept: number;
  /**
   * Weigh the lead of "better" over "worse" instead of P(better): a screen's question. Before any
   * sample the lead is 0 whatever the prior, where P(better) alone is already what the prior gives
   * a change of any size.
   */
  lead?: boolean;
  /**
   * Most samples per side and item in this verdict (default: the run's). A tie rests on a train
   * item or two: on a noisy target three answers cannot tell a gain from a slip, six can.
   */
  samples?: number;
  /** Stop as hopeless once P(better) can no longer reach this (default `accept`). */
  reject?: number;
  /** Candidate items scored per wave; the whole list at once when every item must be seen (a repair reads what broke). */
  wave: number;
  /** Score every item before stopping (the tie-break and the repair need all of them). */
  scoreAll?: boolean;
  /**
   * Stop scoring first samples as soon as the candidate is sure to be better. A gate does not: the
   * next step's verdict needs the accepted skill's answers on every item anyway, and its score is
   * then measured, not guessed; a train check does (its answers are not needed again).
   */
  acceptEarly?: boolean;
  /**
   * Before stopping, ask again where a loss is plausible but not sure: always (a repair reads what was
   * lost), or `'tie'` only while the verdict is not yet sure (a tie is taken only with no item likely
   * lost; an accept on a sure gain takes no tie, and its losses are already in its P(better)).
   */
  settleLosses?: boolean | 'tie';
  /** A loss is settled from this chance (default PLAUSIBLE): a screen's repair reads only the likelier ones. */
  lossesFrom?: number;
  /**
   * Stop as soon as the candidate is surely worse (P(worse) ≥ 0.99), its losses as they stand: a
   * screen need not wait until even the luckiest answers to come could not save it, and a bundle that
   * broke many items is repaired on that list — one fluke more or less in it changes nothing.
   */
  untilWorse?: boolean;
  /** Before stopping as sure, ask again where a gain is plausible but not sure (a tie rests on train gains alone). */
  settleGains?: boolean;
  /** Gains settled: from this chance (default 0.5, likelier than not) until this sure (default 0.9). */
  gainsFrom?: number;
  gainsSure?: number;
  /** Gains are settled only while P(better) is below this (default 1: always): a sum this sure outlasts a fluke among its gains. */
  gainsUntil?: number;
  /**
   * The noise the verdict assumes: each item's own level from the run's mix; where the run kept
   * only its flip tally, every level it leaves plausible (a gate's accept), its estimate alone (a
   * train check's screen, which the gate checks again), or its cautious bound (a tie, which has no
   * validation evidence of its own).
   */
  noise?: 'averaged' | 'estimate' | 'cautious';
  /** Ask again where a change is plausible even once P(better) cannot reach `accept` (a tie needs to know what was lost). */
  settleAll?: boolean;
  /**
   * An accept's verdict: the candidate may change no item at all (NEUTRAL_PRIOR), which its samples
   * must rule out. A screen's is not: it passes a candidate on to a verdict that does.
   */
  neutral?: boolean;
}

export interface Weighed extends Comparison {
  posterior: PosteriorVerdict;
}

/** Candidate items a gate scores per wave: fixed, so where it stops never depends on the concurrency. */
export const GATE_WAVE = 8;

/** Items whose chance of having changed is at least this are asked again while their samples last. */
const PLAUSIBLE = 0.05;
/** A side is asked again only if one more answer from it tells at least this share of what one from the other would. */
const LESS_TELLING = 0.25;
/** A loss this likely is settled: the repair may read it. */
const SURE = 0.9;
/** A verdict this sure the candidate is worse stops, its losses as they stand (`untilWorse`). */
const SURELY_WORSE = 0.99;

const asSample = (r: RolloutRow): Sample => ({ hard: r.hard, soft: r.soft });
const tallyOf = (rows: readonly RolloutRow[] | undefined): Tally => ({
  passes: (rows ?? []).filter((r) => isPass(r.hard)).length,
  n: rows?.length ?? 0,
});

/** Each step's fitted noise mix, by its policy's repeats (one array per step). */
const mixes = new WeakMap<readonly RepeatUnit[], NoiseLevel[]>();

/**
 * How a verdict weighs the target's noise: each item its own level, drawn from the run's mix
 * fitted on its repeats (core/verdict/item-noise.ts), when the run kept their answers; else one
 * flip rate for every item — every rate the run's tally leaves plausible, its estimate, or (a tie)
 * its cautious bound — as a run from before did.
 */
function posteriorOf(
  p: NoisePolicy,
  mode: NonNullable<WeighOptions['noise']>,
  prior: (noise: NoiseRates) => ChangePrior,
  changes: readonly ChangeLevel[],
): (t: readonly ItemTallies[]) => PosteriorVerdict {
  if (mode !== 'cautious' && p.repeats?.length) {
    const repeats = p.repeats;
    // A step's verdicts share its policy, and so its repeats: the mix is fitted once per step.
    const mix = mixes.get(repeats) ?? mixes.set(repeats, noiseMixture(repeats)).get(repeats)!;
    return perItemPosterior(mix, prior, changes);
  }
  const rate = mode === 'cautious' ? p.flipUpper : (p.flipMean ?? p.flipUpper);
  // No repeat yet, no estimate: its point value (½) would make every answer say nothing.
  const spread = mode === 'averaged' || (mode === 'estimate' && p.flips?.samples === 0);
  const levels = spread && p.flips ? noiseLevels(p.flips) : [{ miss: rate, guess: rate, weight: 1 }];
  return (t) => posteriorOverNoise(t, levels, prior, changes);
}

export async function weighSkills(ctx: EngineContext, o: WeighOptions): Promise<Weighed> {
  const refPhase = o.refPhase ?? `${o.phase}-current`;
  const max = Math.max(1, o.samples ?? o.policy.maxSamples);
  const p = o.policy;
  const [refHash, candHash] = await Promise.all([skillHash(o.ref), skillHash(o.cand)]);
  const position = new Map(o.itemIds.map((id, i) => [id, i]));
  const refRollout = o.refRows ? null : await rolloutPhase(ctx, { phase: refPhase, skill: o.ref, itemIds: o.itemIds });
  const refFirst = refRollout ? refRollout.rows : o.refRows!.filter((r) => position.has(r.itemId));
  const ref = new Map<string, RolloutRow[]>();
  const cand = new Map<string, RolloutRow[]>();
  for (const r of refFirst) if (r.status === 'ok') ref.set(r.itemId, [r]);
  // Every repeat either skill already holds counts: earlier verdicts drew them. Not this verdict's
  // own (a run resumed mid-verdict): those are asked for again round by round and come from the
  // cache, so a resumed verdict takes the very path, and makes the very calls, of an unbroken one.
  const own = (phase: string) => phase.startsWith(`${o.phase}/r`) || phase.startsWith(`${refPhase}/r`);
  const gather = async (hash: string, side: Map<string, RolloutRow[]>, from: number) => {
    for (const id of o.itemIds) {
      for (let k = from; k < max; k++) {
        const row = await ctx.store.findRollout(ctx.runId, rolloutCacheKey(hash, id, ctx.targetKey, k));
        if (row?.status === 'ok' && !own(row.phase) && (side.get(id)?.length ?? 0) === k)
          side.set(id, [...(side.get(id) ?? []), row]);
        else break;
      }
    }
  };
  await gather(refHash, ref, 1);
  const firstPasses = [...ref.values()].filter((rows) => isPass(rows[0].hard)).length;
  const prior = (noise: NoiseRates) => ({ known: knownPrior(firstPasses, ref.size, noise), change: CHANGE_PRIOR });
  const posterior = posteriorOf(
    p,
    o.noise ?? 'averaged',
    prior,
    o.neutral ? withNeutral(CHANGE_LEVELS) : CHANGE_LEVELS,
  );
  const tallies = (optimistic: boolean): ItemTallies[] =>
    o.itemIds
      .filter((id) => ref.has(id))
      .map((id) => {
        const r = tallyOf(ref.get(id));
        const c = tallyOf(cand.get(id));
        if (!optimistic || !mayAsk(id)) return { itemId: id, ref: r, cand: c };
        // Every answer still to come goes the candidate's way: passes for it, fails for the reference.
        const refGains = c.n === 0 && r.passes === r.n ? 0 : max - r.n;
        return {
          itemId: id,
          ref: { passes: r.passes, n: r.n + refGains },
          cand: { passes: c.passes + (max - c.n), n: max },
        };
      });
  let scoredAll = false;
  // An item may still get answers: not scored yet, or plausibly changed with samples left.
  const mayAsk = (id: string) => {
    if (!cand.has(id)) return !scoredAll;
    const x = last?.items.find((it) => it.itemId === id);
    return !!x && x.up + x.down >= PLAUSIBLE && (tallyOf(ref.get(id)).n < max || tallyOf(cand.get(id)).n < max);
  };
  let last: PosteriorVerdict | null = null;
  const measure = (v: PosteriorVerdict) => (o.lead ? v.pBetter - v.pWorse : v.pBetter);
  const weigh = () => (last = posterior(tallies(false)));
  const reject = o.reject ?? o.accept;
  // Sure: stop. Hopeless: stop too — but first samples on every item when all must be scored, and
  // repeats on every plausible change when they must be settled.
  const samplesLeft = (id: string) => tallyOf(ref.get(id)).n < max || tallyOf(cand.get(id)).n < max;
  const open = (p: number) => p >= (o.lossesFrom ?? PLAUSIBLE) && p < SURE;
  const losses = () => o.settleLosses === true || (o.settleLosses === 'tie' && !!last && measure(last) < o.accept);
  // A plausible loss the repair would read, or a likely gain an accept rests on, still open while samples last.
  const unsettled = (x: ItemChange & { itemId: string }, gains = true) =>
    ((losses() && open(x.down)) ||
      (gains && !!o.settleGains && x.up >= (o.gainsFrom ?? 0.5) && x.up < (o.gainsSure ?? SURE))) &&
    samplesLeft(x.itemId);
  // Gains need settling only on the way to "sure"; a hopeless verdict leaves them.
  const surelyWorse = () => !!o.untilWorse && !!last && last.pWorse >= SURELY_WORSE;
  const lossesOpen = (gains = false) => scoredAll && !surelyWorse() && last!.items.some((x) => unsettled(x, gains));
  const decided = () => {
    if (measure(weigh()) >= o.accept && (scoredAll || o.acceptEarly))
      return !lossesOpen(last!.pBetter < (o.gainsUntil ?? 1));
    if (scoredAll ? o.settleAll : o.scoreAll) return false;
    return (surelyWorse() || measure(posterior(tallies(true))) < reject) && !lossesOpen();
  };
  const take = (rows: readonly RolloutRow[]) => {
    for (const r of rows) if (r.status === 'ok' && !cand.has(r.itemId)) cand.set(r.itemId, [r]);
  };
  const first = await rolloutPhase(ctx, {
    phase: o.phase,
    skill: o.cand,
    itemIds: o.itemIds,
    wave: o.wave,
    canStillWin: (_uh, _us, _lh, _ls, rows) => {
      take(rows);
      return rows.length === o.itemIds.length || !decided();
    },
  });
  take(first.rows);
  scoredAll = first.complete;
  await gather(candHash, cand, 1);
  let resampleCalls = 0;
  const exhausted = new Set<string>();
  // Repeats, a round at a time, where a change is plausible, until the verdict is sure either way.
  while (first.complete && !decided()) {
    const asks: { side: 'ref' | 'cand'; id: string; k: number }[] = [];
    // Sure or hopeless already, and only losses or gains left to settle: only those are asked again.
    const settling = measure(last!) >= o.accept || measure(posterior(tallies(true))) < reject;
    const settles = !!(o.settleLosses || o.settleGains);
    for (const x of last!.items) {
      const gains = measure(last!) >= o.accept && last!.pBetter < (o.gainsUntil ?? 1);
      if (!cand.has(x.itemId) || x.up + x.down < PLAUSIBLE || (settling && settles && !unsettled(x, gains))) continue;
      const held = (side: 'ref' | 'cand') => (side === 'ref' ? ref : cand).get(x.itemId)!.length;
      const sides = (['ref', 'cand'] as const).filter(
        (side) => held(side) < max && !exhausted.has(`${side}|${x.itemId}`),
      );
      // One more answer moves what is known of a side by 2·q·(1−q)·(1−miss−guess) on average (q: the chance it
      // knows the item); the noise is the item's on both sides, so q·(1−q) ranks them. A side whose answers
      // already say (beside a fail, a pass is rarely a guess) waits until the other's doubt is within four times
      // its own, or the other has no samples left.
      const known = { ref: x.refKnown, cand: x.candKnown };
      const doubt = (side: 'ref' | 'cand') => known[side] * (1 - known[side]);
      const most = Math.max(...sides.map(doubt));
      for (const side of sides)
        if (!ctx.config.askDoubtfulSide || doubt(side) >= LESS_TELLING * most)
          asks.push({ side, id: x.itemId, k: held(side) });
    }
    if (!asks.length) break;
    resampleCalls += await askAgain(ctx, {
      phase: o.phase,
      refPhase,
      skills: { ref: o.ref, cand: o.cand },
      asks,
      samples: { ref, cand },
      position,
      exhausted,
    });
  }
  weigh();
  const pairs: ItemPair[] = o.itemIds
    .filter((id) => cand.has(id) || ref.has(id))
    .map((id) => ({
      itemId: id,
      ref: (ref.get(id) ?? []).map(asSample),
      cand: (cand.get(id) ?? []).map(asSample),
    }));
  const vopts: ValueOptions = { metric: 'hard', margin: o.policy.margin };
  const v = pairedVerdict(pairs, vopts);
  const units: FlipUnits = {};
  for (const [hash, side] of [
    [refHash, ref],
    [candHash, cand],
  ] as const)
    for (const [id, rows] of side) if (rows.length > 1) units[`${hash}|${id}`] = rows.map((x) => isPass(x.hard));
  const verdictNow = last!;
  return {
    // The lists a repair and the tie-break read: items more likely gained or lost than not.
    verdict: {
      ...v,
      improved: verdictNow.improved,
      regressed: verdictNow.regressed,
      posterior: {
        pBetter: verdictNow.pBetter,
        pWorse: verdictNow.pWorse,
        gain: verdictNow.gain,
        refKnown: verdictNow.refKnown,
        candKnown: verdictNow.candKnown,
        refRate: verdictNow.refRate,
        candRate: verdictNow.candRate,
      },
    },
    pairs,
    candRows: first.rows,
    refRows: refFirst,
    complete: first.complete,
    calls: first.calls + resampleCalls + (refRollout?.calls ?? 0),
    resampleCalls,
    units,
    posterior: verdictNow,
  };
}

/**
 * One round: one more sample for every side asked, all at once (grouped by side and sample number,
 * the groups side by side). The round's calls go to the session's verdict rounds. Returns them.
 */
async function askAgain(
  ctx: EngineContext,
  a: {
    phase: string;
    refPhase: string;
    skills: { ref: string; cand: string };
    asks: readonly { side: 'ref' | 'cand'; id: string; k: number }[];
    samples: { ref: Map<string, RolloutRow[]>; cand: Map<string, RolloutRow[]> };
    position: ReadonlyMap<string, number>;
    exhausted: Set<string>;
  },
): Promise<number> {
  const groups = new Map<string, (typeof a.asks)[number][]>();
  for (const x of a.asks) groups.set(`${x.side}|${x.k}`, [...(groups.get(`${x.side}|${x.k}`) ?? []), x]);
  const results = await Promise.all(
    [...groups.values()].map((g) =>
      rolloutPhase(ctx, {
        phase: `${g[0].side === 'ref' ? a.refPhase : a.phase}/r${g[0].k}`,
        skill: a.skills[g[0].side],
        itemIds: g.map((x) => x.id),
        orders: g.map((x) => a.position.get(x.id) ?? 0),
        repeat: g[0].k,
      }).then((res) => ({ g, res })),
    ),
  );
  let calls = 0;
  for (const { g, res } of results) {
    calls += res.calls;
    // An errored sample is not an answer: that side keeps the samples it has and is not asked again.
    res.rows.forEach((row, i) => {
      if (row.status === 'ok') a.samples[g[i].side].get(g[i].id)!.push(row);
      else a.exhausted.add(`${g[i].side}|${g[i].id}`);
    });
  }
  if (calls) ctx.verdictRounds.push(calls);
  return calls;
}
