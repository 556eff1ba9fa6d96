/**
 * The runner's agents' environment (issue #30): what the config's `environment` names, read once
 * — the tools every item is offered and the module, checked before anything is spent — and the
 * service's environment factory: each session loads the module from the config's path (it must
 * still be the code the run was made with) or, when the command names no config (`resume --out`),
 * from the copy the run keeps beside it; or the run's MCP servers (issue #31), with their tokens
 * from the environment.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { ModuleSource, RunEnvironmentSpec } from '../core/agent/environment-spec';
import { MAX_MODULE_BYTES } from '../core/agent/environment-spec';
import type { ToolSpec } from '../core/agent/tool-spec';
import { contentId } from '../core/basics/hash';
import { tokenVariable, type McpSettings } from '../core/agent/mcp-servers';
import type { EnvironmentHost } from '../service/target';
import type { ToolEnvironment } from '../engine/environment';
import type { CliConfig } from './config';
import { ConfigError } from './config-error';
import { toolsOf } from './environment-config';
import { loadEnvironmentModule, type Importer } from './module-loader';

export interface RunnerEnvironment {
  /** Tools the config offers every item (beside the dataset's own). */
  tools: ToolSpec[];
  /** The module the config names, as a run keeps it, and where it is. */
  module?: ModuleSource & { path: string };
  timeoutSeconds?: number;
  /** MCP servers (issue #31), kept with the run as its environment. */
  mcp?: McpSettings;
}

/** Read the config's environment (tools file, module source); problems are ConfigErrors. */
export function readEnvironment(config: CliConfig, base: string): RunnerEnvironment {
  const e = config.environment;
  if (!e) return { tools: [] };
  let tools = e.tools ?? [];
  if (e.toolsFile) {
    const path = resolve(base, e.toolsFile);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new ConfigError(`The tools file ${path} cannot be read as JSON: ${(err as Error).message}`);
    }
    tools = toolsOf(raw, path);
  }
  if (e.mcp) return { tools, mcp: e.mcp };
  if (!e.module) return { tools, ...(e.timeoutSeconds ? { timeoutSeconds: e.timeoutSeconds } : {}) };
  const path = resolve(base, e.module);
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`The environment module ${path} cannot be read: ${(err as Error).message}`);
  }
  if (Buffer.byteLength(source) > MAX_MODULE_BYTES)
    throw new ConfigError(`The environment module ${path} is larger than ${MAX_MODULE_BYTES / 1024} KB.`);
  return {
    tools,
    module: { name: '', fileName: basename(path), source, hash: contentId(source), path },
    ...(e.timeoutSeconds ? { timeoutSeconds: e.timeoutSeconds } : {}),
  };
}

const urlsOf = (s?: McpSettings) => (s?.servers ?? []).map((x) => x.url).sort();

/**
 * The person's own MCP servers for a run that calls `stored`: the config's entries, so their
 * names choose the tokens and their `tools` lists what the agent may call — refused unless the
 * config names the very same servers (a token goes only to a server the person's config names).
 */
export function ownServers(stored: McpSettings, own: McpSettings | undefined): McpSettings {
  if (!own || JSON.stringify(urlsOf(stored)) !== JSON.stringify(urlsOf(own)))
    throw new ConfigError(
      `This run calls MCP servers (${urlsOf(stored).join(', ')}) that your config does not name${own ? ` (it names ${urlsOf(own).join(', ')})` : ''}: they would be sent your SKILLWRIGHT_MCP_*_TOKEN tokens. Name the same servers in your config's "environment": {"mcp": …}, or start a new run in another --out.`,
    );
  return own;
}

/** What a run keeps of the config's environment (its module's name is the module's own, once loaded). */
export function declaredSpec(env: RunnerEnvironment): RunEnvironmentSpec | undefined {
  if (env.mcp) return { mcp: env.mcp };
  if (!env.module) return undefined;
  const { path: _path, ...module } = env.module;
  return { module };
}

/** Load the module once before the run is created: a module that cannot serve is named now, not paid for. */
export async function checkedSpec(
  env: RunnerEnvironment,
  importer?: Importer,
): Promise<RunEnvironmentSpec | undefined> {
  const spec = declaredSpec(env);
  if (!spec?.module || !env.module) return spec;
  const loaded = await loadEnvironmentModule(env.module.path, env.timeoutSeconds, importer);
  loaded.environment.dispose?.();
  return { module: { ...spec.module, name: loaded.name } };
}

/**
 * What the runner gives for a run's environment (service/target.ts chooses it). MCP servers (issue
 * #31): each server's token from SKILLWRIGHT_MCP_<NAME>_TOKEN — the name the person's config gives
 * that URL, when the command names a config (issue #39 H3). A run's module comes from the config's
 * path when the command names one (refused when it is not the code the run was made with), else
 * from the run's own copy, written to `<out>/environment/` — never the copy a run bundle brought
 * (someone else's code).
 */
export function runnerEnvironments(
  env: RunnerEnvironment | null,
  out: string | null,
  importer?: Importer,
  vars: Record<string, string | undefined> = {},
  warn: (text: string) => void = () => {},
): EnvironmentHost {
  return {
    warn,
    async tokenOf({ name }) {
      const variable = tokenVariable(name);
      const token = vars[variable];
      return { ...(token ? { token } : {}), hint: `set ${variable} to its token` };
    },
    ...(env ? { mcpServers: (stored: McpSettings) => ownServers(stored, env.mcp) } : {}),
    loadModule: (kept) => loadKept(kept, env, out, importer),
  };
}

/** The run's module, loaded where the runner serves it (the config's file, else the run's own copy). */
async function loadKept(
  kept: ModuleSource,
  env: RunnerEnvironment | null,
  out: string | null,
  importer?: Importer,
): Promise<ToolEnvironment> {
  let path: string;
  if (env?.module) {
    if (env.module.hash !== kept.hash)
      throw new ConfigError(
        `The environment module ${env.module.path} is not the one this run was made with (${kept.fileName}, changed since): restore it, or start a new run in another --out.`,
      );
    path = env.module.path;
  } else {
    if (kept.from === 'bundle')
      throw new ConfigError(
        `This run was taken in from a run bundle: its environment module (${kept.fileName}) is code someone sent, and the runner runs only the module your own config names. Give --config naming that file in "environment": {"module": …}.`,
      );
    if (!out) throw new ConfigError('This run calls an environment module: give --config naming it.');
    if (contentId(kept.source) !== kept.hash)
      throw new ConfigError(
        `The environment module this run keeps (${kept.fileName}) is not the code its hash names: give --config naming the module file.`,
      );
    path = join(out, 'environment', basename(kept.fileName));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, kept.source);
  }
  // Read again just before it is imported: it must still be the code the run was made with.
  return (await loadEnvironmentModule(path, env?.timeoutSeconds, importer, kept.hash)).environment;
}
