/**
 * From a merged patch to a gated candidate (stages 4–6, with issue #8's credit assignment):
 * carried edits join the pool, edits that can never help are screened out before they take
 * budget, the ranker picks the step's edits, and the candidate is checked on the step's own
 * train items before validation — a candidate that broke items is repaired by the optimizer,
 * one that does not improve on train is rejected without spending validation calls (GEPA's
 * minibatch check). A validation tie may be accepted by the tie-break. Each mechanism is a knob.
 */
import { poolWithCarried, tieBreakAccepts, type ItemDelta, compareOutcomes } from '../core/credit';
import { screenEdits } from '../core/edit-screen';
import { applyPatch, type Edit, type Patch, type PatchResult } from '../core/edits';
import { acceptTie, evaluateGate, type GateDecision } from '../core/gate';
import { putStepArtifact } from './step-artifacts';
import type { EngineContext } from './context';
import { checkArtifact, checkOnTrain, repairBundle, summariseDelta, type RepairOutcome, type TrainCheck } from './credit-check';
import { okRows } from './rollout';
import { rankAndSelect } from './select';
import { commonScoresIfErrored, pairedValidationRows, scoreOnSelection, type CommonScores, type SelectionOutcome } from './selection';
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
  const base = okRows(a.rows);
  if (c.trainCheck && applied.skill !== a.current && base.length) {
    check = await checkOnTrain(ctx, `${a.key}/check`, base, applied.skill);
    const first = check;
    if (c.repairEdits && first.delta.regressed.length) {
      repair = await repairBundle(ctx, {
        key: a.key,
        current: a.current,
        candidate: applied.skill,
        edits,
        check,
        currentRows: base,
        maxAdded: a.budget,
        metaText: a.metaText,
      });
      if (repair.repaired) {
        edits = repair.edits;
        applied = applyPatch(a.current, edits);
        // The repaired bundle is checked again, so the gate and the tie-break judge what is gated.
        if (applied.skill !== a.current) check = await checkOnTrain(ctx, `${a.key}/check-repaired`, base, applied.skill);
      }
      await putStepArtifact(ctx, a.key, 'repair', {
        regressed: first.delta.regressed,
        fixed: first.delta.improved,
        after: repair.repaired ? summariseDelta(check.delta) : null,
        repaired: repair.repaired,
        dropped: repair.dropped,
        added: repair.added,
        reasoning: repair.reasoning,
      });
    }
    await putStepArtifact(ctx, a.key, 'check', checkArtifact(check));
  }
  await putStepArtifact(ctx, a.key, 'candidate_edits', edits);
  return { ranked: sel.ranked, edits, applied, skill: applied.skill, check, repair, carried: pool.filter((e) => e.carried).length };
}

export interface GatedCandidate {
  decision: GateDecision;
  /** Null when the train check rejected the candidate before validation. */
  selection: SelectionOutcome | null;
  tieBreak: { val: ItemDelta; accepted: boolean } | null;
  /** Both skills' gate scores on the items both scored, when errored rows made the means incomparable. */
  common: CommonScores | null;
  /** The gate rule's verdict on an accept (null under the mean rule, or when nothing was accepted). */
  rule: GateRuleVerdict | null;
}

/** The validation gate, after the train check's verdict, with the tie-break for validation ties. */
export async function gateCandidate(
  ctx: EngineContext,
  state: RunState,
  data: RunDataset,
  a: { key: string; cand: Candidate; origin: string; step: number },
): Promise<GatedCandidate> {
  const c = ctx.config;
  const { cand } = a;
  const reject: GateDecision = { action: 'reject', state: state.gate };
  const none = { tieBreak: null, common: null, rule: null };
  if (cand.check && !cand.check.improved) return { decision: reject, selection: null, ...none };
  const trainStrict = !!cand.check && cand.check.strict;
  const mayTie = c.useGate && c.tieBreak && trainStrict;
  const mustBeat = c.useGate ? state.gate.currentScore : undefined;
  const phase = `${a.key}/gate`;
  const g = await scoreOnSelection(ctx, state, data, phase, cand.skill, { mustBeat, allowTie: mayTie });
  const proposal = { skill: cand.skill, score: g.gate, origin: a.origin, step: a.step };
  if (!g.score.complete) return { decision: reject, selection: g, ...none };
  // Errored rows on either side: compare on the items both skills scored.
  const common = await commonScoresIfErrored(ctx, state, data, phase, g, cand.skill);
  let decision = evaluateGate(state.gate, proposal, c.useGate, common ?? undefined);
  let tieBreak: GatedCandidate['tieBreak'] = null;
  const [candScore, curScore] = common ? [common.candidate, common.current] : [g.gate, state.gate.currentScore];
  const tie = Math.abs(candScore - curScore) <= 1e-12;
  if (decision.action === 'reject' && mayTie && cand.skill !== state.gate.currentSkill && tie) {
    // A tie: compare item by item.
    const rows = await pairedValidationRows(ctx, data, phase, state.gate.currentSkill, cand.skill);
    const val = compareOutcomes(rows.current, rows.candidate);
    const accepted = tieBreakAccepts({ candidateScore: candScore, currentScore: curScore, trainStrictlyBetter: trainStrict, val });
    if (accepted) decision = acceptTie(state.gate, proposal);
    tieBreak = { val, accepted };
  }
  const ruled = await applyGateRule(ctx, data, { phase, current: state.gate.currentSkill, candidate: cand.skill, decision, before: state.gate });
  return { decision: ruled.decision, selection: g, tieBreak, common, rule: ruled.rule };
}
