/**
 * The runner as a host of the run service (DESIGN §7b): keys from the environment, the prompt
 * files from the folder on disk, a run's store in its `--out` folder (storage/file-store.ts), the
 * process clock. A use case's refusal that names the person's input (a missing key, an unusable
 * setting, a bundle or dataset that is not there) is a config problem: exit code 2.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileRunRecords } from '../storage/file-run-records';
import { FileRunStore } from '../storage/file-store';
import type { HostDeps, KeySource, Outcome } from '../service/ports';
import { ConfigError, confirmKeys, gateTargetKeys, keysFromEnv } from './config';
import type { CliIo } from './io';
import { runnerEnvironments, type RunnerEnvironment } from './environment';
import { agentCliTarget } from './agent-cli-target';

export const storePath = (out: string) => join(out, 'run.jsonl');

/** The runner's clock and new ids (a run's, a dataset's): the process clock. */
export const runnerIds = (io: CliIo) => ({ now: io.now, newId: () => `cli-${io.now().toString(36)}` });

/** Keys from the environment only (config.ts: who may share whose key is decided there). */
function envKeys(io: CliIo): KeySource {
  return {
    async keyFor(role, endpoints) {
      try {
        const keys = keysFromEnv(endpoints, io.env);
        // A confirming target is asked about with `endpoints.confirm` holding it alone.
        // So is another target that gates each candidate, with `endpoints.targets` holding it alone.
        const other = role === 'confirm' ? confirmKeys : role === 'targets' ? gateTargetKeys : null;
        const key = other ? other(endpoints, io.env, keys.target)[0] : keys[role as keyof typeof keys];
        if (key === '' && other) return { ok: true, key };
        // An agent CLI as the target or optimizer signs in its own way: no key is its answer.
        const agent = (role === 'target' || role === 'optimizer') && endpoints[role].agentCommand;
        if (key === '' && agent) return { ok: true, key };
        return key ? { ok: true, key } : { ok: false, kind: 'missing_key', message: `No key for the ${role}.` };
      } catch (e) {
        if (e instanceof ConfigError) return { ok: false, kind: 'missing_key', message: e.message };
        throw e;
      }
    },
  };
}

function promptFiles(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .map((f) => [f.replace(/\.md$/, ''), readFileSync(join(dir, f), 'utf8')]),
  );
}

/**
 * The service's deps in this process (a run's use cases add the run store of an `--out` folder);
 * an agent's environment module comes from the config's path, else from the run's copy in `out`;
 * an agent CLI finds items' workspaces in the dataset's folder.
 */
export function runnerDeps(
  io: CliIo,
  env: RunnerEnvironment | null = null,
  out: string | null = null,
  /** The dataset's folder, where its items' workspaces are (issue #42 item 4). */
  workspaceRoot?: string,
): HostDeps {
  return {
    promptFiles: promptFiles(io.promptsDir),
    keys: envKeys(io),
    ...runnerIds(io),
    place: 'this folder',
    environment: runnerEnvironments(env, out, io.importModule, io.env, io.err),
    // The runner starts an agent CLI target itself (issue #31): the process part of that target.
    agentCli: (cmd, o) => agentCliTarget(cmd, { ...o, ...(workspaceRoot ? { workspaceRoot } : {}) }),
  };
}

/** The run store of an `--out` folder (empty when the folder holds no run yet). */
export function openFolder(out: string): FileRunRecords {
  return new FileRunRecords(FileRunStore.open(storePath(out)));
}

/** The kinds of refusal that are the person's input to fix, not the run's. */
const INPUT_PROBLEMS = new Set(['missing_key', 'host_mismatch', 'not_found', 'invalid_config', 'invalid_bundle']);

/** A use case's answer as it is, except a refusal that names the person's input: a ConfigError (exit 2). */
export function inputChecked<T extends object>(o: Outcome<T>): Outcome<T> {
  if (!o.ok && INPUT_PROBLEMS.has(o.error.kind)) throw new ConfigError(o.error.message);
  return o;
}
