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
import { parseSkillFile, type SkillMeta } from '../core/skill/skill-file';

/** A run's skill's name and description, as its package's front matter says (an agent CLI finds it by them). */
export function skillMetaOf(run: Pick<RunRecord, 'skillMeta' | 'skillPackage'>): Partial<SkillMeta> | undefined {
  const front = run.skillPackage?.frontmatter ? parseSkillFile(`${run.skillPackage.frontmatter}\n`).meta : {};
  const name = run.skillMeta?.name || front.name || run.skillPackage?.name;
  const description = run.skillMeta?.description || front.description;
  return name || description ? { ...(name ? { name } : {}), ...(description ? { description } : {}) } : undefined;
}

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
