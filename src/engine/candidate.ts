/**
 * From a merged patch to a gated candidate (stages 4–6, with issue #8's credit assignment):
 * carried edits join the pool, edits that can never help are screened out before they take
 * budget, the ranker picks the step's edits, and the candidate is checked on the step's own
 * train items before validation — a candidate that broke items is repaired by the optimizer,
 * one that does not improve on train is rejected without spending validation calls (GEPA's
 * minibatch check). A validation tie may be accepted by the tie-break. Each mechanism is a knob.
 */
import { poolWithCarried, tieBreakAccepts, type ItemDelta } from '../core/credit';
import { screenEdits } from '../core/edit-screen';
import { applyPatch, type Edit, type Patch, type PatchResult } from '../core/edits';
import { acceptTie, decidePaired, evaluateGate, isAccept, type GateDecision, type GateState } from '../core/gate';
import { resamples, type NoisePolicy } from '../core/noise';
import type { PairedVerdict } from '../core/paired-verdict';
import type { FlipUnits } from './verdict';
import { putStepArtifact } from './step-artifacts';
import type { EngineContext } from './context';
import { blameByLeavingOut, checkArtifact, checkOnTrain, repairBundle, summariseDelta, type RepairOutcome, type TrainCheck } from './credit-check';
import type { RepairStep } from './step-artifacts';
import { okRows } from './rollout';
import { rankAndSelect } from './rank-edits';
import { compareOnSelection, recheckAsBest, scoreOnSelection, versusBest, type BestRecheck, type SelectionOutcome } from './validation-score';
import type { RolloutRow, RunDataset, RunState } from './types';
import { applyGateRule } from './gate-rule';
import type { GateRuleVerdict } from '../core/gate-rules';

export interface CandidateInput {
  key: string;
  current: string;
  merged: Patch;
  /** Edits a promising rejected candidate left for this step. */
  pending: readonly Edit[];
  budget: number;
  metaText: string;
  /** The step's rollouts of the current skill (the train batch). */
  rows: readonly RolloutRow[];
  /** The step's noise policy. */
  policy: NoisePolicy;
}

export interface Candidate {
  ranked: Patch;
  /** The bundle applied to the current skill (the ranked edits, repaired). */
  edits: Edit[];
  applied: PatchResult;
  skill: string;
  check: TrainCheck | null;
  repair: RepairOutcome | null;
  /** Carried edits that were in the pool. */
  carried: number;
  /** What a whole-skill rewrite changed, one line per change (rewrite modes). */
  changeSummary?: string[];
  /** Repeated samples the checks drew, for the run's flip tally. */
  units?: FlipUnits;
}

/** Pool, screen, rank, apply; then the train check and the repair. */
export async function buildCandidate(ctx: EngineContext, a: CandidateInput): Promise<Candidate> {
  const c = ctx.config;
  const pool = c.carryEdits ? poolWithCarried(a.merged.edits, a.pending) : [...a.merged.edits];
  let kept = pool;
  if (c.screenEdits) {
    const s = screenEdits(a.current, pool);
    kept = s.kept;
    await putStepArtifact(ctx, a.key, 'screened', {
      pool: pool.length,
      kept: s.kept.length,
      carried: pool.filter((e) => e.carried).length,
      dropped: s.dropped.map((d) => ({ index: d.index, op: String(d.edit.op), target: d.edit.target ?? '', content: d.edit.content ?? '', reason: d.reason })),
    });
  }
  const sel = await rankAndSelect(ctx, a.key, { ...a.merged, edits: kept }, a.budget, a.current, a.metaText);
  await putStepArtifact(ctx, a.key, 'ranked', sel.ranked);
  let edits = sel.ranked.edits;
  let applied = applyPatch(a.current, edits);
  let check: TrainCheck | null = null;
  let repair: RepairOutcome | null = null;
  let units: FlipUnits = {};
  const base = okRows(a.rows);
  if (c.trainCheck && applied.skill !== a.current && base.length) {
    const checkBundle = async (phase: string, bundle: readonly Edit[]): Promise<TrainCheck> => {
      const r = await checkOnTrain(ctx, phase, base, a.current, applyPatch(a.current, bundle).skill, { policy: a.policy, findRegressions: c.repairEdits });
      units = { ...units, ...r.units };
      return r;
    };
    check = await checkBundle(`${a.key}/check`, edits);
    if (c.repairEdits && check.delta.regressed.length) {
      const credit = await assignCredit(ctx, { ...a, edits, check, base, checkBundle });
      repair = credit.repair;
      edits = credit.edits;
      check = credit.check;
      applied = applyPatch(a.current, edits);
    }
    await putStepArtifact(ctx, a.key, 'check', checkArtifact(check));
  }
  await putStepArtifact(ctx, a.key, 'candidate_edits', edits);
  return { ranked: sel.ranked, edits, applied, skill: applied.skill, check, repair, carried: pool.filter((e) => e.carried).length, units };
}

/** One bundle the credit assignment checked on the step's train items. */
interface Checked {
  edits: Edit[];
  check: TrainCheck;
  how: 'proposed' | 'repaired' | 'pruned';
}

/** Better on train: improved first, then the larger summed gain, then fewer regressions, then the later bundle. */
function better(x: Checked, y: Checked): boolean {
  const score = (b: Checked) => [b.check.improved ? 1 : 0, b.check.verdict ? b.check.verdict.gain * b.check.verdict.n : b.check.delta.after.hard - b.check.delta.before.hard, -b.check.delta.regressed.length];
  const [a, b] = [score(x), score(y)];
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i] - b[i]) > 1e-9) return a[i] > b[i];
  return true;
}

/**
 * Credit assignment within a bundle that broke train items (issue #8, hardened in #19 against a
 * fallible repairer): the optimizer repairs the bundle (drops the edits to blame, restores what a
 * replaced rule carried); when the repaired bundle still breaks items, each edit is left out in
 * turn on a few regressed and improved items and an edit whose absence restores the regressed
 * ones without losing a gain is dropped (leave-one-out); if items are still broken, a further
 * bounded repair round follows. Every bundle is checked on the same train items, and the one that
 * did best there goes on — a bad repair costs the repair, not the step.
 */
async function assignCredit(
  ctx: EngineContext,
  a: CandidateInput & { edits: Edit[]; check: TrainCheck; base: RolloutRow[]; checkBundle: (phase: string, bundle: readonly Edit[]) => Promise<TrainCheck> },
): Promise<{ edits: Edit[]; check: TrainCheck; repair: RepairOutcome }> {
  const c = ctx.config;
  const rounds = Math.max(1, c.repairRounds ?? 1);
  const seen: Checked[] = [{ edits: a.edits, check: a.check, how: 'proposed' }];
  const steps: RepairStep[] = [];
  let latest = seen[0];
  let first: RepairOutcome | null = null;
  for (let round = 1; round <= rounds && latest.check.delta.regressed.length; round++) {
    const repair = await repairBundle(ctx, {
      key: a.key,
      round,
      current: a.current,
      candidate: applyPatch(a.current, latest.edits).skill,
      edits: latest.edits,
      check: latest.check,
      currentRows: a.base,
      maxAdded: a.budget,
      metaText: a.metaText,
    });
    first ??= repair;
    if (!repair.repaired || applyPatch(a.current, repair.edits).skill === a.current) {
      steps.push({ kind: 'repair', round, changed: false, dropped: [], added: [], reasoning: repair.reasoning, after: null });
      break;
    }
    const repaired: Checked = { edits: repair.edits, check: await a.checkBundle(`${a.key}/check-repaired${round > 1 ? round : ''}`, repair.edits), how: 'repaired' };
    seen.push(repaired);
    steps.push({ kind: 'repair', round, changed: true, dropped: repair.dropped, added: repair.added, reasoning: repair.reasoning, after: summariseDelta(repaired.check.delta) });
    latest = repaired;
    if (c.blameEdits && latest.check.delta.regressed.length && latest.edits.length > 1) {
      const blame = await blameByLeavingOut(ctx, { key: a.key, round, current: a.current, edits: latest.edits, check: latest.check, policy: a.policy });
      if (blame.blamed.length) {
        const pruned = latest.edits.filter((_, i) => !blame.blamed.includes(i));
        const checked: Checked = { edits: pruned, check: await a.checkBundle(`${a.key}/check-pruned${round > 1 ? round : ''}`, pruned), how: 'pruned' };
        seen.push(checked);
        steps.push({ kind: 'blame', round, probes: blame.probes, dropped: blame.blamed.map((i) => latest.edits[i]), after: summariseDelta(checked.check.delta) });
        latest = checked;
      } else steps.push({ kind: 'blame', round, probes: blame.probes, dropped: [], after: null });
    }
  }
  const chosen = seen.reduce((best, x) => (better(x, best) ? x : best));
  const repair: RepairOutcome = {
    edits: chosen.edits,
    dropped: a.edits.filter((e) => !chosen.edits.includes(e)),
    added: chosen.edits.filter((e) => !a.edits.includes(e)),
    reasoning: first?.reasoning ?? '',
    repaired: chosen !== seen[0],
  };
  await putStepArtifact(ctx, a.key, 'repair', {
    regressed: a.check.delta.regressed,
    fixed: a.check.delta.improved,
    after: chosen !== seen[0] ? summariseDelta(chosen.check.delta) : null,
    repaired: repair.repaired,
    dropped: repair.dropped,
    added: repair.added,
    reasoning: repair.reasoning,
    steps,
    chosen: chosen.how,
  });
  return { edits: chosen.edits, check: chosen.check, repair };
}

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
  return { n: v.n, regressed: v.regressed, improved: v.improved, before: { hard: v.refScore, soft: v.refScore }, after: { hard: v.candScore, soft: v.candScore } };
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
    return { decision: evaluateGate(state.gate, { skill: cand.skill, score: g.gate, origin: a.origin, step: a.step }, false), selection: g, ...none };
  }
  const current = state.gate.currentSkill;
  const cmp = await compareOnSelection(ctx, state, data, phase, current, cand.skill, { policy: a.policy, allowTie: mayTie });
  const g = cmp.outcome;
  const verdict = cmp.cmp.verdict;
  const units: FlipUnits = { ...cmp.cmp.units };
  const compared = { current: cmp.refScore, candidate: cmp.candScore, gain: cmp.gain, calls: cmp.cmp.calls, resampleCalls: cmp.cmp.resampleCalls };
  const base = { selection: g, verdict, compared, units };
  if (!cmp.cmp.complete) return { decision: reject, ...base, tieBreak: null, rule: null };
  const proposal = { skill: cand.skill, score: cmp.candScore, origin: a.origin, step: a.step };
  // Current and best are the same skill most of the time; else the candidate meets the best too.
  const best = async () => {
    const b = await versusBest(ctx, state, data, phase, cand.skill, a.policy);
    Object.assign(units, b.units);
    return b;
  };
  let decision = cmp.gain > 1e-12 ? decidePaired(state.gate, proposal, { gain: cmp.gain, beatsBest: (await best()).beats }) : reject;
  let tieBreak: GatedCandidate['tieBreak'] = null;
  if (decision.action === 'reject' && mayTie && cand.skill !== current && Math.abs(cmp.gain) <= 1e-12) {
    // A tie: the tie-break reads the settled item-by-item changes.
    const val = deltaOf(verdict);
    const accepted = tieBreakAccepts({ candidateScore: cmp.gain, currentScore: 0, trainStrictlyBetter: trainStrict, val });
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
      ruled.decision = { action: 'accept', state: { ...ruled.decision.state, bestSkill, bestScore, bestStep, bestOrigin } };
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
