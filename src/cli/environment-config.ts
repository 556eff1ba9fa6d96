/**
 * The runner's `environment` (issue #30): where an agent's tools come from — an environment
 * module (`module`, a path to an ES module), tools for every item (`tools`, a list of OpenAI
 * function definitions or a path to a JSON file holding one), and the agent knobs `maxTurns` and
 * `referencesOnDemand`, which may be given here or under "run" (not both). MCP servers (`mcp`,
 * issue #31) with their `toolConcurrency` and `timeoutSeconds` are kept with the run as its
 * environment (it resumes on them); their tokens come from SKILLWRIGHT_MCP_<NAME>_TOKEN.
 */
import { readToolSpecs, type ToolSpec } from '../core/agent/tool-spec';
import { settingProblem, type RunConfig } from '../core/config/run-config';
import { readMcpSettings, type McpSettings } from '../core/agent/mcp-servers';
import { ConfigError } from './config-error';

export interface EnvironmentConfig {
  /** Path of an environment module, relative to the config file. */
  module?: string;
  /** Tools every item is offered, besides the dataset's own. */
  tools?: ToolSpec[];
  /** A tools file to read, relative to the config file (when `tools` names one). */
  toolsFile?: string;
  /** Seconds an environment module's call (or an MCP server's answer) may take before the run pauses. */
  timeoutSeconds?: number;
  /** MCP servers (issue #31), kept with the run as its environment. */
  mcp?: McpSettings;
}

const KEYS = ['module', 'tools', 'mcp', 'toolConcurrency', 'maxTurns', 'referencesOnDemand', 'timeoutSeconds'];
const KNOBS = ['maxTurns', 'referencesOnDemand'] as const;

/** Read the config's "environment"; its agent knobs move into the run settings. */
export function environmentOf(
  v: unknown,
  run: RunConfig,
  givenRun: Record<string, unknown>,
): { environment?: EnvironmentConfig; run: RunConfig } {
  if (v === undefined) return { run };
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new ConfigError('"environment" must be an object: { "module": "env.mjs", "tools": [...] }.');
  const e = v as Record<string, unknown>;
  for (const k of Object.keys(e))
    if (!KEYS.includes(k))
      throw new ConfigError(`"environment.${k}" is not an environment setting (${KEYS.join(', ')}).`);
  const out: EnvironmentConfig = {};
  if (e.module !== undefined) {
    if (typeof e.module !== 'string' || !e.module.trim())
      throw new ConfigError('"environment.module" must be the path of an ES module (.mjs or .js).');
    out.module = e.module;
  }
  if (typeof e.tools === 'string') out.toolsFile = e.tools;
  else if (e.tools !== undefined) out.tools = toolsOf(e.tools, '"environment.tools"');
  if (e.timeoutSeconds !== undefined) {
    if (!(typeof e.timeoutSeconds === 'number' && e.timeoutSeconds > 0 && Number.isFinite(e.timeoutSeconds)))
      throw new ConfigError('"environment.timeoutSeconds" must be a number of seconds above 0.');
    out.timeoutSeconds = e.timeoutSeconds;
  }
  const next = { ...run };
  if (e.mcp !== undefined) {
    if (out.module) throw new ConfigError('"environment" names both a module and MCP servers: use one of them.');
    const m = readMcpSettings({
      servers: e.mcp,
      ...(e.toolConcurrency !== undefined ? { toolConcurrency: e.toolConcurrency } : {}),
      ...(e.timeoutSeconds !== undefined ? { timeoutSeconds: e.timeoutSeconds } : {}),
    });
    if (!m.settings) throw new ConfigError(`"environment.mcp": ${m.problems.join('; ')}.`);
    out.mcp = m.settings;
  } else if (e.toolConcurrency !== undefined)
    throw new ConfigError('"environment.toolConcurrency" limits MCP tool calls: it needs "environment.mcp".');
  for (const k of KNOBS) {
    if (e[k] === undefined) continue;
    if (givenRun[k] !== undefined)
      throw new ConfigError(`"${k}" is given both under "environment" and under "run": keep one.`);
    // The knob's own range, as under "run" (core/config/knobs.ts).
    const problem = settingProblem(k, e[k]);
    if (problem) throw new ConfigError(`"environment.${k}": ${problem}.`);
    (next as unknown as Record<string, unknown>)[k] = e[k];
  }
  return { environment: out, run: next };
}

/** A tools list, every bad entry named. */
export function toolsOf(raw: unknown, where: string): ToolSpec[] {
  const r = readToolSpecs(raw);
  if (r.problems.length) throw new ConfigError(`${where}: ${r.problems.join('; ')}.`);
  return r.tools;
}
