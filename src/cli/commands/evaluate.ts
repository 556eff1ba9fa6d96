/** `skillwright eval --config F [--skill F] [--data F] [--split test|val|train] [--json]`: one skill scored, no training. */
import type { SplitName } from '../../core/dataset/dataset-types';
import { evaluateSkill } from '../../service/evaluation';
import { ConfigError } from '../config';
import { inputChecked, runnerDeps } from '../host';
import { loadInputs } from '../inputs';
import { EXIT, stopOnInterrupt, type CliArgs, type CliIo } from '../io';
import { Progress } from '../progress';
import { checkedSpec } from '../environment';

/** Score one skill (--skill, else the config's, else none) on a split, without training. */
export async function evaluate(args: CliArgs, io: CliIo): Promise<number> {
  const split = (args.split ?? 'test') as SplitName;
  if (!['train', 'val', 'test'].includes(split)) throw new ConfigError('--split must be train, val or test.');
  const { config, dataset, skill, input, environment, workspaceRoot } = loadInputs(args, io);
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
        data: { items: dataset.items, splits: dataset.splits, ...(dataset.tools ? { tools: dataset.tools } : {}) },
        ...(spec ? { environment: spec } : {}),
        ...(input.meta ? { skillMeta: input.meta } : {}),
      },
      { signal: controller.signal, onEvent: (e) => progress.event(e) },
    ),
  );
  progress.done();
  if (!r.ok) {
    io.err(`Stopped: ${r.error.message}`);
    return EXIT.paused;
  }
  io.err(
    `${split}: ${(r.hard * 100).toFixed(1)}% correct, partial credit ${(r.soft * 100).toFixed(1)}%, on ${r.n} items${r.errors ? ` (${r.errors} errored, not scored)` : ''}; cost $${r.costUsd.toFixed(4)}.`,
  );
  if (args.json)
    io.out(JSON.stringify({ split, hard: r.hard, soft: r.soft, n: r.n, errors: r.errors, costUsd: r.costUsd }));
  return EXIT.lift;
}
