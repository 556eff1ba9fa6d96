/**
 * One skill rolled out without a run, its sections credited and a drop gated, feedback turned into a
 * candidate, and the cost estimate of a planned run.
 */
import { ESTIMATE_SAMPLE } from '../../engine/cost-estimate';
import type { RunEvent } from '../../engine/events';
import { getDataset, getDatasetIndex, noteTestLook } from '../../storage/datasets-repo';
import type { DatasetItem } from '../../core/dataset/dataset-types';
import type { ToolSpec } from '../../core/agent/tool-spec';
import type { RunDataset } from '../../engine/types';
import type { EvaluationApi } from '../api-types';
import { EventCoalescer } from '../event-coalescer';
import { fail, type ApiContext } from './context';

export function evaluationHandlers(c: ApiContext): EvaluationApi {
  const { dbp, deps, now } = c;
  // The estimate reads the first items only: kept per dataset (stored datasets never change), so
  // a settings change does not read a dataset of up to 100 MB again (issue #20 item 15).
  const samples = new Map<string, { items: DatasetItem[]; tools?: ToolSpec[] }>();
  const sampleOf = async (id: string): Promise<{ items: DatasetItem[]; tools?: ToolSpec[] } | null> => {
    if (!(await getDatasetIndex(await dbp, id))) return null; // deleted since
    let sample = samples.get(id);
    if (!sample) {
      const d = await getDataset(await dbp, id);
      if (!d) return null;
      sample = { items: d.items.slice(0, ESTIMATE_SAMPLE), ...(d.tools ? { tools: d.tools } : {}) };
      samples.set(id, sample);
    }
    return sample;
  };
  /** A use case on a stored dataset's items, its progress coalesced as an evaluation's. */
  const withStoredData = async <I extends { datasetId: string }, T>(
    input: I,
    onEvent: ((e: RunEvent) => unknown) | undefined,
    run: (data: RunDataset, rest: Omit<I, 'datasetId'>, o: { onEvent: (e: RunEvent) => void }) => Promise<T>,
  ): Promise<T | ReturnType<typeof fail>> => {
    const d = await getDataset(await dbp, input.datasetId);
    if (!d) return fail('not_found', 'That dataset is not in this browser.');
    const events = new EventCoalescer((e: RunEvent) => onEvent?.(e), deps.progressIntervalMs ?? 100);
    const { datasetId: _id, ...rest } = input;
    const data = { items: d.items, splits: d.splits, ...(d.tools ? { tools: d.tools } : {}) };
    const r = await run(data, rest, { onEvent: (e) => events.push(e) });
    await events.close();
    return r;
  };
  return {
    async evaluateSkill(input, onEvent) {
      const r = await withStoredData(input, onEvent, (data, rest, o) =>
        c.service.then((svc) => svc.evaluateSkill({ ...rest, data }, o)),
      );
      if (!r.ok) return r;
      // Scores on the test split were seen before training ended: counted, so the page can warn.
      if (input.split === 'test')
        await noteTestLook(await dbp, input.datasetId, 'a skill was evaluated on the test split', now());
      return r;
    },

    async creditSections(input, onEvent) {
      return withStoredData(input, onEvent, (data, rest, o) =>
        c.service.then((svc) => svc.creditSkillSections({ ...rest, data }, o)),
      );
    },

    async gateSectionDrop(input, onEvent) {
      return withStoredData(input, onEvent, (data, rest, o) =>
        c.service.then((svc) => svc.gateSectionDrop({ ...rest, data }, o)),
      );
    },

    async improveWithFeedback(input) {
      return (await c.service).improveWithFeedback(input);
    },

    async estimateCost(input) {
      const index = await getDatasetIndex(await dbp, input.datasetId);
      const sample = index && (await sampleOf(input.datasetId));
      if (!index || !sample) return fail('not_found', 'That dataset is not in this browser.');
      const { datasetId: _id, ...rest } = input;
      const estimate = (await c.service).estimateCost({
        ...rest,
        items: sample.items,
        splits: index.counts,
        datasetTools: sample.tools,
      });
      return { ok: true, estimate };
    },
  };
}
