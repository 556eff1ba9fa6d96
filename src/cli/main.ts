/**
 * `skillwright`, the headless runner (issue #22): the page's run service, engine, prompts, run
 * config, dataset importer and scorers, run from a terminal or CI with a config file and a store
 * on disk. This file reads the command line and turns what a command returns or throws into an
 * exit code; each command is a file of ./commands.
 *
 *   skillwright train  --config F [--data F] [--skill F] [--out DIR] [--dry-run] [--json] [--max-usd N] [--min-lift N]
 *   skillwright resume --out DIR [--bundle F] [--config F] [--json] [--max-usd N] [--min-lift N]
 *   (train and resume take --merge FILE… too: shards' rollouts the run reuses, see cli/shard.ts)
 *   skillwright estimate --config F [--data F] [--skill F]
 *   skillwright eval --config F [--skill F] [--data F] [--split test|val|train] [--json]
 *                    [--shard K/N --rollouts FILE] [--merge FILE…]
 *   skillwright doctor --config F [--write] [--json]
 *   skillwright credit [--config] F [--skill F] [--data F] --budget N [--drop] [--json]
 *   skillwright credit DIR --budget N [--drop] [--json]   (a finished run's --out folder: its best skill)
 *
 * `--skill` is a .md file, or a skill package: a folder or a .zip holding SKILL.md (cli/skill-files.ts).
 *
 * Exit codes: 0 a lift was accepted; 100 no lift (or below --min-lift); 3 paused (budget cap, error
 * rate, Ctrl-C) — the same command resumes; 2 a config or data problem; 1 anything else.
 */
import { DamagedStoreError } from '../storage/file-store';
import { estimate } from './commands/estimate';
import { evaluate } from './commands/evaluate';
import { credit } from './commands/credit';
import { doctor } from './commands/doctor';
import { resume } from './commands/resume';
import { train } from './commands/train';
import { cliConfigSchema } from './config-schema';
import { ConfigError } from './config';
import { EXIT, numberOption, parseCliArgs, type CliIo } from './io';

export { EXIT, type CliIo };

const USAGE = `usage: skillwright train --config F [--data F] [--skill F] [--out DIR] [--dry-run] [--json] [--max-usd N] [--min-lift N]
       skillwright resume --out DIR [--bundle F] [--config F] [--json] [--max-usd N] [--min-lift N]
       skillwright estimate --config F [--data F] [--skill F]
       skillwright eval --config F [--skill F] [--data F] [--split test|val|train] [--json]
                        [--shard K/N --rollouts FILE] [--merge FILE…]   (score shard K of N; reuse shards' rows)
       skillwright doctor --config F [--write] [--json]   (what each role's model accepts; --write keeps it)
       skillwright credit [--config] F [--skill F] [--data F] --budget N [--drop] [--json]   (each section's effect)
       skillwright credit DIR --budget N [--drop] [--json]   (the same for a finished run's --out folder: its best skill)
       skillwright schema   (the config's JSON Schema, for "$schema" in an editor)
train, resume and eval take --merge FILE…: rollouts of eval --shard runs, reused where this run's cache keys match.
Keys come from SKILLWRIGHT_TARGET_API_KEY, SKILLWRIGHT_OPTIMIZER_API_KEY, SKILLWRIGHT_JUDGE_API_KEY.`;

/** Run the CLI; returns the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let args: ReturnType<typeof parseCliArgs>;
  try {
    args = parseCliArgs(argv);
  } catch (e) {
    io.err(`${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
    return EXIT.config;
  }
  const [command] = args.positionals;
  if (args.values.help || !command) {
    io.err(USAGE);
    return command ? EXIT.lift : EXIT.config;
  }
  try {
    // Checked before anything is read or spent, not when the run is over.
    numberOption(args.values['min-lift'], 'min-lift');
    numberOption(args.values['max-usd'], 'max-usd');
    if (command === 'schema') {
      io.out(JSON.stringify(cliConfigSchema(), null, 2));
      return EXIT.lift;
    }
    if (command === 'estimate') return estimate(args.values, io);
    if (command === 'train') return await train(args.values, io, args.positionals.slice(1));
    if (command === 'resume') return await resume(args.values, io, args.positionals.slice(1));
    if (command === 'eval') return await evaluate(args.values, io, args.positionals.slice(1));
    if (command === 'doctor') return await doctor(args.values, io);
    if (command === 'credit') return await credit(args.values, args.positionals.slice(1), io);
    throw new ConfigError(`Unknown command "${command}".\n${USAGE}`);
  } catch (e) {
    // A config or data problem, or a damaged store file: the person's to fix (exit 2).
    if (e instanceof ConfigError || e instanceof DamagedStoreError) {
      io.err(`error: ${e.message}`);
      return EXIT.config;
    }
    io.err(`error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return EXIT.failed;
  }
}
