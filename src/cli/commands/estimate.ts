/** `skillwright estimate --config F [--data F] [--skill F] [--json]`: the cost estimate the page shows before a run. */
import { estimateCost } from '../../service/evaluation';
import type { CliConfig } from '../config';
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
    ...(config.endpoints.targets ? { gateTargets: config.endpoints.targets } : {}),
  });
  const batchOneShot = Boolean(config.endpoints.target.batchApi);
  const cost = e.totalCostUsd === null ? unknownCost(config, e) : `$${e.totalCostUsd.toFixed(2)}`;
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

/**
 * Why the cost is unknown: no price is set — or a role is an agent CLI (issue #42 item 3), whose
 * calls run on its own login at a price only the person knows; the priced calls are still summed.
 */
function unknownCost(config: CliConfig, e: ReturnType<typeof estimateCost>): string {
  const agents = (['target', 'optimizer'] as const).filter(
    (r) => config.endpoints[r].agentCommand && !config.prices[r],
  );
  if (!agents.length) return 'unknown (set "prices" in the config)';
  const said = agents.map((r) => `the ${r}'s calls run through the agent CLI ${config.endpoints[r].model}`);
  const priced = Object.values(e.stages).reduce((a, s) => a + (s?.costUsd ?? 0), 0);
  const rest = Object.values(e.stages).some((s) => s?.costUsd != null) ? `; the other calls $${priced.toFixed(2)}` : '';
  const set = agents.map((r) => `"prices.${r}"`).join(' or ');
  return `unknown — ${said.join(', and ')} on its own login, at a price Skillwright does not know (set ${set} to count it)${rest}`;
}
