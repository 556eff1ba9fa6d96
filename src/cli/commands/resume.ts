/**
 * `skillwright resume --out DIR [--bundle F] [--config F] [--max-usd N]`: continue the run in the
 * folder — or first take a run bundle in (a run exported from the page), bound to the endpoints
 * and prices the config names, so a key goes only to hosts the person's own config names. A
 * config also names the agents' environment: a run taken in from a bundle runs only the module
 * file the config names, never the copy the bundle brought.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { RunConfig } from '../../core/config/run-config';
import { createRunService } from '../../service/run-service';
import { ConfigError, keysFromEnv, parseCliConfig } from '../config';
import { inputChecked, openFolder, runnerDeps, storePath } from '../host';
import { numberOption, readText, type CliArgs, type CliIo } from '../io';
import { withOutLock } from '../out-lock';
import { continueRun } from '../session';
import { checkBundleChecks, checkBundleEnvironment } from '../bundle-environment';
import { importDatasetText } from '../../core/dataset/dataset-import';
import type { DatasetItem } from '../../core/dataset/dataset-types';
import { readEnvironment } from '../environment';
import { mergeFiles } from '../shard';
import { MergedRollouts, saidMerged, scoringIdentity } from '../shard-file';

const capText = (b: RunConfig['budget'] | undefined) =>
  b?.usd !== undefined || b?.tokens !== undefined
    ? [b.usd !== undefined ? `$${b.usd}` : '', b.tokens !== undefined ? `${b.tokens} tokens` : '']
        .filter(Boolean)
        .join(', ')
    : 'no cap';

/** The items of the dataset a config names (null when it does not import: then it vouches for no check). */
function ownItems(path: string): DatasetItem[] | null {
  const r = importDatasetText(readText(path, 'dataset'), { fileName: path });
  return r.ok ? r.dataset.items : null;
}

const readConfig = (file: string) => parseCliConfig(readText(resolve(file), 'config file'), file).config;

export async function resume(args: CliArgs, io: CliIo, rest: readonly string[] = []): Promise<number> {
  const out = resolve(args.out ?? 'skillwright-out');
  const merging = mergeFiles(args.merge, rest, 'resume');
  // Shards' rollouts (issue #42 item 6), read once the run's dataset and scoring are known.
  const merged = merging.length ? new MergedRollouts() : null;
  if (!args.bundle && !existsSync(storePath(out)))
    throw new ConfigError(`No run in ${out} (${storePath(out)} is missing).`);
  // A bundle continues on what the person's own config names: its endpoints, and its environment.
  const config = args.config ? readConfig(args.config) : null;
  const env = config ? readEnvironment(config, dirname(resolve(args.config!))) : null;
  // The config's dataset, when it names one: its folder holds the items' workspaces (issue #42 item 4).
  const data = config?.data ? resolve(dirname(resolve(args.config!)), config.data) : null;
  return withOutLock(out, async () => {
    const records = merged ? merged.overRecords(openFolder(out)) : openFolder(out);
    // Workspaces: the config's dataset's folder, else the folder the run's dataset was read from, else the bundle's.
    const root =
      (data ? dirname(data) : undefined) ??
      records.store.dataset?.folder ??
      (args.bundle ? dirname(resolve(args.bundle)) : undefined);
    // An agent's module: the config's (checked against the run's), else the run's own copy in `out`.
    const service = createRunService({ ...runnerDeps(io, env, out, root), records });
    if (args.bundle) {
      const text = readText(resolve(args.bundle), 'run bundle');
      if (records.store.run) throw new ConfigError(`${out} already holds a run; choose another --out.`);
      if (!config || !env)
        throw new ConfigError('--bundle needs --config: the run continues on the endpoints your config names.');
      keysFromEnv(config.endpoints, io.env);
      checkBundleEnvironment(text, env);
      checkBundleChecks(text, data ? ownItems(data) : null);
      const taken = inputChecked(await service.importBundle(text, { needsDataset: true }));
      if (!taken.ok) throw new ConfigError(taken.error.message);
      // Its MCP servers become the config's: their names bind the tokens, their lists the tools.
      inputChecked(
        await service.bindRun(taken.runId, config.endpoints, config.prices, env.mcp ? { mcp: env.mcp } : {}),
      );
    }
    const run = records.store.run;
    if (!run) throw new ConfigError(`${storePath(out)} holds no run and dataset.`);
    const maxUsd = numberOption(args['max-usd'], 'max-usd');
    // A bundle's cap is the sender's: a run taken in goes on under the person's own (issue #39 M5).
    const own = args.bundle && config ? config.run.budget : run.config.budget;
    const budget = maxUsd !== undefined ? { ...own, usd: maxUsd } : args.bundle ? own : undefined;
    if (args.bundle && JSON.stringify(run.config.budget) !== JSON.stringify(budget))
      io.err(
        `This run goes on under your budget cap (${capText(budget)}: --max-usd, or "run.budget" in your config), not the bundle's (${capText(run.config.budget)}).`,
      );
    merged?.load(
      merging.map((f) => resolve(f)),
      records.store.dataset?.items ?? [],
      scoringIdentity(run.config, run.endpoints),
    );
    return saidMerged(merged, io, await continueRun({ service, runId: run.id, out, args, io }, budget));
  });
}
