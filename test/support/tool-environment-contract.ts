/**
 * The tool-environment contract (issue #41 item 7): what the engine's agent relies on from
 * wherever a tool's answers come from — the dataset's declared results, a person's environment
 * module, an MCP server — run over each of them in the parts desk (core/simulators/demo-tool-world.ts),
 * whose `lookup` answers from one catalogue everywhere. Rules:
 * [TE1] the agent is offered the desk's `lookup` with its description and argument schema;
 * [TE2] a skill earns the same through every environment: the same calls, results and scores
 *       as through the declared results;
 * [TE3] a tool that fails on one call is the agent's problem: its words go back to the model as
 *       an error result, and the row is scored (environments whose tools can fail);
 * [TE4] episodes are independent: one closed leaves another answering (environments with episodes).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import type { ToolEnvironment } from '../../src/engine/environment';
import { evaluateSkill } from '../../src/engine/run/evaluate';
import type { RolloutRow, RunDataset } from '../../src/engine/types';
import { createLlmPort } from '../../src/llm/openai-client';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { testEndpoint } from './endpoints';
import { loadPrompts } from './prompts';
import { LOOKUP, LOOKUP_TOOL, NUMBER, toolWorldFile } from './tool-world';

/** The desk as one environment serves it: its data, and the environment (none: the declared results). */
export interface Desk {
  data: RunDataset;
  environment?: ToolEnvironment;
}

/** A desk whose `lookup` fails for part 103 with 'the catalogue is locked'; null where tools cannot fail. */
export interface DeskMaker {
  desk(): Promise<Desk>;
  failing: (() => Promise<Desk>) | null;
}

export const DESK_SKILL = `# Parts\n\nAnswer with the part's name or weight.\n\n${LOOKUP}\n${NUMBER}\n`;

/** The parts desk answered from its declared results: the reference every environment is held to. */
export function declaredDesk(n = 30): RunDataset {
  const r = importDatasetText(toolWorldFile(n));
  if (!r.ok) throw new Error('the tool world is invalid');
  return { items: r.dataset.items, splits: r.dataset.splits, tools: r.dataset.tools };
}

export function evaluateDesk(llmUrl: string, desk: Desk) {
  const config = { ...DEFAULT_RUN_CONFIG, targetConcurrency: 4 };
  const llm = createLlmPort(
    { target: testEndpoint(llmUrl, 'sim-target', { concurrency: 4 }), optimizer: testEndpoint(llmUrl, 'sim-optimizer') },
    { backoffBaseMs: 5 },
  );
  return evaluateSkill(
    { skill: DESK_SKILL, split: 'test', limit: 0, config, data: desk.data },
    { llm, store: new MemoryRunStore(), prompts: loadPrompts(), ...(desk.environment ? { environment: desk.environment } : {}) },
  );
}

const toolEntries = (rows: readonly RolloutRow[]) =>
  rows.flatMap((r) => (r.trajectory ?? []).flatMap((e) => (e.kind === 'tool' ? [{ item: r.itemId, ...e }] : [])));

export function toolEnvironmentContract(name: string, llmUrl: () => string, make: DeskMaker): void {
  describe(`tool-environment contract: ${name}`, () => {
    it('[TE1] offers the desk’s lookup with its description and argument schema', async () => {
      const desk = await make.desk();
      const tools = desk.environment ? await desk.environment.tools() : (desk.data.tools ?? []);
      expect(tools.find((t) => t.name === 'lookup')).toMatchObject({
        name: 'lookup',
        description: LOOKUP_TOOL.function.description,
        parameters: LOOKUP_TOOL.function.parameters,
      });
      desk.environment?.dispose?.();
    });

    it('[TE2] earns what the declared results earn: the same calls, results and scores', async () => {
      const desk = await make.desk();
      const [out, ref] = await Promise.all([evaluateDesk(llmUrl(), desk), evaluateDesk(llmUrl(), { data: declaredDesk() })]);
      desk.environment?.dispose?.();
      if (!out.ok || !ref.ok) throw new Error(out.ok ? (ref as { reason: string }).reason : out.reason);
      const strip = (rows: readonly RolloutRow[]) => rows.map((r) => [r.itemId, r.hard, r.trajectory]);
      expect(strip(out.rows)).toEqual(strip(ref.rows));
      expect(out.hard).toBeGreaterThan(0);
      expect(toolEntries(out.rows).length).toBe(out.rows.length);
    });

    it.skipIf(!make.failing)('[TE3] a tool that fails is the agent’s problem: an error result, and the row is scored', async () => {
      const desk = await make.failing!();
      const out = await evaluateDesk(llmUrl(), desk);
      desk.environment?.dispose?.();
      if (!out.ok) throw new Error(out.reason);
      const locked = toolEntries(out.rows).find((e) => e.item === 't003');
      expect(locked).toMatchObject({ error: true, result: expect.stringContaining('the catalogue is locked') });
      expect(out.rows.every((r) => r.status === 'ok')).toBe(true);
    });

    it('[TE4] keeps episodes apart: one closed leaves another answering', async () => {
      const desk = await make.desk();
      const env = desk.environment;
      if (!env) return; // the declared results have no episodes: each call is answered from its item
      const [a, b] = desk.data.items;
      const [one, two] = await Promise.all([env.open(a), env.open(b)]);
      await one.close();
      const declared = declaredDesk().items.find((i) => i.id === b.id)!.agent!.toolResults![0];
      const answer = await two.call('lookup', declared.arguments as Record<string, unknown>);
      expect(answer.error).toBeUndefined();
      expect(answer.result).toBe(declared.result);
      await two.close();
      env.dispose?.();
    });
  });
}

