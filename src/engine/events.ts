/** What the engine reports while it runs. Small and frequent; large objects are fetched by id. */
import type { RunStatus, StageUsage } from './types';
import type { PipelineStage } from '../core/config/stages';
import type { CurveMark } from '../core/report/learning-curve';

/** What the engine is doing now: a pipeline stage (core/config/stages.ts). */
export type EngineStage = PipelineStage;

export type RunEvent =
  | { type: 'status'; status: RunStatus; reason?: string; reasonKind?: string }
  | { type: 'baseline'; score: number; n: number }
  | { type: 'stage'; stage: EngineStage; step: number; epoch: number; totalSteps: number }
  | { type: 'progress'; phase: string; done: number; total: number }
  | {
      type: 'step';
      step: number;
      epoch: number;
      action: string;
      candidateScore: number | null;
      /** The current skill's score the candidate had to beat (currentScore is the one after the step). */
      scoreBefore: number;
      currentScore: number;
      bestScore: number;
      trainHard: number;
      editBudget: number | null;
      /** The other target that refused a candidate the run's own target accepted (issue #42 item 5). */
      refusedBy?: string;
    }
  | { type: 'epoch'; epoch: number; slowUpdate?: string; metaSkill?: string }
  /** A point of the learning curve, as recorded (engine/curve-marks.ts): the baseline, a step, a measured boundary. */
  | { type: 'curve'; mark: CurveMark }
  /** How stochastic the target looks so far (issue #19): its flip rate, a cautious bound, the evidence. */
  | { type: 'noise'; noise: NoiseReading }
  | { type: 'usage'; usage: Record<string, StageUsage>; totalCostUsd: number }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string };

export type EventSink = (e: RunEvent) => void;

export interface NoiseReading {
  /** Share of repeated answers that went against their item's majority. */
  flipRate: number;
  /** A cautious (90 %) upper bound of it. */
  flipUpper: number;
  /** Repeated answers behind the figures, over this many (skill, item) units. */
  samples: number;
  units: number;
  /** Votes an item needs before its outcome counts as settled (1: a single answer). */
  margin: number;
  /**
   * Posterior verdicts (issue #32): the confidence the gate asks, and whether only the skill whose answers
   * are in doubt is asked again. Absent: votes settle each item (`margin`).
   */
  posterior?: { confidence: number; doubtfulSide: boolean };
}
