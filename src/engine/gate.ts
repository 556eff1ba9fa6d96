/**
 * The validation gate (algorithm doc §2.6, DESIGN §7b): the one place that decides whether a skill
 * is accepted. A step's candidate, the slow update's guidance and the final skill's promotion to
 * best all call `gateCandidate`; the activation track's description goes through `judge`, the
 * same decision on its own comparison. Every piece applies wherever it can, and where it cannot
 * the reason is in the input, not in a second copy of the gate:
 * - the comparison: item by item, noise-aware (engine/verdict.ts), against the current skill —
 *   or, for the final promotion, against the best one (the final skill already is current);
 * - a strict gain accepts (core/verdict/epsilon.ts); a tie only by the tie-break, which needs a strict win
 *   on a train batch (`check`): a slow update, the final promotion and a description have no
 *   train batch, so they pass `check: null` and a tie rejects them;
 * - the run's gate rule (core/verdict/gate-rules.ts) on the items' settled values, for every accept;
 * - against the winner's curse, a would-be new best is re-checked on fresh samples (noisy targets,
 *   `recheckBest`). The description track keeps no best apart from the description it has: its
 *   verdict against that one is already the new-best check, so it has no re-check.
 */
import { isGain, isTie } from '../core/verdict/epsilon';
import { tieBreakAccepts, type ItemDelta } from '../core/verdict/credit';
import {
  acceptPaired,
  acceptTie,
  evaluateGate,
  isAccept,
  type GateDecision,
  type GateMetric,
  type GateState,
} from '../core/verdict/gate';
import { judgeByRule, type GateRuleVerdict } from '../core/verdict/gate-rules';
import { resamples, type NoisePolicy } from '../core/verdict/noise';
import { hardValue, type ItemPair, type PairedVerdict } from '../core/verdict/paired-verdict';
import { testTries, type RunConfig } from '../core/config/run-config';
import type { EngineContext } from './context';
import type { RunDataset } from './types';
import {
  beatsOrTies,
  compareOnSelection,
  notWorse,
  recheckAsBest,
  scoreOnSelection,
  versusBest,
  type BestRecheck,
  type Scoring,
  type SelectionOutcome,
} from './validation-score';
import type { Comparison, FlipUnits } from './verdict';
import type { EvidenceRecord, OthersVerdict, StabilityRecord } from './artifacts';
import type { Weighed } from './weigh';
import { measureStability } from './stability';
import { pooledBetter, type ItemShift } from '../core/verdict/paired-posterior';
import { othersHold } from './other-targets';

/** What a step's train check said of its candidate: the tie-break reads `strict`. */
export interface TrainVerdict {
  improved: boolean;
  strict: boolean;
  /**
   * Posterior verdicts: the check weighs only as far as "more likely better than not"; whether it is
   * better with the gate's confidence is asked only when a tie-break could use it (more repeats).
   */
  confirmStrict?: () => Promise<boolean>;
  /** Posterior verdicts: each train item's chance of having been gained and lost (pooled with validation's for a tie). */
  changes?: readonly ItemShift[];
}

export interface GateInput {
  /** The phase of the candidate's validation rollouts. */
  phase: string;
  /** What the candidate meets: the current skill (a step, the slow update) or the best (the final promotion). */
  against: 'current' | 'best';
  candidate: string;
  /** The version origin and step the candidate would be accepted under. */
  origin: string;
  step: number;
  /** The train check's verdict; null where there is no train batch (slow update, final promotion). */
  check: TrainVerdict | null;
  policy: NoisePolicy;
}

export interface GatedCandidate {
  decision: GateDecision;
  /** Null when the train check rejected the candidate before validation. */
  selection: SelectionOutcome | null;
  /** The item-by-item verdict against the reference (null without a validation comparison). */
  verdict: PairedVerdict | null;
  /** Both skills' gate scores on the items both were scored on, from their settled values, and the gain. */
  compared: { current: number; candidate: number; gain: number; calls: number; resampleCalls: number } | null;
  tieBreak: { val: ItemDelta; accepted: boolean } | null;
  /** The gate rule's verdict on an accept (null under the mean rule, or when nothing was accepted). */
  rule: GateRuleVerdict | null;
  /** Repeated samples the verdict drew, for the run's flip tally. */
  units: FlipUnits;
  /** The re-check of a would-be new best on fresh samples (noisy targets, issue #19). */
  recheck?: BestRecheck | null;
  /** An undecided verdict's extra samples (issue #40); null when it decided on the run's samples. */
  evidence?: EvidenceRecord | null;
  /** pass^k of both sides when `gateStability` asked (issue #43); null otherwise. */
  stability?: StabilityRecord | null;
  /** The other targets' verdicts on an accept (issue #42 item 5); null without other targets or an accept. */
  targets?: OthersVerdict | null;
}

/**
 * The candidate's score the gate decided on, in the measure of the run's current and best scores:
 * the re-check's when it confirmed a new best, else its settled score against the reference, else
 * (forced in, never compared) its own measured score. Null when validation never scored it.
 */
export function decidedScore(g: Pick<GatedCandidate, 'selection' | 'compared' | 'recheck'>): number | null {
  if (g.recheck?.confirmed) return g.recheck.candidate;
  return g.compared?.candidate ?? g.selection?.gate ?? null;
}

/** An undecided verdict asks up to this many times the run's samples per side and item. */
export const EVIDENCE_SAMPLES = 2;

/**
 * Undecided (issue #40): not sure enough to accept, yet "better" is plausible and "worse" no likelier
 * than not, on a candidate the train check found better. A tie on a small, noisy validation set is
 * not evidence of no gain: such a verdict asks for more samples before it says no.
 */
export function undecided(c: RunConfig, p: { pBetter: number; pWorse: number }): boolean {
  return p.pBetter >= UNDECIDED_FROM && p.pBetter < c.gateConfidence && p.pWorse <= 0.5;
}

/** Below this chance of "better" a verdict has said no: more samples would rarely turn it. */
export const UNDECIDED_FROM = 0.2;

/**
 * Undecided on the run's samples (`undecided`): the same verdict weighed on with up to
 * EVIDENCE_SAMPLES times the run's samples per side and item, its samples so far counted — the
 * body's gate and the description's ask this one way. Null when the first verdict decided, was not
 * complete, or the target never flips (more answers would say the same). The comparison returned
 * carries both comparisons' calls and repeats; the record says what was bought and how it moved.
 */
export async function buyEvidence<T extends { cmp: Comparison }>(
  c: RunConfig,
  policy: NoisePolicy,
  first: T,
  again: (samples: number) => Promise<T>,
): Promise<{ more: T; evidence: EvidenceRecord } | null> {
  const before = first.cmp.verdict.posterior;
  if (!before || !first.cmp.complete || !undecided(c, before) || !resamples(policy)) return null;
  const samples = EVIDENCE_SAMPLES * policy.maxSamples;
  const more = await again(samples);
  const after = more.cmp.verdict.posterior!;
  const cmp: Comparison = {
    ...more.cmp,
    calls: first.cmp.calls + more.cmp.calls,
    resampleCalls: first.cmp.resampleCalls + more.cmp.resampleCalls,
    units: { ...first.cmp.units, ...more.cmp.units },
  };
  return {
    more: { ...more, cmp },
    evidence: {
      asked: 'samples',
      samples,
      calls: more.cmp.calls,
      before: { pBetter: before.pBetter, pWorse: before.pWorse },
      after: { pBetter: after.pBetter, pWorse: after.pWorse },
    },
  };
}

/** A finished comparison, as the gate reads it. */
export interface Compared {
  complete: boolean;
  gain: number;
  verdict: PairedVerdict;
  pairs: readonly ItemPair[];
}

/** The gate's reading of a comparison: a strict gain, a tie the tie-break took, or neither. */
export interface Judgement {
  outcome: 'gain' | 'tie' | 'none';
  tieBreak: { val: ItemDelta; accepted: boolean } | null;
  /** The gate rule's verdict when the outcome would accept (null under the mean rule). */
  rule: GateRuleVerdict | null;
}

/** A paired verdict as the older item-delta shape (the tie-break and the step inspector read it). */
function deltaOf(v: PairedVerdict): ItemDelta {
  return {
    n: v.n,
    regressed: v.regressed,
    improved: v.improved,
    before: { hard: v.refScore, soft: v.refScore },
    after: { hard: v.candScore, soft: v.candScore },
  };
}

const meanSoft = (xs: readonly { soft: number }[]) => (xs.length ? xs.reduce((a, x) => a + x.soft, 0) / xs.length : 0);

/**
 * The run's gate rule on the items both sides were scored on (their settled values): null under
 * the mean rule (runs made before the option have none). Costs no calls.
 */
export function gateRuleVerdict(
  c: RunConfig,
  a: { pairs: readonly ItemPair[]; margin: number; metric?: GateMetric },
): GateRuleVerdict | null {
  const rule = c.gateRule ?? 'mean';
  if (rule === 'mean') return null;
  const both = a.pairs.filter((p) => p.ref.length && p.cand.length);
  const side = (f: 'ref' | 'cand') =>
    both.map((p) => ({ itemId: p.itemId, hard: hardValue(p[f], a.margin), soft: meanSoft(p[f]) }));
  return judgeByRule(side('ref'), side('cand'), {
    rule,
    metric: a.metric ?? c.gateMetric,
    mixedWeight: c.gateMixedWeight,
    k: c.gateSignificanceK,
  });
}

/**
 * The gate's decision on a finished comparison (pure): complete and a strict gain accepts; a tie
 * goes to the tie-break when `tie` says it may (a strict win on a train batch); an accept then
 * meets the gate rule. `metric` overrides the run's gate metric (the description track's is hard).
 */
/**
 * Posterior verdicts take a tie only when the train check's items and validation's together make
 * the candidate better with the gate's confidence (issue #32): a few train items that look gained
 * on a noisy target, beside a validation that moved nowhere, are most likely noise.
 */
function pooledSure(c: RunConfig, check: TrainVerdict | null | undefined, cmp: Comparison): boolean {
  const val = (cmp as Partial<Weighed>).posterior?.items;
  if (!val || !check?.changes) return true;
  return pooledBetter([...check.changes, ...val]) >= c.gateConfidence;
}

export function judge(
  c: RunConfig,
  cmp: Compared,
  o: { margin: number; tie: { trainStrict: boolean } | null; metric?: GateMetric },
): Judgement {
  const p = cmp.verdict.posterior;
  if (p) {
    // Posterior verdicts (issue #32): sure enough that it is better — a sequential verdict may have
    // stopped as soon as it was; else a tie the tie-break takes: every item scored, none likely lost.
    let outcome: Judgement['outcome'] = p.pBetter >= c.gateConfidence ? 'gain' : 'none';
    let tieBreak: Judgement['tieBreak'] = null;
    if (outcome === 'none' && o.tie && cmp.complete) {
      const accepted = o.tie.trainStrict && notWorse(cmp.verdict);
      tieBreak = { val: deltaOf(cmp.verdict), accepted };
      if (accepted) outcome = 'tie';
    }
    const rule =
      outcome === 'none' ? null : gateRuleVerdict(c, { pairs: cmp.pairs, margin: o.margin, metric: o.metric });
    return { outcome, tieBreak, rule };
  }
  if (!cmp.complete) return { outcome: 'none', tieBreak: null, rule: null };
  let outcome: Judgement['outcome'] = isGain(cmp.gain) ? 'gain' : 'none';
  let tieBreak: Judgement['tieBreak'] = null;
  if (outcome === 'none' && o.tie && isTie(cmp.gain)) {
    // A tie: the tie-break reads the settled item-by-item changes.
    const val = deltaOf(cmp.verdict);
    const accepted = tieBreakAccepts({
      candidateScore: cmp.gain,
      currentScore: 0,
      trainStrictlyBetter: o.tie.trainStrict,
      val,
    });
    tieBreak = { val, accepted };
    if (accepted) outcome = 'tie';
  }
  const rule = outcome === 'none' ? null : gateRuleVerdict(c, { pairs: cmp.pairs, margin: o.margin, metric: o.metric });
  return { outcome, tieBreak, rule };
}

/** The gate's answer to a candidate that is the skill it would replace: rejected, nothing measured. */
export function unchangedCandidate(state: GateState): GatedCandidate {
  const decision: GateDecision = { action: 'reject', state };
  return { decision, selection: null, verdict: null, compared: null, tieBreak: null, rule: null, units: {} };
}

/**
 * Gate a candidate: the train check's verdict, then the comparison on validation against the
 * current skill (or the best), the judgement, the best's own verdict, and the re-check of a
 * would-be new best. Returns the decision; the caller records it and writes the state.
 */
export async function gateCandidate(
  ctx: EngineContext,
  s: Scoring,
  data: RunDataset,
  a: GateInput,
): Promise<GatedCandidate> {
  const c = ctx.config;
  const before = s.gate;
  const reject: GateDecision = { action: 'reject', state: before };
  const none = { verdict: null, compared: null, tieBreak: null, rule: null, units: {} };
  if (a.check && !a.check.improved) return { decision: reject, selection: null, ...none };
  const proposal = { skill: a.candidate, origin: a.origin, step: a.step };
  if (!c.useGate && a.against === 'current') {
    // Force-accept: measured, never compared. (Becoming best is always compared: the final promotion.)
    const g = await scoreOnSelection(ctx, s, data, a.phase, a.candidate);
    return { decision: evaluateGate(before, { ...proposal, score: g.gate }, false), selection: g, ...none };
  }
  const reference = a.against === 'best' ? before.bestSkill : before.currentSkill;
  // Posterior verdicts confirm the train check's strictness only when a tie comes to need it.
  const mayTie = c.useGate && c.tieBreak && !!(a.check?.strict || (a.check?.improved && a.check.confirmStrict));
  const compare = (samples?: number) =>
    compareOnSelection(ctx, s, data, a.phase, reference, a.candidate, {
      policy: a.policy,
      allowTie: mayTie,
      ...(a.against === 'best' ? { earlyStop: false } : {}),
      ...(samples ? { samples } : {}),
    });
  let cmp = await compare();
  // Only a candidate the train check found better: a tie with nothing behind it is not worth buying for.
  const bought = a.check?.improved ? await buyEvidence(c, a.policy, cmp, compare) : null;
  const evidence = bought?.evidence ?? null;
  // The candidate was measured by the first comparison, not read from a cache: its outcome says so.
  if (bought)
    cmp = {
      ...bought.more,
      outcome: { ...bought.more.outcome, cacheHit: cmp.outcome.cacheHit, calls: bought.more.cmp.calls },
    };
  const units: FlipUnits = { ...cmp.cmp.units };
  const base = {
    selection: cmp.outcome,
    verdict: cmp.cmp.verdict,
    compared: {
      current: cmp.refScore,
      candidate: cmp.candScore,
      gain: cmp.gain,
      calls: cmp.cmp.calls,
      resampleCalls: cmp.cmp.resampleCalls,
    },
  };
  const compared: Compared = {
    complete: cmp.cmp.complete,
    gain: cmp.gain,
    verdict: cmp.cmp.verdict,
    pairs: cmp.cmp.pairs,
  };
  const tie = mayTie && a.candidate !== reference ? { trainStrict: true } : null;
  let j = judge(c, compared, { margin: a.policy.margin, tie });
  if (j.outcome === 'tie' && a.check?.confirmStrict) {
    // The tie-break would take it: now make sure the train check is strictly better, its gains settled.
    const strict = await a.check.confirmStrict();
    if (!strict) j = judge(c, compared, { margin: a.policy.margin, tie: { trainStrict: false } });
  }
  if (j.outcome === 'tie' && !pooledSure(c, a.check, cmp.cmp))
    j = judge(c, compared, { margin: a.policy.margin, tie: { trainStrict: false } });
  const scored = { ...proposal, score: cmp.candScore };
  // Against the best, the comparison is the best's verdict; else current and best are the same
  // skill most of the time, and when not the candidate meets the best too.
  const best = async () => {
    if (a.against === 'best') return beatsOrTies(c, cmp);
    const b = await versusBest(ctx, s, data, a);
    Object.assign(units, b.units);
    return b;
  };
  let decision = reject;
  if (j.outcome === 'gain') decision = acceptPaired(before, scored, (await best()).beats);
  else if (j.outcome === 'tie') {
    const b = await best();
    decision = acceptTie(before, scored, b.beats || b.ties);
  }
  if (j.rule && !j.rule.allowed) decision = reject;
  // Several targets (issue #42 item 5): an accept holds only if no other target finds the candidate worse.
  const targets = isAccept(decision.action)
    ? await othersHold(ctx, data, { phase: a.phase, reference, candidate: a.candidate, policy: a.policy })
    : null;
  if (targets && !targets.held) decision = reject;
  let stability: StabilityRecord | null = null;
  if (c.gateStability && isAccept(decision.action)) {
    // Better on average is not enough: the candidate must pass its items at least as reliably (pass^k).
    stability = await measureStability(ctx, {
      phase: a.phase,
      skills: { ref: reference, cand: a.candidate },
      pairs: cmp.cmp.pairs,
      k: Math.max(2, testTries(c, ctx.agent.active)),
    });
    if (!stability.held) decision = reject;
  }
  let recheck: BestRecheck | null = null;
  if (
    c.recheckBest &&
    resamples(a.policy) &&
    isAccept(decision.action) &&
    decision.state.bestSkill !== before.bestSkill
  ) {
    // Against the winner's curse: only a candidate that still wins on fresh samples becomes best.
    recheck = await recheckAsBest(ctx, s, data, a);
    Object.assign(units, recheck.units);
    const { bestSkill, bestScore, bestStep, bestOrigin } = before;
    decision = recheck.confirmed
      ? { ...decision, state: { ...decision.state, currentScore: recheck.candidate, bestScore: recheck.candidate } }
      : { action: 'accept', state: { ...decision.state, bestSkill, bestScore, bestStep, bestOrigin } };
  }
  return { decision, ...base, units, tieBreak: j.tieBreak, rule: j.rule, recheck, evidence, stability, targets };
}
