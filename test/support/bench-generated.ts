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
import { hardOptimizerAnswer } from './hard-optimizer';
import { DEV_BASE, describeWorld, generatedItems, worldSet, type GeneratedWorld } from './generated-world';
import type { HardWorldSpec } from './rule-world';
import { hardWorldDatasetOf, noiseFreeAccuracy, trainSetup, type SeedOptions, type SeedSetup } from './bench-quality';
import { stuck, type WorldResult } from './generated-figures';

/** How a fallible optimizer errs beyond the hard world's slips (shares of its calls, decided by a hash of the prompt). */
export interface Fallible {
  spec: HardWorldSpec;
  slip: number;
  repairSlip: number;
  /** Analyst calls that propose nothing useful: a rewording, or nothing. */
  useless?: number;
  /** Failure analyst calls that propose one fix only. */
  narrow?: number;
  /** Repairs that restore nothing. */
  repairBlind?: number;
}

/**
 * An optimizer beside the hard world's (hard-optimizer.ts), as a hook of the test server: analysts
 * that now and then propose nothing useful (a rewording or nothing) or one fix where they read
 * several, and a repairer that now and then restores nothing (it only drops edits).
 */
export function fallibleOptimizer(f: Fallible) {
  const hard = (stage: string, system: string, user: string) =>
    hardOptimizerAnswer(stage, system, user, { noise: f.slip, spec: f.spec, repairSlip: f.repairSlip }) as Record<
      string,
      unknown
    >;
  return (stage: string, system: string, user: string): unknown => {
    const reflects = stage === 'reflect_failure' || stage === 'reflect_success';
    if (reflects && hashFraction(`useless\n${user}`) < (f.useless ?? 0)) {
      if (hashFraction(`useless how\n${user}`) < 0.5) return neutralReflection(user);
      return { batch_size: 5, failure_summary: [], patch: { reasoning: 'nothing stands out', edits: [] } };
    }
    if (stage === 'reflect_failure' && hashFraction(`narrow\n${user}`) < (f.narrow ?? 0)) {
      const answer = hard(stage, system, user);
      const patch = answer.patch as { edits: unknown[] };
      return { ...answer, patch: { ...patch, edits: patch.edits.slice(-1) } };
    }
    if (stage === 'repair_edits' && hashFraction(`repair blind\n${user}`) < (f.repairBlind ?? 0))
      return { ...hard(stage, system, user), add_edits: [] };
    return undefined;
  };
}

/** A generated world's optimizer: the A/A world's that only rewords, or a fallible one. */
const worldOptimizer = (w: GeneratedWorld) => (w.aa ? aaOptimizerAnswer : fallibleOptimizer(w));

/** What a generated world trains on. */
export function generatedSetup(w: GeneratedWorld): SeedSetup {
  const data = hardWorldDatasetOf(generatedItems(w));
  return {
    server: {
      world: 'hard',
      spec: w.spec,
      noise: w.slip,
      repairSlip: w.repairSlip,
      ...(w.targetNoise ? { targetNoise: w.targetNoise } : {}),
      optimizerHook: worldOptimizer(w),
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
