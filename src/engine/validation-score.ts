/**
 * Scoring a skill on the selection (validation) split for the gate (algorithm doc §2.5, §2.6).
 * A selection cache maps skill hash → score, so an identical skill is never re-rolled (and a
 * candidate equal to the current skill is a free reject). With early stop, evaluation ends as
 * soon as the candidate can no longer beat the score it must beat: the decision is the same
 * as a full evaluation's, and the stored score is marked as an upper bound, never reused as a
 * full score.
 */
import { isGain, isTie } from '../core/verdict/epsilon';
import { skillHash } from '../core/basics/hash';
import { gateScore, semanticDensity, type GateScoreOptions } from '../core/verdict/gate';
import type { NoisePolicy } from '../core/verdict/noise';
import type { PairedVerdict } from '../core/verdict/paired-verdict';
import type { Comparison, FlipUnits } from './verdict';
import { GATE_WAVE, type WeighOptions } from './weigh';
import { compare } from './comparator';
import { injectEmptySlowUpdate } from '../core/skill/protected-regions';
import type { RunConfig } from '../core/config/run-config';
import type { EngineContext } from './context';
import type { RecheckRecord } from './artifacts';
import { meanScores, okRows, rolloutPhase, storedFirstSamples } from './rollout';
import type { GateState } from '../core/verdict/gate';
import type { RolloutRow, RunDataset, SelectionScore } from './types';

/**
 * What validation scoring works on: the run's gate state, read only, and its memo of scores by
 * skill hash, which scoring fills (an identical skill is never rolled out twice). A run state is
 * one; the step passes its own, since it is the writer of both.
 */
export interface Scoring {
  readonly gate: Readonly<GateState>;
  selectionCache: Record<string, SelectionScore>;
}

/** P(better) at which a gate's accept no longer waits for each of its gains to be settled. */
const SURE_GAIN = 0.99;

/**
 * How a posterior verdict asks whether to accept a candidate: the body's gate and the description's
 * (activation.ts). `samples`: most per side and item, when an undecided verdict buys more.
 */
export function acceptAsk(
  c: RunConfig,
  samples?: number,
): Pick<WeighOptions, 'accept' | 'samples' | 'wave' | 'neutral' | 'settleGains' | 'gainsUntil'> {
  return {
    accept: c.gateConfidence,
    ...(samples ? { samples } : {}),
    wave: GATE_WAVE,
    // An accept's verdict: the candidate may have changed nothing, which its samples must rule out.
    neutral: true,
    // An accept rests on the items it gained: each is asked again until settled (a fluke rarely repeats).
    settleGains: true,
    // …unless the candidate is better beyond doubt: many gains, one fluke among them changes nothing.
    gainsUntil: SURE_GAIN,
  };
}

export function gateOptions(c: RunConfig): GateScoreOptions {
  return { metric: c.gateMetric, mixedWeight: c.gateMixedWeight, densityWeight: c.densityWeight };
}

export function selectionIds(c: RunConfig, data: RunDataset): string[] {
  return c.selectionLimit > 0 ? data.splits.val.slice(0, c.selectionLimit) : data.splits.val;
}

export interface SelectionOutcome {
  hash: string;
  score: SelectionScore;
  /** The gate score (an upper bound when the evaluation stopped early). */
  gate: number;
  cacheHit: boolean;
  calls: number;
}

export interface SelectionOptions {
  /** Early stop: the score the skill must beat. */
  mustBeat?: number;
  /** Keep evaluating while a tie is still reachable (the tie-break needs the full score). */
  allowTie?: boolean;
  /** A score carried over from another skill (never measured for this one) is not reused. */
  measured?: boolean;
}

export async function scoreOnSelection(
  ctx: EngineContext,
  s: Scoring,
  data: RunDataset,
  phase: string,
  skill: string,
  o: SelectionOptions = {},
): Promise<SelectionOutcome> {
  const { mustBeat, allowTie = false } = o;
  const hash = await skillHash(skill);
  const opts = gateOptions(ctx.config);
  const cached = s.selectionCache[hash];
  if (cached?.complete && !(o.measured && cached.carried))
    return { hash, score: cached, gate: gateScore(cached.hard, cached.soft, opts, skill), cacheHit: true, calls: 0 };
  const canStillWin =
    ctx.config.earlyStopGate && mustBeat !== undefined
      ? (uh: number, us: number) => {
          const best = gateScore(uh, us, opts, skill);
          return allowTie ? !isGain(mustBeat - best) : best > mustBeat;
        }
      : undefined;
  const r = await rolloutPhase(ctx, { phase, skill, itemIds: selectionIds(ctx.config, data), canStillWin });
  const score = firstSampleScore(r.rows, selectionIds(ctx.config, data).length, r.complete);
  if (!cached || score.complete) s.selectionCache[hash] = score; // a measured score replaces a carried one
  return { hash, score, gate: gateScore(score.hard, score.soft, opts, skill), cacheHit: false, calls: r.calls };
}

export interface SelectionComparison {
  /** The candidate's own first-sample score on validation (an upper bound when it stopped early). */
  outcome: SelectionOutcome;
  cmp: Comparison;
  /** The candidate's gain over the reference: the mean per-item gain, plus the density bonus's difference. */
  gain: number;
  /** Both skills' gate scores on the items both were scored on, from their settled values. */
  refScore: number;
  candScore: number;
}

/**
 * Score a candidate on validation against a reference skill, item by item (engine/verdict.ts):
 * the gate of issue #19. With early stop, scoring ends once the candidate can no longer beat the
 * reference (or tie it, when a tie may still be accepted) even if every item left went its way.
 */
export async function compareOnSelection(
  ctx: EngineContext,
  s: Scoring,
  data: RunDataset,
  phase: string,
  reference: string,
  candidate: string,
  o: {
    policy: NoisePolicy;
    allowTie?: boolean;
    earlyStop?: boolean;
    gather?: boolean;
    /** Posterior verdicts: most samples per side and item (default the run's): an undecided gate asks more. */
    samples?: number;
  },
): Promise<SelectionComparison> {
  const c = ctx.config;
  const hash = await skillHash(candidate);
  const ids = selectionIds(c, data);
  const opts = gateOptions(c);
  const density = (skill: string) =>
    opts.densityWeight && opts.densityWeight > 0 ? opts.densityWeight * semanticDensity(skill, opts.leadingWords) : 0;
  const densityGain = density(candidate) - density(reference);
  const cached = s.selectionCache[hash];
  const cacheHit = !!cached?.complete && !cached.carried;
  const earlyStop = (o.earlyStop ?? true) && c.earlyStopGate;
  const continueWhile = earlyStop
    ? (_sofar: unknown, gainSum: number, left: number) => {
        const best = (gainSum + left) / Math.max(1, ids.length) + densityGain;
        return o.allowTie ? !isGain(-best) : isGain(best);
      }
    : undefined;
  // A reference whose score was carried over (the epoch placeholder: same body) reuses the rows it came from.
  const carried = s.selectionCache[await skillHash(reference)];
  const refRows =
    carried?.carried && carried.carriedFrom ? await storedFirstSamples(ctx, carried.carriedFrom, ids) : null;
  const cmp = await compare(ctx, {
    phase,
    ref: reference,
    cand: candidate,
    itemIds: ids,
    ...(refRows ? { refRows } : {}),
    policy: o.policy,
    mean: {
      values: { metric: c.gateMetric, mixedWeight: c.gateMixedWeight },
      continueWhile,
      ...(o.gather ? { gather: { upTo: o.policy.maxSamples } } : {}),
    },
    // A posterior weighs every sample either skill holds and stops as soon as it is sure (weigh.ts).
    posterior: {
      ...acceptAsk(c, o.samples),
      // A tie needs every item, and to know which were lost; a comparison that may not stop early, every item.
      scoreAll: !!o.allowTie || !earlyStop,
      settleAll: !!o.allowTie,
      // A tie is taken only with no item likely lost: a first answer that slipped is asked again.
      // Only while not yet sure: a sure gain accepts without a tie (issue #40: samples bought after that decide nothing).
      settleLosses: o.allowTie ? 'tie' : false,
    },
  });
  const score = firstSampleScore(cmp.candRows, ids.length, cmp.complete);
  if (!cached || score.complete) s.selectionCache[hash] = score;
  const outcome = { hash, score, gate: gateScore(score.hard, score.soft, opts, candidate), cacheHit, calls: cmp.calls };
  return { outcome, cmp, ...onGateScale(cmp.verdict, o.policy, density, reference, candidate) };
}

/**
 * The candidate's gain and both skills' scores on the gate's scale. Posterior verdicts on a target
 * seen to flip score each side by its expected pass rate: the candidate's drawn toward the
 * reference where its own samples say little (the selection it survived), on a measured score's
 * scale. A target that never changed an answer has no luck to correct for: its scores are as
 * measured. Mean verdicts add each skill's density bonus.
 */
function onGateScale(
  v: PairedVerdict,
  policy: NoisePolicy,
  density: (skill: string) => number,
  reference: string,
  candidate: string,
): Pick<SelectionComparison, 'gain' | 'refScore' | 'candScore'> {
  if (v.posterior) {
    const steady = (policy.flips?.minority ?? 0) === 0;
    return {
      gain: v.posterior.gain / Math.max(1, v.n),
      refScore: steady ? v.refScore : v.posterior.refRate,
      candScore: steady ? v.candScore : v.posterior.candRate,
    };
  }
  return {
    gain: v.gain + (density(candidate) - density(reference)),
    refScore: v.refScore + density(reference),
    candScore: v.candScore + density(candidate),
  };
}

/**
 * A skill's score on the selection from its first samples: their mean over the items that
 * answered — or, stopped early, an upper bound: what it would score if every item left passed.
 */
function firstSampleScore(rows: readonly RolloutRow[], items: number, complete: boolean): SelectionScore {
  const m = meanScores(rows);
  if (complete) {
    const errors = rows.length - m.n;
    return { ...m, complete: true, ...(errors ? { errors } : {}) };
  }
  const ok = okRows(rows);
  const remaining = items - rows.length;
  const sum = (f: 'hard' | 'soft') => ok.reduce((a, x) => a + x[f], 0);
  return {
    hard: (sum('hard') + remaining) / (ok.length + remaining),
    soft: (sum('soft') + remaining) / (ok.length + remaining),
    n: ok.length,
    complete: false,
  };
}

/** Two texts are the same skill for the gate: equal, or one is the other with an empty epoch block. */
export function sameSkill(a: string, b: string): boolean {
  return a === b || injectEmptySlowUpdate(a) === b || injectEmptySlowUpdate(b) === a;
}

/** A candidate held against the run's best skill: the gate's phase it was scored in, and the noise policy. */
export interface BestAsk {
  phase: string;
  candidate: string;
  policy: NoisePolicy;
}

/**
 * Whether a candidate that beat (or tied) the current skill also beats the best one. When current
 * and best are the same skill, the gate's verdict already answered; otherwise the candidate is
 * compared with the best item by item (a stored best score may be a lucky draw: issue #19).
 */
export async function versusBest(
  ctx: EngineContext,
  s: Scoring,
  data: RunDataset,
  { phase, candidate, policy }: BestAsk,
): Promise<{ beats: boolean; ties: boolean; units: FlipUnits }> {
  if (sameSkill(s.gate.currentSkill, s.gate.bestSkill)) return { beats: true, ties: true, units: {} };
  const cmp = await compareOnSelection(ctx, s, data, `${phase}-best`, s.gate.bestSkill, candidate, {
    policy,
    earlyStop: false,
  });
  return { ...beatsOrTies(ctx.config, cmp), units: cmp.cmp.units };
}

/** Whether a comparison's candidate beats its reference, or at least ties it (posterior: surely better; no loss likely). */
export function beatsOrTies(c: RunConfig, cmp: SelectionComparison): { beats: boolean; ties: boolean } {
  const p = cmp.cmp.verdict.posterior;
  if (!p) return { beats: isGain(cmp.gain), ties: isTie(cmp.gain) };
  return { beats: p.pBetter >= c.gateConfidence, ties: notWorse(cmp.cmp.verdict) };
}

/** Posterior verdicts: no item more likely lost than not, and a loss overall no likelier than not. */
export function notWorse(v: { regressed: readonly string[]; posterior?: { pWorse: number } }): boolean {
  return v.regressed.length === 0 && (v.posterior?.pWorse ?? 0) <= 0.5;
}

export interface BestRecheck extends RecheckRecord {
  units: FlipUnits;
}

/**
 * The re-check of a would-be new best against the winner's curse (issue #19): a candidate that won
 * its verdicts is, among many noisy comparisons, likely to have been lucky. It is scored once more
 * on every validation item with a sample no verdict has used, and compared with the best on every
 * sample each holds (the best got its own fresh samples when it became best); only if it still
 * wins does it become best. The fresh mean is what the run reports as its score.
 */
export async function recheckAsBest(
  ctx: EngineContext,
  s: Scoring,
  data: RunDataset,
  { phase, candidate, policy }: BestAsk,
): Promise<BestRecheck> {
  const ids = selectionIds(ctx.config, data);
  // A sample number settling never draws (it stops below maxSamples): fresh for every item.
  const fresh = await rolloutPhase(ctx, {
    phase: `${phase}/recheck`,
    skill: candidate,
    itemIds: ids,
    repeat: policy.maxSamples,
  });
  const cmp = await compareOnSelection(ctx, s, data, `${phase}-best`, s.gate.bestSkill, candidate, {
    policy,
    earlyStop: false,
    gather: true,
  });
  return {
    confirmed: beatsOrTies(ctx.config, cmp).beats,
    fresh: gateScore(fresh.hard, fresh.soft, gateOptions(ctx.config), candidate),
    n: fresh.n,
    best: cmp.refScore,
    candidate: cmp.candScore,
    gain: cmp.gain,
    calls: fresh.calls + cmp.cmp.calls,
    units: cmp.cmp.units,
  };
}
