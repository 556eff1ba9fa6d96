/**
 * Generated worlds in `npm run bench:quality` (issue #40; generated-world.ts): a fixed development
 * set and a fresh set whose base seed is new on every run (printed, and `--fresh-seed=N` replays
 * it), so tuning to seeds does not pay. Per set: held-out (the best skill's accuracy on the test
 * items without noise) mean, 10th percentile and minimum over the worlds with something to learn;
 * runs stuck at their start (held-out no better than the start's, though a better skill is
 * reachable); A/A runs that accept a step; training target calls per run and to reach 0.95.
 */
import { randomInt } from 'node:crypto';
import type { RunConfig } from '../../src/core/config/run-config';
import { hashFraction } from './sim-text';
import { neutralReflection, aaOptimizerAnswer } from './aa-world';
import { DEV_BASE, describeWorld, generatedItems, worldSet, type GeneratedWorld } from './generated-world';
import { hardWorldDatasetOf, noiseFreeAccuracy, trainSetup, type SeedOptions, type SeedSetup } from './bench-quality';
import { stuck, type WorldResult } from './generated-figures';

/** An analyst that proposes nothing useful now and then: a rewording, or no edit at all. */
function uselessAnalyst(share: number) {
  return (stage: string, _system: string, user: string): unknown => {
    if ((stage !== 'reflect_failure' && stage !== 'reflect_success') || hashFraction(`useless\n${user}`) >= share)
      return undefined;
    if (hashFraction(`useless how\n${user}`) < 0.5) return neutralReflection(user);
    return { batch_size: 5, failure_summary: [], patch: { reasoning: 'nothing stands out', edits: [] } };
  };
}

/** What a generated world trains on. */
export function generatedSetup(w: GeneratedWorld): SeedSetup {
  const data = hardWorldDatasetOf(generatedItems(w));
  const hook = w.aa ? aaOptimizerAnswer : w.useless > 0 ? uselessAnalyst(w.useless) : undefined;
  return {
    server: {
      world: 'hard',
      spec: w.spec,
      noise: w.slip,
      repairSlip: w.repairSlip,
      ...(w.targetNoise ? { targetNoise: w.targetNoise } : {}),
      ...(hook ? { optimizerHook: hook } : {}),
    },
    data,
    initialSkill: w.spec.initialSkill,
    heldOut: (skill) => noiseFreeAccuracy(skill, data, w.spec),
    valTruth: (skill) => noiseFreeAccuracy(skill, data, w.spec, 'val'),
  };
}

/** Train every world of a set, two at a time. */
export async function trainWorlds(
  worlds: readonly GeneratedWorld[],
  knobs: Partial<RunConfig>,
  opts: SeedOptions = {},
  onDone?: (r: WorldResult) => void,
): Promise<WorldResult[]> {
  const out: WorldResult[] = [];
  for (let i = 0; i < worlds.length; i += 2) {
    const pair = await Promise.all(
      worlds.slice(i, i + 2).map(async (world) => {
        const { result } = await trainSetup(world.name, generatedSetup(world), world.seed, knobs, opts);
        return { world, result };
      }),
    );
    for (const r of pair) onDone?.(r);
    out.push(...pair);
  }
  return out;
}

/** One table line per world. */
export function worldLine(r: WorldResult): string {
  const x = r.result;
  const iv = x.liftInterval ? `[${x.liftInterval[0].toFixed(2)}, ${x.liftInterval[1].toFixed(2)}]` : '—';
  return `  ${r.world.name.padEnd(10)} ${String(r.world.seed).padStart(11)}  start ${x.initialHeldOut.toFixed(3)}  held-out ${x.heldOut.toFixed(3)}${stuck(r) ? ' STUCK' : '      '}  calls ${String(x.trainingTargetCalls).padStart(4)}  to 0.95 ${String(x.callsTo95 ?? '—').padStart(4)}  accepts ${x.accepts}  lift ${(x.reportedLift ?? 0).toFixed(2)} ${iv}  | ${describeWorld(r.world)}`;
}

/** The sets a run asks for: `--generated=N` worlds in each (default `fallback`), `--sets=dev,fresh`, `--fresh-seed=N`. */
export function generatedSets(
  arg: (name: string) => string | undefined,
  fallback: number,
): { label: string; base: number; worlds: GeneratedWorld[] }[] {
  const count = Number(arg('generated') ?? fallback);
  if (!(count > 0)) return [];
  const names = (arg('sets') ?? 'dev,fresh').split(',').filter(Boolean);
  const freshBase = arg('fresh-seed') !== undefined ? Number(arg('fresh-seed')) : randomInt(1, 2 ** 31);
  return names.map((label) => {
    const base = label === 'dev' ? DEV_BASE : freshBase;
    return { label, base, worlds: worldSet(label, base, count) };
  });
}
