/**
 * Where a step's wall time goes (issue #45): the bench's store notes when each rollout row and
 * optimizer call is written, and a step's wall — from its start to its record — is cut at those
 * moments, each stretch going to the stage of the answer that ended it. A stage's wall then sits
 * beside its ⌈calls / concurrency⌉ × latency: what it would take if its calls all went at once.
 */
import { MemoryRunStore } from '../../src/storage/memory-store';
import type { OptimizerCallRecord, RolloutRow, StepRecord } from '../../src/engine/types';

/** One write the bench saw: a rollout row (its phase) or an optimizer call (its key), and when. */
export interface Written {
  at: number;
  name: string;
  /** A rollout row reused from the cache, or a replayed call: no round trip. */
  cached: boolean;
}

/** A MemoryRunStore that notes when each row, call and step is written (the run's clock is the bench's). */
export class TimedStore extends MemoryRunStore {
  readonly written: Written[] = [];
  readonly stepEnds = new Map<number, number>();

  override async putRollout(row: RolloutRow) {
    this.written.push({ at: performance.now(), name: row.phase, cached: row.cached });
    return super.putRollout(row);
  }
  override async putCall(record: OptimizerCallRecord) {
    this.written.push({ at: performance.now(), name: record.key, cached: false });
    return super.putCall(record);
  }
  override async putStep(record: StepRecord) {
    this.stepEnds.set(record.step, performance.now());
    return super.putStep(record);
  }
}

/**
 * The stages a step's writes fall in, in the order a step runs them. The spot check goes with the
 * analysts (it is asked in their round trip); 'verdict rounds' are the train check's and the
 * gate's ask-again rounds; 'other' is what no answer ended (the step's bookkeeping at its end).
 */
export const STEP_STAGES = [
  'rollout',
  'reflect',
  'merge',
  'rank',
  'repair',
  'check',
  'gate',
  'verdict rounds',
  'recheck',
  'other',
] as const;
export type StepStage = (typeof STEP_STAGES)[number];

/** The stage of a step's write, by its phase or call key (`sNNNN/…`). */
export function stageOf(name: string): StepStage {
  const rest = name.replace(/^s\d+(\/b\d+)?\//, '');
  const repeat = /\/r\d+$/.test(rest);
  if (/^rollout/.test(rest)) return repeat ? 'reflect' : 'rollout';
  if (/^reflect_/.test(rest)) return 'reflect';
  if (/^merge_/.test(rest)) return 'merge';
  if (/^rank_edits/.test(rest)) return 'rank';
  if (/^repair_edits/.test(rest)) return 'repair';
  if (/\/recheck$/.test(rest)) return 'recheck';
  if (/^(check|gate)/.test(rest)) return repeat ? 'verdict rounds' : /^check/.test(rest) ? 'check' : 'gate';
  return 'other';
}

export interface StageFigure {
  stage: StepStage;
  /** Calls made (cache hits left out). */
  calls: number;
  /** ⌈calls / concurrency⌉ × latency: the stage's calls all sent at once. */
  idealMs: number;
  /** The stage's round trips in the step's bound, as the bench counts them (bench.ts), and × latency. */
  trips: number;
  boundMs: number;
  /** The stretches of the step's wall that ended with one of this stage's answers. */
  wallMs: number;
}

/**
 * A step's wall cut stage by stage: the stretch before each write goes to that write's stage, the
 * tail after the last write (the step's bookkeeping) to 'other'. The stages' walls sum to the step's.
 */
export function stepStages(
  store: TimedStore,
  step: { step: number; wallTimeMs: number },
  o: { latencyMs: number; concurrency: number; roundTrips: Partial<Record<StepStage, number>> },
): StageFigure[] {
  const end = store.stepEnds.get(step.step);
  if (end === undefined) return [];
  const start = end - step.wallTimeMs;
  const prefix = `s${String(step.step).padStart(4, '0')}/`;
  const mine = store.written.filter((w) => w.name.startsWith(prefix) && w.at >= start && w.at <= end);
  const figures = new Map<StepStage, StageFigure>(
    STEP_STAGES.map((stage) => [stage, { stage, calls: 0, idealMs: 0, trips: 0, boundMs: 0, wallMs: 0 }]),
  );
  let last = start;
  for (const w of mine) {
    const f = figures.get(stageOf(w.name))!;
    f.wallMs += w.at - last;
    if (!w.cached) f.calls++;
    last = w.at;
  }
  figures.get('other')!.wallMs += end - last;
  for (const f of figures.values()) {
    f.idealMs = Math.ceil(f.calls / o.concurrency) * o.latencyMs;
    f.trips = o.roundTrips[f.stage] ?? 0;
    f.boundMs = f.trips * o.latencyMs;
  }
  return [...figures.values()].filter((f) => f.calls > 0 || f.trips > 0 || f.wallMs >= 1);
}
