/**
 * `skillwright credit [--config] F [--skill F] [--data F] --budget N [--drop] [--json]`, or
 * `skillwright credit DIR --budget N …` on a finished run's `--out` folder (its settings, endpoints,
 * dataset and best skill: cli/run-folder.ts) (issue #43 item 4): which section of the skill earns its
 * tokens — each section's effect on pass^1 on the validation items with its interval, by random
 * masking within N calls; what it costs per task and the lift per added cent. `--drop` puts the
 * sections harmful or without evidence of help to the gate as one candidate; nothing is written —
 * an accepted drop's text is in the JSON.
 */
import type { CreditReport } from '../../core/verdict/section-credit';
import { creditSkillSections, gateSectionDrop } from '../../service/section-credit';
import { resolve } from 'node:path';
import { ConfigError } from '../config';
import { inputChecked, runnerDeps } from '../host';
import { loadInputs } from '../inputs';
import { EXIT, stopOnInterrupt, type CliArgs, type CliIo } from '../io';
import { Progress } from '../progress';
import { checkedSpec } from '../environment';
import { withOutLock } from '../out-lock';
import { dropWhy } from '../../core/verdict/no-worse';
import { isRunFolder, runFolderInputs } from '../run-folder';
import type { SessionInput } from '../../service/evaluation';
import type { HostDeps } from '../../service/ports';

/** A finished run's folder: its settings, endpoints, dataset and best skill (the folder holds them all). */
async function folderInputs(
  folder: string,
  args: CliArgs,
  io: CliIo,
): Promise<{ shared: SessionInput; deps: HostDeps }> {
  const extra = (['config', 'skill', 'data'] as const).filter((k) => args[k] !== undefined);
  if (extra.length)
    throw new ConfigError(
      `${folder} is a run folder: its run names the settings, the dataset and the skill (its best), so ` +
        `${extra.map((k) => `--${k}`).join(', ')} cannot be given with it.`,
    );
  const r = await runFolderInputs(folder);
  io.err(`Crediting ${r.label}.`);
  return { shared: r.shared, deps: runnerDeps(io, null, folder, r.workspaceRoot) };
}

/** A config's skill and dataset (and environment), as `train` reads them. */
async function configInputs(
  args: CliArgs,
  positionals: readonly string[],
  io: CliIo,
): Promise<{ shared: SessionInput; deps: HostDeps }> {
  const named = { ...args, config: args.config ?? positionals[0] };
  const { config, dataset, skill, input, environment } = loadInputs(named, io);
  const spec = await checkedSpec(environment, io.importModule);
  const shared = {
    skill,
    config: config.run,
    endpoints: config.endpoints,
    prices: config.prices,
    data: { items: dataset.items, splits: dataset.splits, ...(dataset.tools ? { tools: dataset.tools } : {}) },
    ...(spec ? { environment: spec } : {}),
    ...(input.meta ? { skillMeta: input.meta } : {}),
  };
  return { shared, deps: runnerDeps(io, environment) };
}

const points = (v: number) => {
  const shown = Math.abs(v * 100).toFixed(1);
  return `${v >= 0 || Number(shown) === 0 ? '+' : '−'}${shown}`; // a rounding's −0.0 reads +0.0
};
const usd = (v: number | null) => (v === null ? 'no price' : `$${v.toFixed(6)}`);

/** The report as lines for the terminal, one per section. */
export function creditLines(r: CreditReport): string[] {
  const width = Math.max(...r.sections.map((s) => s.title.length), 7);
  const lines = r.sections.map((s) => {
    const head = `  ${s.title.padEnd(width)}  `;
    const cost = `${Math.round(s.tokens)} tokens/task, ${usd(s.costUsd)}`;
    if (s.effect === null) return `${head}kept (protected, not masked); ${cost}`;
    const perCent = s.liftPerCent === null ? '' : `; ${points(s.liftPerCent)} points per added cent`;
    return `${head}${points(s.effect)} points [${points(s.low!)}, ${points(s.high!)}] ${s.verdict}; ${cost}${perCent}`;
  });
  const lift = r.liftPerCent === null ? '' : `; the sections add ${points(r.liftPerCent)} points per added cent`;
  lines.push(
    `The skill: ${Math.round(r.skillTokens)} prompt tokens per task (${usd(r.skillCostUsd)}); ` +
      `with every section masked it scores ${(r.base * 100).toFixed(1)}%${lift}.`,
  );
  return lines;
}

export async function credit(args: CliArgs, positionals: readonly string[], io: CliIo): Promise<number> {
  const budget = Number(args.budget);
  if (args.budget === undefined || !Number.isInteger(budget) || budget < 1)
    throw new ConfigError(
      '--budget N is required: the most calls the masked evaluations may make (a whole number ≥ 1).',
    );
  // A run folder is read under its lock: no train or resume writes it meanwhile.
  const folder = isRunFolder(positionals[0]) ? resolve(positionals[0]) : null;
  if (folder)
    return withOutLock(folder, async () => {
      const { shared, deps } = await folderInputs(folder, args, io);
      return creditOn(shared, deps, budget, args, io);
    });
  const { shared, deps } = await configInputs(args, positionals, io);
  return creditOn(shared, deps, budget, args, io);
}

async function creditOn(
  shared: SessionInput,
  deps: HostDeps,
  budget: number,
  args: CliArgs,
  io: CliIo,
): Promise<number> {
  const controller = stopOnInterrupt(io);
  const progress = new Progress(io.err, io.rawErr);
  const o = { signal: controller.signal, onEvent: (e: Parameters<Progress['event']>[0]) => progress.event(e) };
  const r = inputChecked(await creditSkillSections(deps, { ...shared, budget }, o));
  progress.done();
  if (!r.ok) {
    io.err(`Stopped: ${r.error.message}`);
    return EXIT.paused;
  }
  const { report } = r;
  io.err(
    `Section credit: ${r.masks} masks on ${r.plan.items} validation items, ${r.calls} calls of ${budget}` +
      `${r.errors ? ` (${r.errors} errored, not scored)` : ''}, cost $${r.costUsd.toFixed(4)}; ` +
      `effects on pass^1 with ${Math.round(report.level * 100)}% intervals over items` +
      `${report.leftOut ? ` (${report.leftOut} items left out: too few scored masks)` : ''}:`,
  );
  creditLines(report).forEach((l) => io.err(l));
  const names = report.droppable.map((i) => report.sections[i].title);
  if (names.length && !args.drop)
    io.err(`Worth dropping (harmful, or no evidence of help): ${names.join(', ')} — --drop puts that to the gate.`);
  let drop = null;
  if (args.drop && names.length) {
    const d = inputChecked(await gateSectionDrop(deps, { ...shared, sections: report.droppable }, o));
    progress.done();
    if (!d.ok) {
      io.err(`Stopped: ${d.error.message}`);
      return EXIT.paused;
    }
    const { ok: _ok, ...gated } = d;
    drop = { sections: names, ...gated };
    io.err(
      `The gate ${d.accepted ? 'accepts' : 'refuses'} dropping ${names.join(', ')}: validation ` +
        `${(d.current * 100).toFixed(1)}% → ${(d.score * 100).toFixed(1)}% (${d.calls} calls)` +
        `${dropWhy(d)}${d.accepted ? '; its text is in the --json output.' : '.'}`,
    );
  }
  if (args.json) {
    const { report: _report, ok: _ok, ...figures } = r;
    io.out(JSON.stringify({ ...report, ...figures, drop }));
  }
  return EXIT.lift;
}
