/** `skillwright estimate --config F [--data F] [--skill F] [--json]`: the cost estimate the page shows before a run. */
import { estimateCost } from '../../service/evaluation';
import { estimatedEffort } from '../../core/config/capabilities';
import { loadInputs } from '../inputs';
import { EXIT, type CliArgs, type CliIo } from '../io';
import { runnerDeps } from '../host';
import { declaredSpec } from '../environment';

export function estimate(args: CliArgs, io: CliIo): number {
  const { config, dataset, skill, sizes, triggers, environment } = loadInputs(args, io);
  const spec = declaredSpec(environment);
  const e = estimateCost(runnerDeps(io), {
    config: config.run,
    items: dataset.items,
    splits: sizes,
    skill,
    prices: config.prices,
    target: config.endpoints.target,
    reasoning: {
      target: estimatedEffort(config.endpoints.target),
      optimizer: estimatedEffort(config.endpoints.optimizer),
    },
    ...(dataset.tools ? { datasetTools: dataset.tools } : {}),
    ...(spec ? { environment: spec } : {}),
    ...(triggers ? { triggerQueries: triggers } : {}),
    ...(config.endpoints.confirm ? { confirm: config.endpoints.confirm } : {}),
  });
  const batchOneShot = Boolean(config.endpoints.target.batchApi);
  const cost = e.totalCostUsd === null ? 'unknown (set "prices" in the config)' : `$${e.totalCostUsd.toFixed(2)}`;
  io.err(`Estimate: ${e.totalCalls} calls, ${e.totalTokens.toLocaleString('en-US')} tokens, cost ${cost}.`);
  for (const [stage, s] of Object.entries(e.stages))
    if (s) io.err(`  ${stage.padEnd(16)} ${String(s.calls).padStart(7)} calls`);
  if (batchOneShot) io.err('  baseline, final validation and test through the target’s batch API, at half price');
  const stages = Object.fromEntries(
    Object.entries(e.stages).map(([k, s]) => [k, { calls: s?.calls, costUsd: s?.costUsd }]),
  );
  if (args.json)
    io.out(JSON.stringify({ calls: e.totalCalls, tokens: e.totalTokens, costUsd: e.totalCostUsd, stages }));
  return EXIT.lift;
}
