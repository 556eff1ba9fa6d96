/**
 * Skill-aware reflection's appendix (algorithm doc §3.8): after the gate (and on skip paths) the
 * step's reminders are merged into the current skill's protected appendix, bypassing the gate.
 * When the list outgrows the threshold, one optimizer call compacts it (kept only if non-empty
 * and shorter). Unlike the reference, a changed current skill is scored again on validation
 * (§10): the next candidate must beat what the target now sees, not a score it did not earn.
 */
import { getAppendixNotes, mergeAppendixNotes, replaceAppendixNotes } from '../../core/skill/protected-regions';
import type { EngineContext } from '../context';
import { callOptimizer } from '../optimizer-call';
import { scoreOnSelection } from '../validation-score';
import type { TrainSession } from '../session';
import { putStepArtifact, type AppendixFlush } from '../artifacts';
import type { RunState } from '../types';
import type { GateState } from '../../core/verdict/gate';
import { originKey } from '../../core/skill/version-origin';

/**
 * Merge the step's notes into the current skill and re-score it. Returns the gate state with the
 * changed current skill (null when the notes changed nothing); the step writes it.
 */
export async function flushAppendix(
  session: TrainSession,
  state: RunState,
  a: { key: string; step: number; notes: readonly string[] },
): Promise<GateState | null> {
  const { ctx, data } = session;
  const c = ctx.config;
  if (!c.skillAwareReflection || a.notes.length === 0) return null;
  const current = state.gate.currentSkill;
  const notesBefore = getAppendixNotes(current).length;
  let next = mergeAppendixNotes(current, a.notes);
  let consolidated: AppendixFlush['consolidated'] = null;
  const notes = getAppendixNotes(next);
  if (c.appendixConsolidateThreshold > 0 && notes.length > c.appendixConsolidateThreshold) {
    const compact = await consolidate(ctx, a.key, next, notes);
    consolidated = { from: notes.length, to: compact?.length ?? notes.length, used: compact !== null };
    if (compact) next = replaceAppendixNotes(next, compact);
  }
  const flush: AppendixFlush = {
    added: [...a.notes],
    notesBefore,
    notesAfter: getAppendixNotes(next).length,
    consolidated,
    scoreBefore: state.gate.currentScore,
    scoreAfter: null,
  };
  let gate: GateState | null = null;
  if (next !== current) {
    const g = await scoreOnSelection(ctx, state, data, `${a.key}/appendix`, next);
    flush.scoreAfter = g.gate;
    const origin = originKey({ kind: 'appendix', step: a.step });
    const changed = { ...state.gate, currentSkill: next, currentScore: g.gate, currentOrigin: origin };
    // Measured in full and higher than the best: the notes earned it (the gate's own comparison).
    const earnedBest = g.score.complete && g.gate > state.gate.bestScore;
    gate = earnedBest
      ? { ...changed, bestSkill: next, bestScore: g.gate, bestStep: a.step, bestOrigin: origin }
      : changed;
    await session.saveVersion(next, origin, a.step);
    ctx.emit({
      type: 'log',
      level: 'info',
      message: `Step ${a.step}: ${a.notes.length} execution note(s) merged into the appendix; the current skill scores ${g.gate.toFixed(4)} (was ${flush.scoreBefore.toFixed(4)}).`,
    });
  }
  await putStepArtifact(ctx, a.key, 'appendix', flush);
  return gate;
}

/** One call compacts the notes; null unless the answer is a non-empty, shorter list. */
async function consolidate(
  ctx: EngineContext,
  key: string,
  skill: string,
  notes: readonly string[],
): Promise<string[] | null> {
  const r = await callOptimizer(ctx, `${key}/appendix_consolidate`, 'appendix_consolidate', {
    skill,
    count: String(notes.length),
    notes: notes.map((n) => `- ${n}`).join('\n'),
  });
  const list = r.json?.appendix_notes;
  if (!Array.isArray(list)) return null;
  const compact = list.filter((n): n is string => typeof n === 'string' && n.trim() !== '').map((n) => n.trim());
  return compact.length > 0 && compact.length < notes.length ? compact : null;
}
