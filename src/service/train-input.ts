/**
 * What the engine trains for a stored run: its config, data, starting skill and prices, and —
 * when it has trigger queries — the activation track's queries with the SKILL.md name and
 * description. One place for the page's worker and the CLI, so both start a run alike.
 */
import type { RunConfig } from '../core/config/run-config';
import type { TrainInput } from '../engine/run/trainer';
import type { RunDataset } from '../engine/types';
import type { RunRecord } from '../storage/schema';
import { readableKeptFiles } from '../core/agent/package-text-files';

export function trainInputOf(run: RunRecord, data: RunDataset, config: RunConfig = run.config): TrainInput {
  return {
    runId: run.id,
    config,
    data: { items: data.items, splits: data.splits, ...(data.tools?.length ? { tools: data.tools } : {}) },
    initialSkill: run.initialSkill,
    prices: run.prices,
    ...(run.skillPackage ? { packageFiles: readableKeptFiles(run.skillPackage) } : {}),
    ...(run.triggerQueries?.length
      ? {
          activation: {
            queries: run.triggerQueries,
            name: run.skillMeta?.name || run.skillPackage?.name || 'skill',
            description: run.skillMeta?.description ?? '',
          },
        }
      : {}),
  };
}
