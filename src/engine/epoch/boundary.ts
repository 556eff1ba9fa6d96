/**
 * The epoch boundary (algorithm doc §2.8): compare the epoch's start and end skills, write the
 * slow-update guidance (gated, or forced in and measured) and the meta skill, then start the
 * next epoch with a fresh step buffer.
 */
import { putEpochArtifact } from '../artifacts';
import { epochKey } from '../keys';
import { decidedScore, gateCandidate } from '../gate';
import { evaluateGate, isAccept } from '../../core/verdict/gate';
import { policyOf, withFlips } from '../noise-ledger';
import { skillHash } from '../../core/basics/hash';
import {
  getSlowUpdateContent,
  injectEmptySlowUpdate,
  replaceSlowUpdateBlock,
} from '../../core/skill/protected-regions';
import { comparePrevCurr, renderComparison, type ComparisonPair } from './comparison';
import { callOptimizer } from '../optimizer-call';
import { PauseError } from '../pause';
import { scoreOnSelection, selectionIds, type SelectionOutcome } from '../validation-score';
import { curvePassK } from '../curve-pass-k';
import type { EpochStats, RunState } from '../types';

import { countActions, type TrainSession } from '../session';
import { originKey } from '../../core/skill/version-origin';
import { activationBaseline, activationEpoch } from '../activation';
import { epochMark } from '../curve-marks';
import { isSettled } from '../settled';

/** The epoch boundary (§2.8): slow update, then meta skill; then a fresh step buffer. */
export async function epochBoundary(
  session: TrainSession,
  prev: RunState,
  epoch: number,
  lastStep: number,
): Promise<RunState> {
  const { ctx, data } = session;
  const state = structuredClone(prev);
  const c = ctx.config;
  const tag = epochKey(epoch);
  const steps = (await ctx.store.getSteps(ctx.runId)).filter((s) => s.epoch === epoch);
  const stats: EpochStats = {
    epoch,
    steps: steps.length,
    ...countActions(steps),
    bestScoreAtEnd: 0,
    currentScoreAtEnd: 0,
  };
  const currBefore = state.gate.currentSkill;
  let pairs: ComparisonPair[] | null = null;
  // A settled skill (engine/settled.ts) has nothing left to learn: no comparison, guidance or advice is written for it.
  const settled = epoch >= 2 && (await isSettled(ctx, state));
  const needPairs = epoch >= 2 && !settled && (c.useSlowUpdate || c.useMetaSkill);
  if (needPairs) {
    session.stage('slow_update', lastStep, epoch);
    pairs = await comparePrevCurr(ctx, data, epoch, state.epochStartSkill, currBefore);
  }
  const comparison = pairs ? renderComparison(pairs, ctx, currBefore) : '';
  const [slow, meta] = await Promise.all([
    c.useSlowUpdate && epoch >= 2 && !settled
      ? callOptimizer(ctx, `${tag}/slow_update`, 'slow_update', {
          prev_skill: state.epochStartSkill,
          curr_skill: currBefore,
          prev_guidance:
            getSlowUpdateContent(currBefore) || 'There is no previous guidance: this is the first slow update.',
          comparison,
        })
      : null,
    c.useMetaSkill && epoch >= 2 && !settled
      ? callOptimizer(ctx, `${tag}/meta_skill`, 'meta_skill', {
          prev_skill: state.epochStartSkill,
          curr_skill: currBefore,
          prev_meta: state.metaSkill || 'There is no previous optimizer advice.',
          comparison,
        })
      : null,
  ]);
  if (slow?.error || meta?.error) {
    // A transport failure here is not "no content": stop and retry on resume.
    const what = slow?.error ? 'slow update' : 'meta skill';
    const error = (slow?.error ?? meta?.error)!;
    throw new PauseError('error_rate', `The ${what} call failed after retries: ${error.message}`);
  }

  if (c.useSlowUpdate && settled) stats.slowUpdate = { action: 'skip_settled' };
  else if (c.useSlowUpdate) {
    const origin = originKey({ kind: 'slow_update', epoch, placeholder: epoch === 1 });
    if (epoch === 1) {
      const placed = injectEmptySlowUpdate(currBefore);
      if (placed !== currBefore) {
        // The body is unchanged: carry the score over (marked), so an identical candidate is a cache hit.
        const fromHash = await skillHash(currBefore);
        const from = state.selectionCache[fromHash];
        if (from)
          state.selectionCache[await skillHash(placed)] = {
            ...from,
            carried: true,
            carriedFrom: from.carriedFrom ?? fromHash,
          };
        state.gate = { ...state.gate, currentSkill: placed, currentOrigin: origin };
        await session.saveVersion(placed, origin, lastStep);
      }
      stats.slowUpdate = { action: 'inject_placeholder' };
    } else {
      const content = typeof slow?.json?.slow_update_content === 'string' ? slow.json.slow_update_content.trim() : '';
      const reasoning = typeof slow?.json?.reasoning === 'string' ? slow.json.reasoning : undefined;
      if (!content) stats.slowUpdate = { action: 'no_content', reasoning };
      else {
        const candidate = replaceSlowUpdateBlock(currBefore, content);
        // What the boundary records of a slow update that was scored on validation, with its pass^k when asked.
        const measuredUpdate = async (action: string, g: SelectionOutcome) => {
          const passK = await curvePassK(ctx, { key: tag, skill: candidate, itemIds: selectionIds(c, data) });
          return {
            action,
            reasoning,
            content,
            candidateHash: g.hash,
            gateScore: g.gate,
            complete: g.score.complete,
            cacheHit: g.cacheHit,
            n: g.score.n,
            ...(passK ? { curvePassK: passK } : {}),
          };
        };
        if (c.slowUpdateGated) {
          session.stage('gate', lastStep, epoch);
          // The same gate as a step's candidate; no train batch, so a tie rejects (gate.ts).
          const gated = await gateCandidate(ctx, state, data, {
            phase: `${tag}/gate`,
            against: 'current',
            candidate,
            origin,
            step: lastStep,
            check: null,
            policy: policyOf(c, state),
          });
          state.flips = withFlips(state.flips, gated.units);
          const decision = gated.decision;
          // Recorded with its settled score when it was compared, its own score when forced.
          const g = { ...gated.selection!, gate: decidedScore(gated)! };
          state.gate = decision.state;
          if (isAccept(decision.action)) await session.saveVersion(candidate, origin, lastStep);
          stats.slowUpdate = {
            ...(await measuredUpdate(decision.action, g)),
            ...(gated.rule ? { rule: gated.rule } : {}),
          };
        } else {
          // Forced in, but measured: its content changed the skill, so the old score says nothing.
          session.stage('gate', lastStep, epoch);
          const g = await scoreOnSelection(ctx, state, data, `${tag}/measure`, candidate, { measured: true });
          state.gate = evaluateGate(
            state.gate,
            { skill: candidate, score: g.gate, origin, step: lastStep },
            false,
          ).state;
          await session.saveVersion(candidate, origin, lastStep);
          stats.slowUpdate = await measuredUpdate('force_inject', g);
        }
      }
    }
  }
  if (c.useMetaSkill) {
    if (epoch === 1) stats.metaSkill = { action: 'skip_first_epoch' };
    else if (settled) stats.metaSkill = { action: 'skip_settled', content: state.metaSkill };
    else {
      const content = typeof meta?.json?.meta_skill_content === 'string' ? meta.json.meta_skill_content.trim() : '';
      // A failed update keeps the last good memory (the reference empties it).
      if (content) state.metaSkill = content;
      stats.metaSkill = content
        ? { action: 'write_meta_skill', content }
        : { action: 'no_content', content: state.metaSkill };
    }
  }
  if (c.activationTrack && session.activation) {
    session.stage('activation', lastStep, epoch);
    const start = state.activation ?? (await activationBaseline(ctx, session.activation));
    state.activation = await activationEpoch(ctx, session.activation, start, {
      epoch,
      skill: state.gate.currentSkill,
      policy: policyOf(c, state),
    });
  }
  if (pairs)
    await putEpochArtifact(
      ctx,
      epoch,
      'pairs',
      pairs.map((p) => ({
        id: p.id,
        task: p.task,
        category: p.category,
        prevHard: p.prev.hard,
        currHard: p.curr.hard,
      })),
    );
  stats.bestScoreAtEnd = state.gate.bestScore;
  stats.currentScoreAtEnd = state.gate.currentScore;
  stats.spend = ctx.meter.spend();
  state.epochStats = [...state.epochStats.filter((s) => s.epoch !== epoch), stats];
  state.stepBuffer = [];
  state.epochStartSkill = state.gate.currentSkill;
  state.boundaryDoneEpoch = epoch;
  ctx.emit({ type: 'epoch', epoch, slowUpdate: stats.slowUpdate?.action, metaSkill: stats.metaSkill?.action });
  const mark = epochMark(stats, lastStep);
  if (mark) ctx.emit({ type: 'curve', mark });
  return state;
}
