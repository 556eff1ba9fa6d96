/**
 * The Target contract (issue #41 item 7): what the engine relies on from whatever is trained, run
 * over each adapter of the port (engine/target-port.ts) — the chat call live and from a batch's
 * answer, the tool loop, an agent CLI through its harness. Rules:
 * [TG1] run a skill on one item: the answer the target gave (right for a skill that states the
 *       item's rule, wrong for one that does not), with its tokens;
 * [TG2] each call it makes is counted, and billed to the run's meter at the phase's stage;
 * [TG3] an agent's trajectory ends in its final answer; a single answer has no trajectory;
 * [TG4] a failure is an LlmError — the item's error row, never an answer;
 * [TG5] a cancelled run stops with an 'aborted' LlmError (targets that wait on a call).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RUN_CONFIG, type RunConfig } from '../../src/core/config/run-config';
import type { DatasetItem } from '../../src/core/dataset/dataset-types';
import type { ToolSpec } from '../../src/core/agent/tool-spec';
import { createStandaloneContext } from '../../src/engine/context';
import { isLlmError, type LlmPort } from '../../src/engine/ports';
import { targetDeps } from '../../src/engine/rollout';
import type { Target, TargetJob, TargetRun } from '../../src/engine/target-port';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { loadPrompts } from './prompts';

/** One adapter on one item: the skill that answers it, the right answer, and how to make it fail. */
export interface TargetCase {
  target: Target;
  llm: LlmPort;
  item: DatasetItem;
  /** A skill that states the item's rule, and its right answer. */
  skill: string;
  right: string;
  /** The job's extra (a batch's answer for this item and skill). */
  job?: Partial<TargetJob>;
  config?: Partial<RunConfig>;
  /** Tools the dataset offers every item (the tool loop's declared results). */
  datasetTools?: ToolSpec[];
}

export interface TargetMaker {
  ready(): Promise<TargetCase>;
  /** The same target, failing on the item; null where it cannot fail. */
  failing: (() => Promise<TargetCase>) | null;
  /** Whether the target waits on calls a cancel can stop (a batch's answer is already there). */
  cancellable: boolean;
}

async function runCase(c: TargetCase, signal?: AbortSignal): Promise<{ run: TargetRun; calls: number; spent: number }> {
  const ctx = await createStandaloneContext({
    runId: 'target-contract',
    config: { ...DEFAULT_RUN_CONFIG, ...c.config },
    llm: c.llm,
    store: new MemoryRunStore(),
    prompts: loadPrompts(),
    items: [c.item],
    prices: { target: { input: 1, output: 1 } },
    target: c.target,
    ...(signal ? { signal } : {}),
    ...(c.datasetTools ? { datasetTools: c.datasetTools } : {}),
  });
  const counter = { calls: 0 };
  const job: TargetJob = { skill: c.skill, item: c.item, phase: 'test/best', cacheKey: 'k|contract', ...c.job };
  const run = await c.target.run(job, targetDeps(ctx, counter));
  await run.episode?.close();
  return { run, calls: counter.calls, spent: ctx.meter.byStage.test?.calls ?? 0 };
}

export function targetContract(name: string, make: TargetMaker): void {
  describe(`Target contract: ${name}`, () => {
    it('[TG1] answers one item with the skill, with the tokens it took', async () => {
      const c = await make.ready();
      const { run } = await runCase(c);
      expect(run.answer).toContain(c.right);
      expect(run.usage.promptTokens + run.usage.completionTokens).toBeGreaterThan(0);
    });

    it('[TG2] counts every call it makes and bills it at the phase’s stage', async () => {
      const c = await make.ready();
      const { calls, spent } = await runCase(c);
      expect(calls).toBeGreaterThan(0);
      // A batch's line was billed when the batch was read; a live call is billed as it is made.
      if (!c.job?.batched) expect(spent).toBe(calls);
    });

    it('[TG3] ends an agent’s trajectory in its final answer; a single answer has none', async () => {
      const c = await make.ready();
      const { run } = await runCase(c);
      if (run.entries) {
        const last = run.entries[run.entries.length - 1];
        expect(last).toMatchObject({ kind: 'assistant', content: run.answer });
      } else expect(c.target.agentic && !c.job?.batched).toBe(false);
    });

    it.skipIf(!make.failing)('[TG4] fails with an LlmError, never an answer', async () => {
      const c = await make.failing!();
      const e = await runCase(c).then(
        () => null,
        (x: unknown) => x,
      );
      expect(isLlmError(e), String(e)).toBe(true);
    });

    it.skipIf(!make.cancellable)('[TG5] stops with an aborted LlmError when the run is cancelled', async () => {
      const c = await make.ready();
      const ac = new AbortController();
      ac.abort('pause');
      const e = await runCase(c, ac.signal).then(
        () => null,
        (x: unknown) => x,
      );
      expect(isLlmError(e) && e.kind, String(e)).toBe('aborted');
    });
  });
}
