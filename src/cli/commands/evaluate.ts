/**
 * `skillwright eval --config F [--skill F] [--data F] [--split test|val|train] [--shard K/N --rollouts FILE]
 * [--merge FILE…] [--json]`: one skill scored, no training. With `--shard` only shard K's items are
 * scored, and `--rollouts` keeps their rows for a final `--merge` (issue #42 item 6: cli/shard.ts).
 */
import { resolve } from 'node:path';
import type { SplitName } from '../../core/dataset/dataset-types';
import { evaluateSkill } from '../../service/evaluation';
import { MemoryRunStore } from '../../storage/memory-store';
import { ConfigError } from '../config';
import { inputChecked, runnerDeps } from '../host';
import { loadInputs } from '../inputs';
import { EXIT, stopOnInterrupt, type CliArgs, type CliIo } from '../io';
import { Progress } from '../progress';
import { checkedSpec } from '../environment';
import { mergeFiles, parseShard, shardItems } from '../shard';
import { checkWritable, MergedRollouts, scoringIdentity, writeShardFile } from '../shard-file';

/** Score one skill (--skill, else the config's, else none) on a split, without training. */
export async function evaluate(args: CliArgs, io: CliIo, rest: readonly string[] = []): Promise<number> {
  const merging = mergeFiles(args.merge, rest, 'eval');
  const split = (args.split ?? 'test') as SplitName;
  if (!['train', 'val', 'test'].includes(split)) throw new ConfigError('--split must be train, val or test.');
  const shard = args.shard !== undefined ? parseShard(args.shard) : null;
  if (shard && !args.rollouts) throw new ConfigError('--shard needs --rollouts FILE: where its rollouts are kept.');
  const rolloutsFile = args.rollouts ? resolve(args.rollouts) : null;
  if (rolloutsFile) checkWritable(rolloutsFile);
  const { config, dataset, skill, input, environment, workspaceRoot } = loadInputs(args, io);
  const scoring = scoringIdentity(config.run, config.endpoints);
  const merged = merging.length
    ? MergedRollouts.read(
        merging.map((f) => resolve(f)),
        dataset.items,
        scoring,
      )
    : null;
  const ids = shard ? shardItems(dataset.splits[split], shard) : dataset.splits[split];
  const spec = await checkedSpec(environment, io.importModule);
  const controller = stopOnInterrupt(io);
  const progress = new Progress(io.err, io.rawErr);
  const r = inputChecked(
    await evaluateSkill(
      runnerDeps(io, environment, null, workspaceRoot),
      {
        skill,
        split,
        limit: 0,
        config: config.run,
        endpoints: config.endpoints,
        prices: config.prices,
        data: {
          items: dataset.items,
          splits: { ...dataset.splits, [split]: ids },
          ...(dataset.tools ? { tools: dataset.tools } : {}),
        },
        ...(spec ? { environment: spec } : {}),
        ...(input.meta ? { skillMeta: input.meta } : {}),
      },
      {
        signal: controller.signal,
        onEvent: (e) => progress.event(e),
        ...(merged ? { store: merged.over(new MemoryRunStore()) } : {}),
      },
    ),
  );
  progress.done();
  if (merged) io.err(merged.words());
  if (!r.ok) {
    io.err(`Stopped: ${r.error.message}`);
    return EXIT.paused;
  }
  const shardText = shard ? `${shard.k}/${shard.n}` : null;
  if (rolloutsFile) {
    const t = config.endpoints.target;
    writeShardFile(rolloutsFile, r.rows, {
      shard: shardText ?? 'all',
      items: new Map(dataset.items.map((i) => [i.id, i])),
      scoring,
      target: `${t.model} at ${t.agentCommand ? 'an agent CLI' : t.baseURL}`,
    });
    io.err(`${r.rows.length} rollout(s)${shardText ? ` of shard ${shardText}` : ''} written to ${rolloutsFile}.`);
  }
  io.err(
    `${split}${shardText ? ` (shard ${shardText}, ${ids.length} of ${dataset.splits[split].length} items)` : ''}: ${(r.hard * 100).toFixed(1)}% correct, partial credit ${(r.soft * 100).toFixed(1)}%, on ${r.n} items${r.errors ? ` (${r.errors} errored, not scored)` : ''}; cost $${r.costUsd.toFixed(4)}.`,
  );
  if (args.json)
    io.out(
      JSON.stringify({
        split,
        hard: r.hard,
        soft: r.soft,
        n: r.n,
        errors: r.errors,
        costUsd: r.costUsd,
        ...(shardText ? { shard: shardText, items: ids } : {}),
        ...(merged ? { merged: merged.json() } : {}),
      }),
    );
  return EXIT.lift;
}
