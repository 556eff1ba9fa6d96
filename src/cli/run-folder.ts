/**
 * What a finished run's `--out` folder gives a command that works on its skill (issue #43 item 4:
 * `skillwright credit DIR`): the run's settings, endpoints and prices, its dataset, its environment,
 * and its best skill — as the run stored them, so the credit is of the skill the run exported, on the
 * validation items it was chosen on. A run taken in from a bundle and never bound to the person's
 * own endpoints is refused: no key goes to a host a file named.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SessionInput } from '../service/evaluation';
import { ConfigError } from './config';
import { openFolder, storePath } from './host';

/** Whether `path` is a run's `--out` folder. */
export const isRunFolder = (path: string | undefined): path is string =>
  path !== undefined && existsSync(storePath(resolve(path)));

export interface RunFolderInputs {
  shared: SessionInput;
  /** The folder's run, in words for the terminal. */
  label: string;
  /** Where the items' workspaces are (the folder the dataset was read from). */
  workspaceRoot: string | undefined;
}

export async function runFolderInputs(dir: string): Promise<RunFolderInputs> {
  const out = resolve(dir);
  const records = openFolder(out);
  const run = records.store.run;
  const dataset = records.store.dataset;
  if (!run || !dataset) throw new ConfigError(`${storePath(out)} holds no run and dataset.`);
  if (run.needsBinding)
    throw new ConfigError(
      `The run in ${out} was taken in from a bundle and names someone else's endpoints: continue it with ` +
        `skillwright resume --out ${out} --config F first, or credit its skill with --config F --skill F.`,
    );
  const state = await records.store.loadState();
  const best = state?.gate.bestSkill ?? run.initialSkill;
  const shared: SessionInput = {
    skill: best,
    config: run.config,
    endpoints: run.endpoints,
    prices: run.prices,
    data: { items: dataset.items, splits: dataset.splits, ...(dataset.tools ? { tools: dataset.tools } : {}) },
    ...(run.environment ? { environment: run.environment } : {}),
    ...(run.skillMeta ? { skillMeta: run.skillMeta } : {}),
  };
  const which = state?.gate.bestSkill ? `its best skill (step ${state.gate.bestStep})` : 'its starting skill';
  return { shared, label: `the run in ${out} ("${run.name}", ${run.status}): ${which}`, workspaceRoot: dataset.folder };
}
