/**
 * Scoring a skill on the selection (validation) split for the gate (algorithm doc §2.5, §2.6).
 * A selection cache maps skill hash → score, so an identical skill is never re-rolled (and a
 * candidate equal to the current skill is a free reject). With early stop, evaluation ends as
 * soon as the candidate can no longer beat the score it must beat: the decision is the same
 * as a full evaluation's, and the stored score is marked as an upper bound, never reused as a
 * full score.
 */
import { skillHash } from '../core/hash';
import { gateScore, type GateScoreOptions } from '../core/gate';
import type { RunConfig } from '../core/run-config';
import type { EngineContext } from './context';
import { okRows, rolloutPhase } from './rollout';
import type { RolloutRow, RunDataset, RunState, SelectionScore } from './types';

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
  state: RunState,
  data: RunDataset,
  phase: string,
  skill: string,
  o: SelectionOptions = {},
): Promise<SelectionOutcome> {
  const { mustBeat, allowTie = false } = o;
  const hash = await skillHash(skill);
  const opts = gateOptions(ctx.config);
  const cached = state.selectionCache[hash];
  if (cached?.complete && !(o.measured && cached.carried)) return { hash, score: cached, gate: gateScore(cached.hard, cached.soft, opts, skill), cacheHit: true, calls: 0 };
  const canStillWin =
    ctx.config.earlyStopGate && mustBeat !== undefined ? (uh: number, us: number) => {
          const best = gateScore(uh, us, opts, skill);
          return allowTie ? best >= mustBeat - 1e-12 : best > mustBeat;
        }
      : undefined;
  const r = await rolloutPhase(ctx, { phase, skill, itemIds: selectionIds(ctx.config, data), canStillWin });
  let score: SelectionScore;
  if (r.complete) score = { hard: r.hard, soft: r.soft, n: r.n, complete: true, ...(r.errors ? { errors: r.errors } : {}) };
  else {
    // Upper bound: what the skill would score if every remaining item passed.
    const total = selectionIds(ctx.config, data).length;
    const remaining = total - r.rows.length;
    const ok = r.rows.filter((x) => x.status === 'ok');
    score = {
      hard: (ok.reduce((a, x) => a + x.hard, 0) + remaining) / (ok.length + remaining),
      soft: (ok.reduce((a, x) => a + x.soft, 0) + remaining) / (ok.length + remaining),
      n: r.n,
      complete: false,
    };
  }
  if (!cached || score.complete) state.selectionCache[hash] = score; // a measured score replaces a carried one
  return { hash, score, gate: gateScore(score.hard, score.soft, opts, skill), cacheHit: false, calls: r.calls };
}

/**
 * Both skills' scored validation rows, for item-by-item comparisons after a gate evaluation:
 * the candidate's replay its gate phase, the current skill's come from the rollout cache
 * (phase `<gate phase>-current`; an errored row is tried again).
 */
export async function pairedValidationRows(
  ctx: EngineContext,
  data: RunDataset,
  phase: string,
  current: string,
  candidate: string,
): Promise<{ current: RolloutRow[]; candidate: RolloutRow[] }> {
  const ids = selectionIds(ctx.config, data);
  const [was, now] = await Promise.all([
    rolloutPhase(ctx, { phase: `${phase}-current`, skill: current, itemIds: ids }),
    rolloutPhase(ctx, { phase, skill: candidate, itemIds: ids }),
  ]);
  return { current: okRows(was.rows), candidate: okRows(now.rows) };
}

export interface CommonScores {
  current: number;
  candidate: number;
  n: number;
}

/**
 * Gate scores of two skills on the validation items both scored (issue #9 item 6). Means over
 * different item sets are not comparable: a candidate whose hardest items errored would look
 * better than it is.
 */
export async function commonGateScores(ctx: EngineContext, data: RunDataset, phase: string, current: string, candidate: string): Promise<CommonScores> {
  const rows = await pairedValidationRows(ctx, data, phase, current, candidate);
  const a = new Map(rows.current.map((r) => [r.itemId, r]));
  const b = new Map(rows.candidate.map((r) => [r.itemId, r]));
  const common = [...a.keys()].filter((id) => b.has(id));
  const mean = (m: typeof a, f: 'hard' | 'soft') => (common.length ? common.reduce((s, id) => s + m.get(id)![f], 0) / common.length : 0);
  const opts = gateOptions(ctx.config);
  return {
    current: gateScore(mean(a, 'hard'), mean(a, 'soft'), opts, current),
    candidate: gateScore(mean(b, 'hard'), mean(b, 'soft'), opts, candidate),
    n: common.length,
  };
}

/** Scores on the common items when the candidate's or the current skill's validation had errored rows; else null. */
export async function commonScoresIfErrored(ctx: EngineContext, state: RunState, data: RunDataset, phase: string, g: SelectionOutcome, candidate: string): Promise<CommonScores | null> {
  if (!ctx.config.useGate || !g.score.complete) return null;
  const currentErrors = state.selectionCache[await skillHash(state.gate.currentSkill)]?.errors ?? 0;
  if (!(g.score.errors ?? 0) && !currentErrors) return null;
  return commonGateScores(ctx, data, phase, state.gate.currentSkill, candidate);
}
