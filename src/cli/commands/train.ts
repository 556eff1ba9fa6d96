/**
 * `skillwright train --config F [--data F] [--skill F] [--out DIR] [--dry-run] [--max-usd N]`:
 * create the run the files name in the `--out` folder and train it. A run already in the folder is
 * continued only when it is this command's run on the config's hosts (issue #28 item 3).
 */
import { resolve } from 'node:path';
import type { CreateRunInput } from '../../service/runs';
import { createRunService } from '../../service/run-service';
import { ConfigError, keysFromEnv } from '../config';
import { hostChanges, runDifferences, serverChanges } from '../existing-run';
import { inputChecked, openFolder, runnerDeps } from '../host';
import { loadInputs } from '../inputs';
import { numberOption, type CliArgs, type CliIo } from '../io';
import { withOutLock } from '../out-lock';
import { continueRun } from '../session';
import { estimate } from './estimate';
import { checkedSpec } from '../environment';
import { mergeFiles } from '../shard';
import { MergedRollouts, saidMerged, scoringIdentity } from '../shard-file';

export async function train(args: CliArgs, io: CliIo, rest: readonly string[] = []): Promise<number> {
  const out = resolve(args.out ?? 'skillwright-out');
  const merging = mergeFiles(args.merge, rest, 'train');
  const { config, dataset, skill, input, triggers, environment, workspaceRoot } = loadInputs(args, io);
  const maxUsd = numberOption(args['max-usd'], 'max-usd');
  const runConfig =
    maxUsd !== undefined ? { ...config.run, budget: { ...config.run.budget, usd: maxUsd } } : config.run;
  if (args['dry-run']) return estimate(args, io);
  keysFromEnv(config.endpoints, io.env); // before anything is written
  const spec = await checkedSpec(environment, io.importModule); // a module that cannot serve is named before any call
  return withOutLock(out, async () => {
    const fresh: CreateRunInput = {
      ...(config.name ? { name: config.name } : {}),
      datasetId: dataset.id,
      config: runConfig,
      initialSkill: skill,
      endpoints: config.endpoints,
      prices: config.prices,
      ...(input.shell ? { skillPackage: input.shell } : {}),
      ...(input.meta ? { skillMeta: { name: input.meta.name ?? '', description: input.meta.description ?? '' } } : {}),
      ...(triggers ? { triggerQueries: triggers } : {}),
      ...(spec ? { environment: spec } : {}),
    };
    // Shards' rollouts (issue #42 item 6): found by the run's store where the run's cache keys match.
    const merged = merging.length
      ? MergedRollouts.read(
          merging.map((f) => resolve(f)),
          dataset.items,
          scoringIdentity(runConfig, config.endpoints),
        )
      : null;
    const records = merged ? merged.overRecords(openFolder(out)) : openFolder(out);
    const service = createRunService({ ...runnerDeps(io, environment, out, workspaceRoot), records });
    const stored = records.store.run;
    if (stored) {
      // A run in the out folder is continued by the same command — only if it is this command's run.
      const hosts = hostChanges(stored.endpoints, fresh.endpoints);
      const named = `${out} holds run ${stored.id} ("${stored.name}")`;
      if (hosts.length)
        throw new ConfigError(
          `${named}, made against other hosts than your config names (${hosts.join('; ')}); keys go only to hosts your config names. Choose another --out for a new run.`,
        );
      const servers = serverChanges(stored.environment?.mcp, fresh.environment?.mcp);
      if (servers.length)
        throw new ConfigError(
          `${named}, which calls other MCP servers than your config names: ${servers.join('; ')}. Your SKILLWRIGHT_MCP_*_TOKEN tokens go only to servers your config names. Choose another --out for a new run.`,
        );
      const differs = runDifferences({ run: stored, dataset: records.store.dataset }, { run: fresh, dataset });
      if (differs.length)
        throw new ConfigError(
          `${named}, which this command would not start: ${differs.join(', ')} differ. Choose another --out for a new run, or continue that one with: skillwright resume --out ${out}`,
        );
      io.err(`Continuing the run in ${out}.`);
      // Bound to this config's endpoints and prices (on the same hosts), under this command's cap.
      inputChecked(await service.bindRun(stored.id, fresh.endpoints, config.prices));
      return saidMerged(merged, io, await continueRun({ service, runId: stored.id, out, args, io }, runConfig.budget));
    }
    await records.putDataset(dataset);
    const created = inputChecked(await service.createRun(fresh));
    if (!created.ok) throw new ConfigError(created.error.message);
    return saidMerged(merged, io, await continueRun({ service, runId: created.runId, out, args, io }));
  });
}
