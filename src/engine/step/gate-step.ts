/**
 * Stage 6 of a step and its bookkeeping (algorithm doc §2.4, §2.6–2.7): gate the candidate,
 * record the gate's verdict (artifact), make the step's buffer entry, choose the edits to carry
 * and save an accepted version. Returns all of it as an outcome; run-step.ts writes the state.
 */
import { isAccept, type GateState } from '../../core/verdict/gate';
import type { Edit } from '../../core/skill/edits';
import { nextPending } from '../../core/verdict/credit';
import { skillHash } from '../../core/basics/hash';
import type { Candidate } from './candidate';
import { decidedScore, gateCandidate, unchangedCandidate } from '../gate';
import { sameSkill, selectionIds } from '../validation-score';
import { curvePassK } from '../curve-pass-k';
import { checkArtifact, verdictRecord } from './credit-check';
import type { StageTimer } from '../context';
import type { TrainSession } from '../session';
import { putStepArtifact } from '../artifacts';
import { makeBufferEntry } from './step-buffer';
import type { BufferEntry, RolloutRow } from '../types';
import type { Scoring } from '../validation-score';
import type { GateFields } from './step-record';
import type { NoisePolicy } from '../../core/verdict/noise';
import type { FlipUnits } from '../verdict';
import { originKey } from '../../core/skill/version-origin';

export interface GateStepInput {
  key: string;
  step: number;
  epoch: number;
  /** The skill the step started from. */
  current: string;
  cand: Candidate;
  /** The step's train rollouts and the failure analysts' summaries (for the buffer). */
  rows: readonly RolloutRow[];
  summaries: string[];
  timer: StageTimer;
  /** The step's noise policy (read once at the step's start). */
  policy: NoisePolicy;
}

/** What gating a step's candidate decided; the step (run-step.ts) writes it into the run state. */
export interface GateStepOutcome {
  /** The step record's gate fields. */
  record: GateFields;
  gate: GateState;
  /** The step's entry for the optimizer's step buffer. */
  bufferEntry: BufferEntry;
  /** Edits left for the next step (carried edits on), else undefined: unchanged. */
  pendingEdits?: Edit[];
  /** Repeated samples the checks and the verdict drew. */
  units: FlipUnits;
}

/** Gate the candidate: the decision, the buffer entry, the edits to carry and the record's fields. */
export async function gateStep(session: TrainSession, s: Scoring, a: GateStepInput): Promise<GateStepOutcome> {
  const { ctx, data } = session;
  const c = ctx.config;
  const { key, current, cand, rows, summaries, timer } = a;
  session.stage('update', a.step, a.epoch);
  const candidate = cand.skill;
  // A patch was applied edit by edit; a rewrite replaced the whole skill (no apply report).
  const patch = cand.kind === 'patch' ? cand : null;
  if (patch) await putStepArtifact(ctx, key, 'apply_report', patch.applied.report);

  session.stage('gate', a.step, a.epoch);
  const origin = originKey({ kind: 'step', step: a.step });
  // Edits that applied to nothing leave the current skill: it cannot beat itself, and no validation
  // call is spent to say so (issue #40: the noisy world paid a full gate for it after saturation).
  const unchanged = sameSkill(candidate, current);
  const gated = unchanged
    ? unchangedCandidate(s.gate)
    : await timer.time('gate', () =>
        gateCandidate(ctx, s, data, {
          phase: `${key}/gate`,
          against: 'current',
          candidate,
          origin,
          step: a.step,
          check: cand.check,
          policy: a.policy,
        }),
      );
  const decision = gated.decision;
  // A tie-break weighed the train check on: its artifact says what it found.
  if (cand.check?.confirmed) await putStepArtifact(ctx, key, 'check', checkArtifact(cand.check));
  const g = gated.selection;
  const gateScoreValue = g?.gate ?? null;
  await putStepArtifact(ctx, key, 'gate', {
    phase: `${key}/gate`,
    currentHash: await skillHash(current),
    candidateHash: g?.hash ?? (await skillHash(candidate)),
    cacheHit: g?.cacheHit ?? false,
    score: g?.score ?? null,
    gateScore: gateScoreValue,
    mustBeat: c.useGate ? s.gate.currentScore : null,
    action: decision.action,
    skippedByCheck: g === null && !unchanged,
    ...(unchanged ? { unchanged: true } : {}),
    compared: gated.compared,
    verdict: gated.verdict ? verdictRecord(gated.verdict) : null,
    flipUpper: a.policy.flipUpper,
    // The re-check as stored: its repeated samples go to the run's flip tally, not the artifact.
    recheck: gated.recheck ? (({ units: _units, ...stored }) => stored)(gated.recheck) : null,
    carried: patch?.carried ?? 0,
    rule: gated.rule,
    evidence: gated.evidence ?? null,
    stability: gated.stability ?? null,
    targets: gated.targets ?? null,
    tieBreak: gated.tieBreak
      ? {
          accepted: gated.tieBreak.accepted,
          regressed: gated.tieBreak.val.regressed,
          fixed: gated.tieBreak.val.improved,
        }
      : null,
  });
  const bufferEntry = makeBufferEntry({
    step: a.step,
    action: decision.action,
    rows,
    analystSummaries: summaries,
    scoreBefore: s.gate.currentScore,
    scoreAfter: gateScoreValue ?? s.gate.currentScore,
    edits: patch?.edits ?? [],
    ...(cand.kind === 'rewrite' ? { rewrite: cand.changeSummary } : {}),
    trajectories: c.reflectOnTrajectories ?? true,
  });
  let pendingEdits: Edit[] | undefined;
  if (c.carryEdits) {
    const promising = cand.check
      ? cand.check.improved
      : g !== null && g.score.complete && g.score.soft > (s.selectionCache[await skillHash(current)]?.soft ?? Infinity);
    pendingEdits = nextPending({
      accepted: isAccept(decision.action),
      promising,
      edits: patch?.edits ?? [],
      cap: c.editBudget,
    });
  }
  if (isAccept(decision.action)) await session.saveVersion(candidate, origin, a.step);
  // pass^k of a candidate validation scored, when asked (issue #43): the learning curve's second series.
  const passK = g ? await curvePassK(ctx, { key, skill: candidate, itemIds: selectionIds(c, data) }) : null;
  const record: GateFields = {
    nEditsRanked: cand.kind === 'rewrite' ? cand.changeSummary.length : cand.edits.length,
    candidateHash: g?.hash ?? null,
    candidateSkillLen: candidate.length,
    editApplySummary: patch?.applied.summary ?? null,
    selectionHard: g?.score.hard ?? null,
    selectionSoft: g?.score.soft ?? null,
    selectionN: g?.score.n ?? null,
    selectionComplete: g?.score.complete ?? null,
    selectionCacheHit: g?.cacheHit ?? false,
    candidateGateScore: gateScoreValue,
    candidateSettledScore: g ? decidedScore(gated) : null,
    action: decision.action,
    ...(cand.kind === 'rewrite' ? { rewriteChangeSummary: cand.changeSummary } : {}),
    ...(gated.targets?.refusedBy ? { refusedBy: gated.targets.refusedBy } : {}),
    ...(passK ? { curvePassK: passK } : {}),
  };
  return { record, gate: decision.state, bufferEntry, pendingEdits, units: { ...cand.units, ...gated.units } };
}
