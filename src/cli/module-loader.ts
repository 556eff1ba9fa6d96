/**
 * The runner's environment module (issue #30): imported from the path the config names and
 * served in this process (engine/module-environment.ts). Its identity is a hash of its source,
 * so a changed module never reuses another's rollouts, and a run refuses to resume on a module
 * that changed. A module that throws on load, or breaks the contract, is a ConfigError naming
 * the problem. (In-process: a module stuck in a synchronous loop can only be stopped with
 * Ctrl-C; asynchronous calls have a time limit.)
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { contentId } from '../core/basics/hash';
import { isEnvironmentError, type ToolEnvironment } from '../engine/environment';
import { moduleHost, remoteEnvironment } from '../engine/module-environment';
import { ConfigError } from './config-error';

export interface LoadedModule {
  environment: ToolEnvironment;
  /** A hash of the module's source. */
  hash: string;
  name: string;
}

/** How a module is imported: Node's own import() (the runner passes it; tests run in Vitest's). */
export type Importer = (url: string) => Promise<unknown>;

/**
 * Import the module at `path`. With `expectHash`, the source read here (just before the import)
 * must still be the code the run was made with: a file that changed since it was checked is refused.
 */
export async function loadEnvironmentModule(
  path: string,
  timeoutSeconds = 60,
  importer: Importer = (url) => import(/* @vite-ignore */ url),
  expectHash?: string,
): Promise<LoadedModule> {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`The environment module ${path} cannot be read: ${(e as Error).message}`);
  }
  const hash = contentId(source);
  if (expectHash !== undefined && hash !== expectHash)
    throw new ConfigError(
      `The environment module ${path} is not the one this run was made with (changed since): restore it, or start a new run in another --out.`,
    );
  let def: unknown;
  try {
    def = ((await importer(pathToFileURL(path).href)) as { default?: unknown }).default;
  } catch (e) {
    throw new ConfigError(
      `The environment module ${path} failed to load: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  let host;
  try {
    host = moduleHost(def);
  } catch (e) {
    throw new ConfigError(`The environment module ${path}: ${isEnvironmentError(e) ? e.message : String(e)}`);
  }
  const { name } = await host.describe();
  return {
    environment: remoteEnvironment(async () => host, {
      label: `environment module ${basename(path)}`,
      identity: `module:${hash}`,
      timeoutMs: timeoutSeconds * 1000,
    }),
    hash,
    name,
  };
}
