/**
 * What every command of the runner shares: its terminal and environment (`CliIo`), its options,
 * the exit codes, and the small helpers that turn files, numbers and Ctrl-C into what the run
 * service takes.
 */
import { readFileSync } from 'node:fs';
import { setMaxListeners } from 'node:events';
import { parseArgs } from 'node:util';
import type { Env } from './config';
import { ConfigError } from './config';

export const EXIT = { lift: 0, failed: 1, config: 2, paused: 3, noLift: 100 } as const;

export interface CliIo {
  env: Env;
  /** Lines for a person (progress, reasons): standard error. */
  err: (text: string) => void;
  /** The result (one JSON line with --json): standard output. */
  out: (text: string) => void;
  /** Writes to the terminal without a line break; null when standard error is not a terminal. */
  rawErr: ((text: string) => void) | null;
  /** Resolves when the user asks to stop (Ctrl-C): the run pauses at its next checkpoint. */
  interrupted: Promise<void>;
  promptsDir: string;
  now: () => number;
  /**
   * Node's own import, for a user's environment module (issue #30): the runner's TypeScript runs
   * through Vite's module runner, whose import() is closed once the command has started.
   */
  importModule?: (url: string) => Promise<unknown>;
}

const OPTIONS = {
  config: { type: 'string' },
  data: { type: 'string' },
  skill: { type: 'string' },
  out: { type: 'string' },
  bundle: { type: 'string' },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
  'max-usd': { type: 'string' },
  'min-lift': { type: 'string' },
  split: { type: 'string' },
  write: { type: 'boolean' },
  budget: { type: 'string' },
  drop: { type: 'boolean' },
  shard: { type: 'string' },
  rollouts: { type: 'string' },
  merge: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

export function parseCliArgs(argv: string[]) {
  return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
}

/** A command's options, as parsed. */
export type CliArgs = ReturnType<typeof parseCliArgs>['values'];

export function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new ConfigError(`Cannot read the ${what} ${path}.`);
  }
}

export function numberOption(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new ConfigError(`--${name} must be a number ≥ 0.`);
  return n;
}

/** An abort signal that Ctrl-C trips: the engine pauses at its next checkpoint. */
export function stopOnInterrupt(io: CliIo, say?: string): AbortController {
  const controller = new AbortController();
  setMaxListeners(100_000, controller.signal); // one listener per call in flight
  void io.interrupted.then(() => {
    if (say) io.err(say);
    controller.abort('pause');
  });
  return controller;
}
