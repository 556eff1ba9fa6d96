/**
 * The validation gate for one candidate (stage 6), after the train check's verdict: the candidate
 * against the current skill, item by item (noise-aware, engine/verdict.ts); against the best when
 * they differ; the tie-break for ties; then the gate rule, and — on noisy targets — a re-check of
 * a would-be new best. Returns the decision; gate-step.ts records it.
 */
import { tieBreakAccepts, type ItemDelta } from '../../core/credit';
import { acceptTie, decidePaired, evaluateGate, isAccept, type GateDecision, type GateState } from '../../core/gate';
import type { GateRuleVerdict } from '../../core/gate-rules';
import { resamples, type NoisePolicy } from '../../core/noise';
import type { PairedVerdict } from '../../core/paired-verdict';
import type { Candidate } from './candidate';
import type { EngineContext } from '../context';
import { applyGateRule } from './gate-rule';
import type { RunDataset, RunState } from '../types';
import {
  compareOnSelection,
  recheckAsBest,
  scoreOnSelection,
  versusBest,
  type BestRecheck,
  type SelectionOutcome,
} from '../validation-score';
import type { FlipUnits } from '../verdict';

export interface GatedCandidate {
  decision: GateDecision;
  /** Null when the train check rejected the candidate before validation. */
  selection: SelectionOutcome | null;
  /** The item-by-item verdict against the current skill (null without a validation comparison). */
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

/**
 * The validation gate, after the train check's verdict: the candidate against the current skill,
 * item by item (noise-aware, engine/verdict.ts); the tie-break for ties; then the gate rule.
 */
export async function gateCandidate(
  ctx: EngineContext,
  state: RunState,
  data: RunDataset,
  a: { key: string; cand: Candidate; origin: string; step: number; policy: NoisePolicy },
): Promise<GatedCandidate> {
  const c = ctx.config;
  const { cand } = a;
  const reject: GateDecision = { action: 'reject', state: state.gate };
  const none = { verdict: null, compared: null, tieBreak: null, rule: null, units: {} };
  if (cand.check && !cand.check.improved) return { decision: reject, selection: null, ...none };
  const trainStrict = !!cand.check && cand.check.strict;
  const mayTie = c.useGate && c.tieBreak && trainStrict;
  const phase = `${a.key}/gate`;
  if (!c.useGate) {
    // Force-accept: measured, never compared.
    const g = await scoreOnSelection(ctx, state, data, phase, cand.skill);
    return {
      decision: evaluateGate(state.gate, { skill: cand.skill, score: g.gate, origin: a.origin, step: a.step }, false),
      selection: g,
      ...none,
    };
  }
  const current = state.gate.currentSkill;
  const cmp = await compareOnSelection(ctx, state, data, phase, current, cand.skill, {
    policy: a.policy,
    allowTie: mayTie,
  });
  const g = cmp.outcome;
  const verdict = cmp.cmp.verdict;
  const units: FlipUnits = { ...cmp.cmp.units };
  const compared = {
    current: cmp.refScore,
    candidate: cmp.candScore,
    gain: cmp.gain,
    calls: cmp.cmp.calls,
    resampleCalls: cmp.cmp.resampleCalls,
  };
  const base = { selection: g, verdict, compared, units };
  if (!cmp.cmp.complete) return { decision: reject, ...base, tieBreak: null, rule: null };
  const proposal = { skill: cand.skill, score: cmp.candScore, origin: a.origin, step: a.step };
  // Current and best are the same skill most of the time; else the candidate meets the best too.
  const best = async () => {
    const b = await versusBest(ctx, state, data, phase, cand.skill, a.policy);
    Object.assign(units, b.units);
    return b;
  };
  let decision =
    cmp.gain > 1e-12 ? decidePaired(state.gate, proposal, { gain: cmp.gain, beatsBest: (await best()).beats }) : reject;
  let tieBreak: GatedCandidate['tieBreak'] = null;
  if (decision.action === 'reject' && mayTie && cand.skill !== current && Math.abs(cmp.gain) <= 1e-12) {
    // A tie: the tie-break reads the settled item-by-item changes.
    const val = deltaOf(verdict);
    const accepted = tieBreakAccepts({
      candidateScore: cmp.gain,
      currentScore: 0,
      trainStrictlyBetter: trainStrict,
      val,
    });
    if (accepted) {
      const b = await best();
      decision = acceptTie(state.gate, proposal, b.beats || b.ties);
    }
    tieBreak = { val, accepted };
  }
  const ruled = applyGateRule(c, { pairs: cmp.cmp.pairs, margin: a.policy.margin, decision, before: state.gate });
  let recheck: BestRecheck | null = null;
  if (c.recheckBest && resamples(a.policy) && newBest(ruled.decision, state.gate)) {
    // Against the winner's curse: only a candidate that still wins on fresh samples becomes best.
    recheck = await recheckAsBest(ctx, state, data, phase, cand.skill, a.policy);
    Object.assign(units, recheck.units);
    if (!recheck.confirmed) {
      const { bestSkill, bestScore, bestStep, bestOrigin } = state.gate;
      ruled.decision = {
        action: 'accept',
        state: { ...ruled.decision.state, bestSkill, bestScore, bestStep, bestOrigin },
      };
    } else {
      const score = recheck.candidate;
      ruled.decision = { ...ruled.decision, state: { ...ruled.decision.state, currentScore: score, bestScore: score } };
    }
  }
  return { decision: ruled.decision, ...base, units, tieBreak, rule: ruled.rule, recheck };
}

/** The decision makes the candidate the best skill. */
function newBest(d: GateDecision, before: GateState): boolean {
  return isAccept(d.action) && d.state.bestSkill !== before.bestSkill;
}
