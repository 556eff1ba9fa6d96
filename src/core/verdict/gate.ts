/**
 * The validation gate (algorithm doc §2.6, §4.2): a candidate replaces the current skill only
 * if its gate score is strictly higher. Best is tracked separately and is what gets exported.
 */
import { isGain } from './epsilon';
import { stripProtectedRegions } from '../skill/protected-regions';

export const GATE_METRICS = ['hard', 'soft', 'mixed'] as const;
export type GateMetric = (typeof GATE_METRICS)[number];

export const DEFAULT_LEADING_WORDS = [
  'MUST',
  'ALWAYS',
  'NEVER',
  'ONLY',
  'CRITICAL',
  'IMPORTANT',
  'RESOLVE',
  'PREFER',
  'ENSURE',
  'STRICT',
  'VERIFY',
] as const;

export interface GateScoreOptions {
  metric: GateMetric;
  /** Weight of soft in the mixed metric, clamped to [0, 1]. */
  mixedWeight?: number;
  /** Optional semantic-density bonus (off unless a weight > 0 is given). */
  densityWeight?: number;
  leadingWords?: readonly string[];
}

/** Share of the body's tokens that are leading words (protected regions excluded). */
export function semanticDensity(skill: string, leadingWords: readonly string[] = DEFAULT_LEADING_WORDS): number {
  const tokens =
    stripProtectedRegions(skill)
      .toLowerCase()
      .match(/[a-z0-9]+/g) ?? [];
  if (tokens.length === 0) return 0;
  const lead = new Set(leadingWords.map((w) => w.toLowerCase()));
  return tokens.filter((t) => lead.has(t)).length / tokens.length;
}

/** The number the gate compares, from a skill's mean hard and soft scores on the selection split. */
export function gateScore(hard: number, soft: number, opts: GateScoreOptions, skill = ''): number {
  const w = Math.min(1, Math.max(0, opts.mixedWeight ?? 0.5));
  let score = opts.metric === 'hard' ? hard : opts.metric === 'soft' ? soft : (1 - w) * hard + w * soft;
  if (opts.densityWeight && opts.densityWeight > 0) {
    score += opts.densityWeight * semanticDensity(skill, opts.leadingWords);
  }
  return score;
}

export type GateAction = 'accept_new_best' | 'accept' | 'accept_tie' | 'reject' | 'force_accept';

/** Where the run stands: the skill it trains from and the best one seen. */
export interface GateState {
  currentSkill: string;
  currentScore: number;
  currentOrigin: string;
  bestSkill: string;
  bestScore: number;
  bestStep: number;
  bestOrigin: string;
}

export interface GateDecision {
  action: GateAction;
  state: GateState;
}

/**
 * Decide on a candidate. Strictly greater than the current score accepts (ties reject);
 * greater than best as well makes it the new best. With `useGate: false` the candidate always
 * becomes current (force-accept) and best moves only on a strict improvement.
 */
export function evaluateGate(
  state: GateState,
  candidate: { skill: string; score: number; origin: string; step: number },
  useGate = true,
  /** Scores to compare instead, when the two were measured on different items (errored rows). */
  compare?: { candidate: number; current: number },
): GateDecision {
  const beatsBest = candidate.score > state.bestScore;
  const best = beatsBest
    ? { bestSkill: candidate.skill, bestScore: candidate.score, bestStep: candidate.step, bestOrigin: candidate.origin }
    : {};
  const asCurrent = { currentSkill: candidate.skill, currentScore: candidate.score, currentOrigin: candidate.origin };
  if (!useGate) return { action: 'force_accept', state: { ...state, ...asCurrent, ...best } };
  if (compare ? compare.candidate > compare.current : candidate.score > state.currentScore) {
    return { action: beatsBest ? 'accept_new_best' : 'accept', state: { ...state, ...asCurrent, ...best } };
  }
  return { action: 'reject', state };
}

/**
 * The gate on an item-by-item verdict (issue #19): a strictly positive gain over the current skill
 * accepts; `beatsBest` says whether it also beats the best (the verdict was against the best, or
 * its score is higher). Scores move to the candidate's settled score.
 */
export function decidePaired(
  state: GateState,
  candidate: { skill: string; score: number; origin: string; step: number },
  o: { gain: number; beatsBest: boolean },
): GateDecision {
  if (!isGain(o.gain)) return { action: 'reject', state };
  return acceptPaired(state, candidate, o.beatsBest);
}

/** A candidate the verdict found better becomes current, and best too when it also beats the best. */
export function acceptPaired(
  state: GateState,
  candidate: { skill: string; score: number; origin: string; step: number },
  beatsBest: boolean,
): GateDecision {
  const o = { beatsBest };
  const asCurrent = { currentSkill: candidate.skill, currentScore: candidate.score, currentOrigin: candidate.origin };
  const best = o.beatsBest
    ? { bestSkill: candidate.skill, bestScore: candidate.score, bestStep: candidate.step, bestOrigin: candidate.origin }
    : {};
  return { action: o.beatsBest ? 'accept_new_best' : 'accept', state: { ...state, ...asCurrent, ...best } };
}

/**
 * Accept a candidate that ties on validation (the tie-break of credit.ts decided it may): it
 * becomes current, and best too when it ties best — same validation score, better on train.
 */
export function acceptTie(
  state: GateState,
  candidate: { skill: string; score: number; origin: string; step: number },
  tiesBest?: boolean,
): GateDecision {
  const best =
    (tiesBest ?? candidate.score >= state.bestScore)
      ? {
          bestSkill: candidate.skill,
          bestScore: candidate.score,
          bestStep: candidate.step,
          bestOrigin: candidate.origin,
        }
      : {};
  return {
    action: 'accept_tie',
    state: {
      ...state,
      currentSkill: candidate.skill,
      currentScore: candidate.score,
      currentOrigin: candidate.origin,
      ...best,
    },
  };
}

/** Whether an action put the candidate in place (for counting accepts). */
export function isAccept(action: string): boolean {
  return action.includes('accept');
}
