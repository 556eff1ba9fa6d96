/**
 * Seeded batch plans (algorithm doc §2.2, §3.1, §3.6). Every seed derives from the run's base
 * seed, so the same seed gives the same plan — on a resumed run too.
 */
import { shuffled } from '../basics/random';

export interface PlannedBatch<T> {
  /** 0-based index of the batch within its epoch. */
  index: number;
  items: T[];
  /** seed + 1000·epoch + index + 1; reused to shuffle this batch's reflect minibatches. */
  seed: number;
}

export interface EpochPlanOptions {
  /** 1-based epoch. */
  epoch: number;
  seed: number;
  batchSize: number;
  accumulation: number;
  stepsPerEpoch: number;
}

/** The batches of one epoch: one pass over `train` in a new order, chunked by batch size. */
export function planEpochBatches<T>(train: readonly T[], o: EpochPlanOptions): PlannedBatch<T>[] {
  const base = o.seed + 1000 * o.epoch;
  const items = shuffled(train, base);
  const batches: PlannedBatch<T>[] = [];
  let cursor = 0;
  for (let b = 0; b < o.stepsPerEpoch * o.accumulation; b++) {
    let chunk = items.slice(cursor, cursor + o.batchSize);
    cursor += chunk.length;
    // Only possible with accumulation > 1: the pass is exhausted, so draw a fresh sample.
    if (chunk.length === 0 && items.length > 0) chunk = shuffled(items, base + b + 1).slice(0, o.batchSize);
    batches.push({ index: b, items: chunk, seed: base + b + 1 });
  }
  return batches;
}

/** The batches a step (0-based within its epoch) uses. */
export function batchesForStep<T>(
  plan: readonly PlannedBatch<T>[],
  stepInEpoch: number,
  accumulation: number,
): PlannedBatch<T>[] {
  return plan.slice(stepInEpoch * accumulation, stepInEpoch * accumulation + accumulation);
}

/** Consecutive chunks of size n (the last one may be short). */
export function chunk<T>(items: readonly T[], n: number): T[][] {
  const size = Math.max(1, Math.floor(n));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface ReflectGroups<T> {
  failure: T[][];
  success: T[][];
}

/**
 * Reflect minibatches (§3.1): failures shuffled with the batch seed, successes with seed + 1,
 * each cut into minibatches of size M. `failureOnly` leaves the success list empty.
 */
export function reflectMinibatches<T>(
  failures: readonly T[],
  successes: readonly T[],
  batchSeed: number,
  minibatchSize: number,
  failureOnly = false,
): ReflectGroups<T> {
  return {
    failure: chunk(shuffled(failures, batchSeed), minibatchSize),
    success: failureOnly ? [] : chunk(shuffled(successes, batchSeed + 1), minibatchSize),
  };
}

/**
 * The train items the epoch-boundary comparison uses (§3.6 step 2): the whole train split in
 * the order of seed + 2000·epoch. The first n are the sample; the rest top up the 'changed'
 * pair policy, one item at a time.
 */
export function longitudinalOrder<T>(train: readonly T[], seed: number, epoch: number): T[] {
  return shuffled(train, seed + 2000 * epoch);
}
