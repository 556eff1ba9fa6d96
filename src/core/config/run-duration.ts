/**
 * How long a run may take, said before it runs (issue #33): each stage's calls spread over its
 * role's concurrency, each call taking a first-token latency plus its completion at an output
 * speed. The pace is an assumption, stated wherever the figure is shown; a running run's ETA
 * comes from its own measured steps instead (ui/train/RunDashboard.tsx).
 */
import { OPTIMIZER_STAGES, type CallStage } from './stages';

export interface Pace {
  /** Seconds to a call's first token. */
  latencyS: number;
  /** Completion tokens a second after that. */
  tokensPerS: number;
  /** The assumption in words, for the estimate's notes. */
  said: string;
}

/** A hosted model's typical pace; reasoning models and busy endpoints are slower. */
export const HOSTED_PACE: Pace = {
  latencyS: 0.6,
  tokensPerS: 60,
  said: 'Time: the calls spread over each role’s concurrency, each taking about 0.6 s plus 60 completion tokens a second, typical of a hosted model; reasoning models and busy endpoints take longer, and steps wait on each other.',
};

export interface StageCalls {
  calls: number;
  completionTokens: number;
}

/** Seconds for these calls at this pace and concurrency, as if every call of a stage could overlap. */
export function runSeconds(
  stages: Partial<Record<CallStage, StageCalls>>,
  concurrency: { targetConcurrency: number; optimizerConcurrency: number },
  pace: Pace,
): number {
  let total = 0;
  for (const [stage, s] of Object.entries(stages) as [CallStage, StageCalls | undefined][]) {
    if (!s || s.calls <= 0) continue;
    const lanes = Math.max(
      1,
      OPTIMIZER_STAGES.includes(stage) ? concurrency.optimizerConcurrency : concurrency.targetConcurrency,
    );
    const perCall = pace.latencyS + s.completionTokens / s.calls / pace.tokensPerS;
    total += Math.ceil(s.calls / lanes) * perCall;
  }
  return total;
}

/** "about 40 s", "about 12 min", "about 3.5 h". */
export function formatDuration(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}
