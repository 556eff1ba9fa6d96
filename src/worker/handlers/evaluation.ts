/** One skill rolled out without a run, and the cost estimate of a planned run. */
import { ESTIMATE_SAMPLE, estimateCost } from '../../engine/cost-estimate';
import type { RunEvent } from '../../engine/events';
import { buildPromptSet } from '../../engine/prompts';
import { rolloutTemplateOf } from '../../engine/context';
import { evaluateSkill } from '../../engine/evaluate';
import { improveWithFeedback } from '../../engine/feedback';
import { MemoryRunStore } from '../../storage/memory-store';
import { createLlmPort } from '../../llm/openai-client';
import { getDataset, getDatasetIndex, noteTestLook } from '../../storage/datasets-repo';
import type { DatasetItem } from '../../core/dataset-types';
import type { EvaluationApi } from '../api-types';
import { keyFor } from '../key-binding';
import { EventCoalescer } from '../event-coalescer';
import { fail, endpointConfig, type ApiContext } from './context';

export function evaluationHandlers(c: ApiContext): EvaluationApi {
  const { dbp, deps, now, vault } = c;
  // The estimate reads the first items only: kept per dataset (stored datasets never change), so
  // a settings change does not read a dataset of up to 100 MB again (issue #20 item 15).
  const samples = new Map<string, DatasetItem[]>();
  const sampleOf = async (id: string): Promise<DatasetItem[] | null> => {
    if (!(await getDatasetIndex(await dbp, id))) return null; // deleted since
    let sample = samples.get(id);
    if (!sample) {
      const d = await getDataset(await dbp, id);
      if (!d) return null;
      sample = d.items.slice(0, ESTIMATE_SAMPLE);
      samples.set(id, sample);
    }
    return sample;
  };
  return {
    async evaluateSkill(input, onEvent) {
      const d = await getDataset(await dbp, input.datasetId);
      if (!d) return fail('not_found', 'That dataset is not in this browser.');
      const k = await vault.current();
      const t = keyFor(k, 'target', input.endpoints.target.baseURL);
      if (!t.ok) return fail(t.kind, t.message);
      // Only a judge scorer calls a second model here: the judge endpoint, else the optimizer.
      const judging = input.config.scorer.kind === 'judge';
      const ownJudge = judging ? input.endpoints.judge : undefined;
      const o = judging && !ownJudge ? keyFor(k, 'optimizer', input.endpoints.optimizer.baseURL, 'target') : null;
      if (o && !o.ok) return fail(o.kind, o.message);
      const j = ownJudge ? keyFor(k, 'judge', ownJudge.baseURL, 'optimizer') : null;
      if (j && !j.ok) return fail(j.kind, j.message);
      const llm = createLlmPort(
        {
          target: endpointConfig(input.endpoints.target, t.key, input.config.targetConcurrency, 'target'),
          optimizer: endpointConfig(
            input.endpoints.optimizer,
            o?.ok ? o.key : 'unused-no-judge',
            input.config.optimizerConcurrency,
            'optimizer',
          ),
          ...(ownJudge && j?.ok
            ? { judge: endpointConfig(ownJudge, j.key, input.config.optimizerConcurrency, 'judge') }
            : {}),
        },
        { ...deps.clientOptions, fetch: c.fetch },
      );
      const events = new EventCoalescer((e: RunEvent) => onEvent?.(e), deps.progressIntervalMs ?? 100);
      const r = await evaluateSkill(
        {
          skill: input.skill,
          split: input.split,
          limit: input.limit,
          config: input.config,
          data: { items: d.items, splits: d.splits },
          prices: input.prices,
        },
        {
          llm,
          store: new MemoryRunStore(),
          prompts: buildPromptSet(deps.promptFiles, input.config.promptOverrides),
          onEvent: (e) => events.push(e),
          now,
        },
      );
      await events.close();
      if (!r.ok) return fail(r.kind, r.reason);
      // Scores on the test split were seen before training ended: counted, so the page can warn.
      if (input.split === 'test')
        await noteTestLook(await dbp, input.datasetId, 'a skill was evaluated on the test split', now());
      return { ok: true, hard: r.hard, soft: r.soft, n: r.n, errors: r.errors, rows: r.rows, costUsd: r.costUsd };
    },

    async improveWithFeedback(input) {
      const o = keyFor(await vault.current(), 'optimizer', input.endpoints.optimizer.baseURL, 'target');
      if (!o.ok) return fail(o.kind, o.message);
      if (!input.feedback.trim()) return fail('invalid_input', 'Write some feedback first.');
      const endpoint = endpointConfig(input.endpoints.optimizer, o.key, 1, 'optimizer');
      // The target is never called here; the port needs one, so it gets the optimizer's endpoint.
      const llm = createLlmPort({ target: endpoint, optimizer: endpoint }, { ...deps.clientOptions, fetch: c.fetch });
      const r = await improveWithFeedback(
        { skill: input.skill, feedback: input.feedback, config: input.config, prices: input.prices },
        {
          llm,
          store: new MemoryRunStore(),
          prompts: buildPromptSet(deps.promptFiles, input.config.promptOverrides),
          now,
        },
      );
      if (!r.ok) return fail(r.kind, r.reason);
      const applied = r.report.filter((x) => x.status.startsWith('applied')).length;
      return {
        ok: true,
        reasoning: r.reasoning,
        candidate: r.candidate,
        applied,
        proposed: r.edits.length,
        costUsd: r.costUsd,
      };
    },

    async estimateCost(input) {
      const index = await getDatasetIndex(await dbp, input.datasetId);
      const items = index && (await sampleOf(input.datasetId));
      if (!index || !items) return fail('not_found', 'That dataset is not in this browser.');
      const prompts = buildPromptSet(deps.promptFiles, input.config.promptOverrides);
      const estimate = estimateCost({
        config: input.config,
        items,
        splits: index.counts,
        skill: input.skill,
        template: rolloutTemplateOf(input.config, prompts),
        prompts,
        prices: input.prices,
        batchOneShot: input.batchOneShot,
        ...(input.triggers ? { triggers: input.triggers } : {}),
      });
      return { ok: true, estimate };
    },
  };
}
