/**
 * Rolling a skill out on items with the target (stage 1, the gate, the slow update and test
 * evaluation all use this): each item is cached → the target's run (engine/target-port.ts;
 * whatever the target is) → scored → one row. Every finished row is a checkpoint. Rows are reused from the
 * same phase on resume, and from any phase through the rollout cache keyed by (skill hash,
 * item id, target settings). An errored row is kept out of the scores and of reflection; too
 * many errors pause the run. With an early-stop bound the items go in waves, in their fixed
 * order, and evaluation stops once the bound says the skill can no longer win.
 */
import { skillHash } from '../core/basics/hash';
import type { EngineContext } from './context';
import { scoreAnswer, type AnswerScore } from './answer-score';
import { scoreTrajectory } from './agent-score';
import { keptTrajectory, turnsOf } from '../core/agent/trajectory';
import { isLlmError, type LlmUsage } from './ports';
import { PauseError } from './pause';
import type { RolloutRow } from './types';
import { answerByBatch, sendsByBatch } from './batch-phase';
import { dropCheckpoint } from './artifacts';
import { callOptimizer } from './optimizer-call';
import type { BatchAnswer, TargetDeps, TargetRun } from './target-port';

const ZERO: LlmUsage = { promptTokens: 0, completionTokens: 0, reasoningTokens: 0 };

export interface PhaseOptions {
  phase: string;
  skill: string;
  itemIds: readonly string[];
  /**
   * Early stop: called after each wave with the best scores still reachable (every remaining
   * item passing) and the worst (every remaining item failing). Return false to stop: the
   * outcome is decided (the skill can no longer win, or, for a check, its verdict is certain).
   */
  canStillWin?: (
    upperHard: number,
    upperSoft: number,
    lowerHard: number,
    lowerSoft: number,
    rows: readonly RolloutRow[],
  ) => boolean | Promise<boolean>;
  /** Items per early-stop wave (default: the target concurrency). Fix it where the stop point must not depend on concurrency. */
  wave?: number;
  /**
   * Which sample of the skill on each item (0: the first). A repeat is a fresh call with its own
   * cache key, so the k-th sample of a skill on an item is drawn once and reused by every phase.
   */
  repeat?: number;
  /** Each item's position among its phase's rows (default: its index here); rows of one phase never share a position. */
  orders?: readonly number[];
}

export interface PhaseResult {
  rows: RolloutRow[];
  hard: number;
  soft: number;
  /** Rows scored (ok). */
  n: number;
  errors: number;
  /** All items were evaluated (no early stop). */
  complete: boolean;
  /** Target calls made in this phase (cache hits and replays excluded). */
  calls: number;
  skillHash: string;
}

/** The rows that were scored (errored rows are left out of every score). */
export const okRows = (rows: readonly RolloutRow[]): RolloutRow[] => rows.filter((r) => r.status === 'ok');

export function meanScores(rows: readonly RolloutRow[]): { hard: number; soft: number; n: number } {
  const ok = okRows(rows);
  if (!ok.length) return { hard: 0, soft: 0, n: 0 };
  return {
    hard: ok.reduce((a, r) => a + r.hard, 0) / ok.length,
    soft: ok.reduce((a, r) => a + r.soft, 0) / ok.length,
    n: ok.length,
  };
}

/** The rollout cache key: skill, item, target settings, and the sample's number when it is a repeat. */
export function rolloutCacheKey(hash: string, itemId: string, targetKey: string, repeat = 0): string {
  return `${hash}|${itemId}|${targetKey}${repeat > 0 ? `|r${repeat}` : ''}`;
}

/** The first samples stored for a skill (by hash) on these items, when every one of them is there. */
export async function storedFirstSamples(
  ctx: EngineContext,
  hash: string,
  itemIds: readonly string[],
): Promise<RolloutRow[] | null> {
  const rows = await Promise.all(
    itemIds.map((id) => ctx.store.findRollout(ctx.runId, rolloutCacheKey(hash, id, ctx.targetKey))),
  );
  return rows.every((r) => r !== undefined) ? (rows as RolloutRow[]) : null;
}

/** What the target may use of this session: its ports, slots, meter and settings (engine/target-port.ts). */
export function targetDeps(ctx: EngineContext, counter: { calls: number }): TargetDeps {
  return {
    runId: ctx.runId,
    config: ctx.config,
    llm: ctx.llm,
    store: ctx.store,
    slots: ctx.slots,
    meter: ctx.meter,
    signal: ctx.signal,
    rolloutTemplate: ctx.rolloutTemplate,
    agent: ctx.agent,
    ask: (key, prompt, values, role, memoise) => callOptimizer(ctx, key, prompt, values, role, memoise),
    onCall: () => void counter.calls++,
  };
}

/** The row of a run the target finished: its answer as scored, its trajectory when it had one. */
function scoredRow(base: RowBase, run: TargetRun, s: AnswerScore, latencyMs: number): RolloutRow {
  return {
    ...base,
    status: s.judgeError ? 'error' : 'ok',
    response: run.answer ?? '',
    predicted: s.predicted,
    hard: s.hard,
    soft: s.soft,
    ...(s.failReason ? { failReason: s.failReason } : {}),
    ...(s.judge ? { judge: s.judge } : {}),
    ...(s.judgeError ? { error: { kind: 'judge', message: s.judgeError } } : {}),
    usage: run.usage,
    latencyMs,
    cached: false,
    // An agent's trajectory (the tool loop's, a harness's transcript): the analysts read it.
    ...(run.entries ? { trajectory: keptTrajectory(run.entries), turns: turnsOf(run.entries) } : {}),
  };
}

type RowBase = Pick<RolloutRow, 'runId' | 'phase' | 'order' | 'itemId' | 'skillHash' | 'cacheKey' | 'viaBatch'>;

/** One item: its cached row, else the target's run of it scored — or the error row of a failed call. */
async function rolloutOne(
  ctx: EngineContext,
  o: PhaseOptions,
  hash: string,
  itemId: string,
  order: number,
  counter: { calls: number },
  batched?: BatchAnswer,
): Promise<RolloutRow> {
  const item = ctx.items.get(itemId);
  if (!item) throw new Error(`item ${itemId} is not in the dataset`);
  const cacheKey = rolloutCacheKey(hash, itemId, ctx.targetKey, o.repeat);
  const base: RowBase = {
    runId: ctx.runId,
    phase: o.phase,
    order,
    itemId,
    skillHash: hash,
    cacheKey,
    ...(batched ? { viaBatch: true as const } : {}),
  };
  const cached = await ctx.store.findRollout(ctx.runId, cacheKey);
  if (cached) {
    const row: RolloutRow = { ...cached, ...base, cached: true, usage: ZERO, latencyMs: 0 };
    await ctx.store.putRollout(row);
    return row;
  }
  const started = ctx.now();
  let row: RolloutRow;
  let run: TargetRun | null = null;
  try {
    const job = { skill: o.skill, item, phase: o.phase, cacheKey, ...(batched ? { batched } : {}) };
    run = await ctx.target.run(job, targetDeps(ctx, counter));
    for (const message of run.notes) ctx.emit({ type: 'log', level: 'warn', message });
    // A trajectory is scored as one: its calls checked, its turns named, a judge reading it whole.
    // An item's check (issue #42 item 4) scores it as one of a trajectory's checks, with or without a transcript.
    const s =
      run.entries || run.check
        ? await scoreTrajectory(ctx, item, { ...run, entries: run.entries ?? [] }, cacheKey)
        : await scoreAnswer(ctx, item, run.answer ?? '', cacheKey);
    row = scoredRow(base, run, s, ctx.now() - started);
  } catch (e) {
    if (!isLlmError(e)) throw e;
    if (e.kind === 'aborted') throw e;
    if (e.fatal) throw new PauseError('llm_fatal', e.message);
    row = {
      ...base,
      status: 'error',
      response: '',
      predicted: '',
      hard: 0,
      soft: 0,
      error: { kind: e.kind, message: e.message },
      usage: e.usage ?? ZERO, // a failed call that was billed keeps its tokens, for a resumed meter
      latencyMs: ctx.now() - started,
      cached: false,
    };
  } finally {
    await run?.episode?.close();
  }
  await ctx.store.putRollout(row);
  // The row holds the finished trajectory now: its checkpoint is no longer needed.
  if (run?.checkpointed && row.status === 'ok') await dropCheckpoint(ctx.store, ctx.runId, 'trajectory', cacheKey);
  return row;
}

export async function rolloutPhase(ctx: EngineContext, o: PhaseOptions): Promise<PhaseResult> {
  const hash = await skillHash(o.skill);
  const previous = new Map((await ctx.store.getRollouts(ctx.runId, o.phase)).map((r) => [r.order, r]));
  const counter = { calls: 0 };
  const total = o.itemIds.length;
  const reusable = (prev: RolloutRow | undefined, itemId: string): prev is RolloutRow =>
    !!prev &&
    (prev.status === 'ok' || prev.error?.kind === 'item_refused') &&
    prev.itemId === itemId &&
    prev.skillHash === hash;
  // A one-shot phase sends what it still has to ask as one provider batch (engine/batch-phase.ts).
  let batched: Map<string, BatchAnswer> | null = null;
  if (sendsByBatch(ctx, o.phase, o)) {
    const ask: string[] = [];
    for (const [i, id] of o.itemIds.entries()) {
      if (reusable(previous.get(o.orders?.[i] ?? i), id)) continue;
      if (!(await ctx.store.findRollout(ctx.runId, rolloutCacheKey(hash, id, ctx.targetKey, o.repeat)))) ask.push(id);
    }
    if (ask.length) batched = await answerByBatch(ctx, o.phase, o.skill, hash, [...new Set(ask)]);
  }
  const rows: RolloutRow[] = [];
  let done = 0;
  const runItem = async (itemId: string, order: number): Promise<RolloutRow> => {
    const prev = previous.get(order);
    // A finished row is reused on resume; so is an item the endpoint refused (asking again would be refused again).
    const row = reusable(prev, itemId)
      ? prev
      : await rolloutOne(ctx, o, hash, itemId, order, counter, batched?.get(itemId));
    done++;
    ctx.emit({ type: 'progress', phase: o.phase, done, total });
    return row;
  };
  const wave = o.canStillWin ? Math.max(1, o.wave ?? ctx.config.targetConcurrency) : Math.max(1, total);
  let complete = true;
  // A skill that could not win even with every item passing is not evaluated at all.
  if (o.canStillWin && total > 0 && !(await o.canStillWin(1, 1, 0, 0, []))) complete = false;
  for (let start = 0; complete && start < total; start += wave) {
    const ids = o.itemIds.slice(start, start + wave);
    rows.push(...(await Promise.all(ids.map((id, i) => runItem(id, o.orders?.[start + i] ?? start + i)))));
    const remaining = total - rows.length;
    if (o.canStillWin && remaining > 0) {
      const ok = rows.filter((r) => r.status === 'ok');
      const upperHard = (ok.reduce((a, r) => a + r.hard, 0) + remaining) / (ok.length + remaining);
      const upperSoft = (ok.reduce((a, r) => a + r.soft, 0) + remaining) / (ok.length + remaining);
      const lowerHard = ok.reduce((a, r) => a + r.hard, 0) / (ok.length + remaining);
      const lowerSoft = ok.reduce((a, r) => a + r.soft, 0) / (ok.length + remaining);
      if (!(await o.canStillWin(upperHard, upperSoft, lowerHard, lowerSoft, rows))) {
        complete = false;
        break;
      }
    }
  }
  const errors = rows.filter((r) => r.status === 'error').length;
  // Items the endpoint refused (content filter, context length) are excluded and counted; they
  // say nothing about the endpoint's health, so only the other errors can pause the run.
  const failed = rows.filter((r) => r.status === 'error' && r.error?.kind !== 'item_refused');
  if (rows.length && failed.length / rows.length > ctx.config.maxErrorRate) {
    const last = failed[failed.length - 1];
    throw new PauseError(
      'error_rate',
      `${failed.length} of ${rows.length} target calls in ${o.phase} failed after retries (last: ${last.error?.message}). Errors are not scored as wrong answers; the run is paused. Resume when the endpoint is healthy.`,
    );
  }
  const m = meanScores(rows);
  return { rows, hard: m.hard, soft: m.soft, n: m.n, errors, complete, calls: counter.calls, skillHash: hash };
}
