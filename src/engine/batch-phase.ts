/**
 * One-shot phases through the provider's batch API (issue #22 item 4). Before the baseline,
 * final validation, a test phase or an evaluation asks the target item by item, the items it
 * would ask go out as one batch at about half price. The batch id is checkpointed (artifact
 * `batch/<phase>`), so a run stopped or reloaded while the provider works picks the same batch
 * up again. The answers then flow through the phase as live ones would — scored the same way,
 * written as the same rows (marked `viaBatch`), billed at the batch price; a line that failed,
 * was not run, could not be read or answered an item twice is an error row, never a wrong
 * answer, and a resume asks it again. A saved batch id the endpoint does not know is forgotten
 * with a warning and the phase sent again. Phases that stop early or re-sample stay live: they
 * are small, or their next call depends on the last answer.
 */
import { BATCH_CALL_STAGES, BATCH_PRICE_FACTOR } from '../core/config/batch-api';
import { callStageOfPhase } from '../core/config/stages';
import { renderRollout } from '../core/config/templates';
import type { EngineContext } from './context';
import { PauseError } from './pause';
import { isLlmError, LlmError, type BatchLine } from './ports';
import type { BatchAnswer } from './target-port';
import { dropCheckpoint, getCheckpoint, putCheckpoint } from './artifacts';
import type { Reservation } from './meter';

/** Sessions whose endpoint turned out to have no batch API: their phases go live. */
const noBatchApi = new WeakSet<EngineContext>();

/** Consecutive failed polls before the run pauses (the provider keeps the batch meanwhile). */
const POLL_FAILURES = 5;

/** Whether a phase goes through the batch API: a first sample of a one-shot phase, asked in full. */
export function sendsByBatch(
  ctx: EngineContext,
  phase: string,
  o: { canStillWin?: unknown; repeat?: number },
): boolean {
  // An agent's rollout takes several turns, each waiting on the last: it cannot be one batch line.
  if (!ctx.llm.targetBatch || ctx.agent.active || noBatchApi.has(ctx) || o.canStillWin || (o.repeat ?? 0) > 0)
    return false;
  return BATCH_CALL_STAGES.has(callStageOfPhase(phase)) || phase.startsWith('eval/');
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => new LlmError('aborted', 'The call was cancelled.', { role: 'target' });
    if (signal.aborted) return reject(aborted());
    const onAbort = () => {
      clearTimeout(t);
      reject(aborted());
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Send these items of a phase as one batch (or find the batch already sent), wait for it, and
 * return each item's answer. Returns null when the endpoint has no batch API: ask live.
 */
export async function answerByBatch(
  ctx: EngineContext,
  phase: string,
  skill: string,
  hash: string,
  itemIds: readonly string[],
): Promise<Map<string, BatchAnswer> | null> {
  const port = ctx.llm.targetBatch!;
  const saved = await getCheckpoint(ctx.store, ctx.runId, 'batch', phase);
  // A checkpoint is reused only for the same skill and items it was sent for.
  const reuse = saved && saved.skillHash === hash && itemIds.every((id) => saved.itemIds.includes(id));
  const lines: BatchLine[] = itemIds.map((id) => {
    const m = renderRollout(ctx.rolloutTemplate, skill, ctx.items.get(id)!, ctx.config.rollout.contextLimit);
    const messages = [
      { role: 'system' as const, content: m.system },
      { role: 'user' as const, content: m.user },
    ];
    return { customId: id, request: { role: 'target', stage: 'rollout', messages } };
  });
  // The batch's cost is set aside while it runs, at the batch price, like calls in flight.
  const reservations: Reservation[] = [];
  const release = () => reservations.splice(0).forEach((r) => ctx.meter.release(r));
  try {
    for (const l of lines)
      reservations.push(
        ctx.meter.reserve(
          'target',
          l.request.messages.reduce((n, m) => n + m.content.length, 0),
          BATCH_PRICE_FACTOR,
        ),
      );
    const send = async (): Promise<string | null> => {
      let id: string;
      try {
        id = await port.submit(lines, ctx.signal);
      } catch (e) {
        if (isLlmError(e) && e.kind === 'not_found') {
          noBatchApi.add(ctx);
          ctx.emit({
            type: 'log',
            level: 'warn',
            message: `The target endpoint has no batch API (404): ${phase} and the phases after it are asked live, at the usual price.`,
          });
          return null;
        }
        throw pauseFor(e, `sending ${phase} as a batch`, 'Resume to try again.');
      }
      await putCheckpoint(ctx.store, ctx.runId, 'batch', phase, {
        batchId: id,
        skillHash: hash,
        itemIds: [...itemIds],
      });
      ctx.emit({
        type: 'log',
        level: 'info',
        message: `Sent ${lines.length} target calls of ${phase} as batch ${id} (${port.label}) at about half price; the provider answers within minutes to 24 hours. The run can be paused, closed and resumed meanwhile.`,
      });
      return id;
    };
    let batchId: string | null;
    if (reuse) {
      batchId = saved.batchId;
      ctx.emit({
        type: 'log',
        level: 'info',
        message: `Waiting again for batch ${batchId} (${phase}), sent before the run stopped.`,
      });
    } else batchId = await send();
    if (batchId === null) return null;
    let answers: Map<string, BatchAnswer>;
    try {
      answers = await settle(ctx, batchId, phase);
    } catch (e) {
      // A saved id the endpoint does not know (another account, a purged batch, another server)
      // would pause every resume: it is forgotten, and the phase goes out again, once.
      if (!(e instanceof UnknownBatch) || !reuse) throw e instanceof UnknownBatch ? e.pause : e;
      ctx.emit({
        type: 'log',
        level: 'warn',
        message: `The target endpoint does not know batch ${batchId} (${phase}), sent before the run stopped: it is forgotten, and ${phase} is sent again.`,
      });
      batchId = await send();
      if (batchId === null) return null;
      answers = await settle(ctx, batchId, phase).catch((x: unknown) => {
        throw x instanceof UnknownBatch ? x.pause : x;
      });
    }
    // Read once: the rows written next are the checkpoint; a failed line is asked again by a new batch.
    await dropCheckpoint(ctx.store, ctx.runId, 'batch', phase);
    const missing = new LlmError(
      'server',
      `Batch ${batchId} returned no answer for this item; a resumed run asks again.`,
      { role: 'target' },
    );
    return new Map(itemIds.map((id) => [id, answers.get(id) ?? missing]));
  } finally {
    release();
  }
}

/** The endpoint answered "not found" for a batch id: forgotten (so a resume sends the phase again). */
class UnknownBatch extends Error {
  constructor(readonly pause: PauseError) {
    super(pause.message);
  }
}

const isNotFound = (e: unknown) => isLlmError(e) && e.kind === 'not_found';

/** Wait for a batch and read its answers; a batch the endpoint does not know is forgotten. */
async function settle(ctx: EngineContext, batchId: string, phase: string) {
  const port = ctx.llm.targetBatch!;
  try {
    await waitFor(ctx, batchId, phase);
    return await port.results(batchId, ctx.signal);
  } catch (e) {
    if (!isNotFound(e)) throw pauseFor(e, `reading the answers of batch ${batchId}`);
    await dropCheckpoint(ctx.store, ctx.runId, 'batch', phase);
    throw new UnknownBatch(
      new PauseError(
        'error_rate',
        `The target endpoint does not know batch ${batchId} (${phase}): it is forgotten; resume to send ${phase} again.`,
      ),
    );
  }
}

async function waitFor(ctx: EngineContext, batchId: string, phase: string): Promise<void> {
  const port = ctx.llm.targetBatch!;
  let failures = 0;
  // Polls start a second apart and back off to the port's interval: small batches often finish fast.
  let polls = 0;
  const pause = () => Math.min(port.pollMs, 1000 * 2 ** polls++);
  for (;;) {
    let p;
    try {
      p = await port.progress(batchId, ctx.signal);
      failures = 0;
    } catch (e) {
      if (isNotFound(e)) throw e; // settle() forgets the id
      if (!isLlmError(e) || e.kind === 'aborted' || e.fatal || ++failures > POLL_FAILURES)
        throw pauseFor(e, `asking for batch ${batchId}`);
      await sleep(pause(), ctx.signal);
      continue;
    }
    if (p.state === 'finished') return;
    if (p.state === 'failed') {
      await dropCheckpoint(ctx.store, ctx.runId, 'batch', phase);
      throw new PauseError(
        'llm_fatal',
        `The provider refused batch ${batchId} for ${phase}: ${p.message}. Resume to send it again, or turn the batch API off for the target on Connect.`,
      );
    }
    ctx.emit({ type: 'progress', phase, done: p.finished, total: p.total });
    await sleep(pause(), ctx.signal);
  }
}

/** A failed batch request pauses the run (an abort stays an abort: it is the user's pause). */
function pauseFor(e: unknown, doing: string, next = 'The batch id is kept: resume to go on waiting.'): unknown {
  if (!isLlmError(e) || e.kind === 'aborted') return e;
  return new PauseError(
    e.fatal ? 'llm_fatal' : 'error_rate',
    `The target endpoint failed while ${doing}: ${e.message} ${next}`,
  );
}
