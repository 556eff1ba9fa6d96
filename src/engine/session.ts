/**
 * What the stages of one session of a run share (issue #10): the engine context, the run's
 * data, the stage announcer and the version writer. The trainer builds it once per session; it
 * sits at the engine's top because the step, the epoch's end and the finish all take it.
 */
import type { EngineContext } from './context';
import type { EngineStage } from './events';
import type { RunDataset, StepRecord } from './types';
import { isAccept } from '../core/verdict/gate';
import type { LlmPort } from './ports';
import type { Target } from './target-port';
import type { Price } from './meter';
import type { ActivationData } from './activation';

/** A target that confirms the run's skills: its own LLM port (the target role's endpoint is its own) and adapter. */
export interface ConfirmTarget {
  label: string;
  llm: LlmPort;
  target: Target;
  /** Its own price (issue #42 item 5): its calls are billed at it rather than at the run's target's. */
  price?: Price;
}

/** What a session confirms with: the training target's name and the others. */
export interface TransferSetup {
  trained: string;
  confirm: readonly ConfirmTarget[];
}

export interface TrainSession {
  ctx: EngineContext;
  data: RunDataset;
  totalSteps: number;
  /** Announce the stage under way (an event for the dashboard). */
  stage: (s: EngineStage, step: number, epoch: number) => void;
  /** Store a skill version the run produced. */
  saveVersion: (text: string, origin: string, step: number) => Promise<void>;
  /** The activation track's queries and starting description, when the run trains the description. */
  activation?: ActivationData;
  /** The targets that confirm the run's skills on test after training (run/transfer.ts). */
  transfer?: TransferSetup;
}

/** Accepted, rejected and skipped steps among these. */
export function countActions(steps: readonly Pick<StepRecord, 'action'>[]): {
  accepts: number;
  rejects: number;
  skips: number;
} {
  return {
    accepts: steps.filter((s) => isAccept(s.action)).length,
    rejects: steps.filter((s) => s.action === 'reject').length,
    skips: steps.filter((s) => s.action.startsWith('skip_')).length,
  };
}
