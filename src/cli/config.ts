/**
 * The headless runner's config file (issue #22): the endpoints, prices and run settings the page
 * keeps, validated by the same code and filled with the same defaults. Keys are never in it: they
 * come from SKILLWRIGHT_TARGET_API_KEY, SKILLWRIGHT_OPTIMIZER_API_KEY, SKILLWRIGHT_JUDGE_API_KEY,
 * SKILLWRIGHT_USER_SIMULATOR_API_KEY (and an MCP server's token from SKILLWRIGHT_MCP_<NAME>_TOKEN); other targets'
 * from the target's, or SKILLWRIGHT_CONFIRM_API_KEY / SKILLWRIGHT_TARGETS_API_KEY (one other host each).
 */
import { BATCH_APIS, type BatchApi } from '../core/config/batch-api';
import { parseRunConfig, type RunConfig } from '../core/config/run-config';
import type { Prices } from '../engine/meter';
import { priceProblem, type Price } from '../core/config/pricing';
import { parseRatio } from '../core/dataset/dataset-split';
import { isSecretHeader } from '../core/basics/secret-headers';
import { chargedPrices, SERVICE_TIERS, type ServiceTier } from '../core/config/service-tier';
import type { RunEndpoints, StoredEndpoint } from '../storage/schema';
import { environmentOf, type EnvironmentConfig } from './environment-config';
import { AGENT_CLI_URL, readAgentCommand } from '../core/agent/agent-command';
import { expandHarness } from '../core/agent/harness-presets';
import { EFFORTS, WIRES, capabilitiesProblem, type Effort, type Wire } from '../core/config/capabilities';

export interface CliConfig {
  name?: string;
  /** Dataset file (JSON, JSONL or CSV), relative to the config file. */
  data?: string;
  /** Starting skill (.md, or a package folder or .zip), relative to the config file; empty skill when absent. */
  skill?: string;
  /** Trigger queries for the activation track (`run.activationTrack`), relative to the config file. */
  triggers?: string;
  endpoints: RunEndpoints;
  prices: Prices;
  run: RunConfig;
  /** How a dataset without a split column is split (train:val:test), and with which seed. */
  split?: { ratio?: [number, number, number]; seed?: number };
  /** Where an agent's tools come from (cli/environment-config.ts). */
  environment?: EnvironmentConfig;
}

import { ConfigError, keyVariable } from './config-error';

export { ConfigError };

const KNOWN = new Set([
  'name',
  'data',
  'skill',
  'triggers',
  'target',
  'optimizer',
  'judge',
  'userSimulator',
  'prices',
  'run',
  'split',
  'environment',
  'confirm',
  'targets',
  '$schema',
]);
export const ENDPOINT_KEYS: ReadonlySet<string> = new Set([
  'baseURL',
  'model',
  'temperature',
  'maxOutputTokens',
  'reasoningEffort',
  'reasoningModel',
  'headers',
  'minimalHeaders',
  'timeoutMs',
  'maxRetries',
  'serviceTier',
  'batchApi',
  'batchPollMs',
  'api',
  'capabilities',
]);

/** An agent CLI as the target's settings (core/agent/agent-command.ts), beside its time limit and retries. */
export const AGENT_KEYS: ReadonlySet<string> = new Set([
  'command',
  'skillFile',
  'task',
  'answerFile',
  'transcriptFile',
  'passEnv',
  'stream',
  'env',
  'files',
  'keyEnv',
  'model',
  'timeoutMs',
  'maxRetries',
]);

/**
 * An agent CLI the runner starts: per item as the target (issue #31), per call as the optimizer
 * (issue #42 item 3). Its address is a stand-in.
 */
function agentEndpoint(e: Record<string, unknown>, role: AgentRole, name: string = role): StoredEndpoint {
  for (const k of Object.keys(e))
    if (!AGENT_KEYS.has(k))
      throw new ConfigError(`"${name}.${k}" is not an agent CLI setting (${[...AGENT_KEYS].join(', ')}).`);
  const read = readAgentCommand(e);
  if ('problem' in read) throw new ConfigError(`"${name}": ${read.problem}.`);
  if (e.model !== undefined && (typeof e.model !== 'string' || !e.model.trim()))
    throw new ConfigError(`"${name}.model" names the agent in reports; it must be a non-empty string.`);
  for (const k of ['timeoutMs', 'maxRetries'] as const)
    if (e[k] !== undefined && !(Number.isSafeInteger(e[k]) && (e[k] as number) >= (k === 'timeoutMs' ? 1 : 0)))
      throw new ConfigError(`"${name}.${k}" must be a whole number${k === 'timeoutMs' ? ' of milliseconds' : ''}.`);
  return {
    baseURL: AGENT_CLI_URL,
    model: typeof e.model === 'string' ? e.model : read.command.command[0],
    // An agent works for minutes where a completion takes seconds.
    timeoutMs: (e.timeoutMs as number | undefined) ?? 600_000,
    maxRetries: (e.maxRetries as number | undefined) ?? 2,
    agentCommand: read.command,
  };
}

/** The roles an agent CLI may play: the target, and the optimizer (its structured replies, issue #42 item 3). */
type AgentRole = 'target' | 'optimizer';
const isAgentRole = (role: string): role is AgentRole => role === 'target' || role === 'optimizer';

/** A harness preset's settings (issue #42): `{"agent": "pi", "model"?, "args"?, "baseURL"?}`. */
export const PRESET_KEYS: ReadonlySet<string> = new Set([
  'agent',
  'model',
  'args',
  'baseURL',
  'timeoutMs',
  'maxRetries',
]);

/**
 * The target or optimizer as a harness preset (core/agent/harness-presets.ts expands it): with a
 * base URL the harness calls that endpoint with the role's key (SKILLWRIGHT_TARGET_API_KEY,
 * SKILLWRIGHT_OPTIMIZER_API_KEY), given to it in the one variable it reads; without, it signs in
 * its own way.
 */
function presetEndpoint(e: Record<string, unknown>, role: AgentRole, name: string = role): StoredEndpoint {
  for (const k of Object.keys(e))
    if (!PRESET_KEYS.has(k))
      throw new ConfigError(`"${name}.${k}" is not a harness preset setting (${[...PRESET_KEYS].join(', ')}).`);
  const r = expandHarness(e);
  if ('problem' in r) throw new ConfigError(`"${name}": ${r.problem}.`);
  const agent = agentEndpoint(
    {
      ...r.launch.command,
      model: typeof e.model === 'string' ? `${e.agent} ${e.model}` : e.agent,
      timeoutMs: e.timeoutMs,
      maxRetries: e.maxRetries,
    },
    role,
    name,
  );
  return { ...agent, ...(typeof e.baseURL === 'string' ? { baseURL: e.baseURL } : {}) };
}

function endpoint(v: unknown, role: string, name = role): StoredEndpoint {
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new ConfigError(`"${name}" must be an object with "baseURL" and "model".`);
  const e = v as Record<string, unknown>;
  if (isAgentRole(role) && e.agent !== undefined) return presetEndpoint(e, role, name);
  if (isAgentRole(role) && e.command !== undefined) return agentEndpoint(e, role, name);
  for (const k of Object.keys(e)) {
    if (k === 'apiKey' || k === 'key')
      throw new ConfigError(`"${name}.${k}": keys are never read from the config; set ${variableOf(role, name)}.`);
    if (!ENDPOINT_KEYS.has(k))
      throw new ConfigError(`"${name}.${k}" is not an endpoint setting (${[...ENDPOINT_KEYS].join(', ')}).`);
  }
  if (typeof e.baseURL !== 'string' || !/^https?:\/\//.test(e.baseURL))
    throw new ConfigError(`"${name}.baseURL" must be an http(s) URL.`);
  if (typeof e.model !== 'string' || !e.model.trim()) throw new ConfigError(`"${name}.model" must name a model.`);
  if (e.serviceTier !== undefined && !SERVICE_TIERS.includes(e.serviceTier as ServiceTier)) {
    throw new ConfigError(`"${name}.serviceTier" must be one of ${SERVICE_TIERS.join(', ')}.`);
  }
  if (e.batchApi !== undefined) {
    if (role !== 'target')
      throw new ConfigError(
        `"${name}.batchApi": only the target's one-shot phases (baseline, final validation, test) go through a batch API.`,
      );
    if (!BATCH_APIS.includes(e.batchApi as BatchApi))
      throw new ConfigError(`"${name}.batchApi" must be one of ${BATCH_APIS.join(', ')}.`);
  }
  if (e.batchPollMs !== undefined && !(typeof e.batchPollMs === 'number' && e.batchPollMs >= 1)) {
    throw new ConfigError(`"${name}.batchPollMs" must be a number of milliseconds (at least 1).`);
  }
  if (e.headers !== undefined) headers(e.headers, role, name);
  for (const [k, rule] of Object.entries(FIELD_RULES))
    if (e[k] !== undefined && !rule.ok(e[k])) throw new ConfigError(`"${name}.${k}" must be ${rule.what}.`);
  const problem = e.capabilities === undefined ? null : capabilitiesProblem(e.capabilities);
  if (problem) throw new ConfigError(`"${name}.capabilities" ${problem}.`);
  return e as unknown as StoredEndpoint;
}

/** At most this many confirming targets (each scores the test split twice more), or gating ones. */
const MAX_OTHERS = 8;

/** The lists of other targets a config may hold, and the variable of the key for their other host. */
type OthersField = 'confirm' | 'targets';
const OTHERS_KEY: Record<OthersField, string> = {
  confirm: 'SKILLWRIGHT_CONFIRM_API_KEY',
  targets: 'SKILLWRIGHT_TARGETS_API_KEY',
};

/** The key variable an endpoint's error names: its role's, or its list's for another target ("targets[1]"). */
function variableOf(role: string, name: string): string {
  if (name === role) return keyVariable(role);
  return OTHERS_KEY[name.startsWith('targets[') ? 'targets' : 'confirm'];
}

/**
 * A list of other targets of the run's target's shape (a model on an endpoint, an agent CLI, a
 * harness preset), issue #42 item 5: "confirm" scores the starting and best skills on test after
 * training; "targets" gate every candidate — each must find it no worse on validation.
 */
function othersOf(v: unknown, field: OthersField, run: RunConfig): StoredEndpoint[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.length || v.length > MAX_OTHERS)
    throw new ConfigError(
      `"${field}" must be a list of 1 to ${MAX_OTHERS} targets, each like "target": { "baseURL", "model" } or { "agent": … }.`,
    );
  if (field === 'confirm' && !run.evalTest)
    throw new ConfigError('"confirm" scores the skills on the test split after training: set "run.evalTest" to true.');
  if (field === 'targets' && !run.useGate)
    throw new ConfigError(
      '"targets" gate each candidate on the other targets: with "run.useGate" false nothing is gated. Set it to true.',
    );
  return v.map((e, i) =>
    field === 'confirm' ? confirmEndpoint(e, `confirm[${i}]`) : endpoint(e, 'target', `targets[${i}]`),
  );
}

/**
 * One confirming target: a target's settings, and its own "price" (the shape of "prices.target")
 * when it is billed otherwise than the run's target.
 */
function confirmEndpoint(v: unknown, name: string): StoredEndpoint {
  if (!v || typeof v !== 'object' || Array.isArray(v) || !('price' in v)) return endpoint(v, 'target', name);
  const { price, ...rest } = v as Record<string, unknown>;
  const problem = priceProblem(price);
  if (problem) throw new ConfigError(`"${name}.price" ${problem}.`);
  return { ...endpoint(rest, 'target', name), price: price as Price };
}

const wholeFrom = (min: number) => (v: unknown) => Number.isSafeInteger(v) && (v as number) >= min;

/** The typed settings of an endpoint (issue #39, earlier M4): each value of its type and range, as the schema says. */
const FIELD_RULES: Record<string, { ok: (v: unknown) => boolean; what: string }> = {
  temperature: { ok: (v) => typeof v === 'number' && v >= 0 && v <= 2, what: 'a number from 0 to 2' },
  maxOutputTokens: { ok: wholeFrom(1), what: 'a whole number of tokens (at least 1)' },
  reasoningEffort: {
    ok: (v) => v === '' || EFFORTS.includes(v as Effort),
    what: `"" (the model's default) or one of ${EFFORTS.join(', ')}`,
  },
  api: { ok: (v) => WIRES.includes(v as Wire), what: `one of ${WIRES.join(', ')}` },
  reasoningModel: { ok: (v) => typeof v === 'boolean', what: 'true or false' },
  minimalHeaders: { ok: (v) => typeof v === 'boolean', what: 'true or false' },
  timeoutMs: { ok: wholeFrom(1), what: 'a whole number of milliseconds (at least 1)' },
  maxRetries: { ok: (v) => wholeFrom(0)(v) && (v as number) <= 100, what: 'a whole number from 0 to 100' },
};

/** Extra headers: strings only, and never a credential (it would be stored with the run). */
function headers(v: unknown, role: string, name = role): void {
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new ConfigError(`"${name}.headers" must be an object of header names and string values.`);
  for (const [header, value] of Object.entries(v)) {
    if (isSecretHeader(header))
      throw new ConfigError(
        `"${name}.headers.${header}" carries a credential: keys are never read from the config (it is stored with the run); set ${variableOf(role, name)}.`,
      );
    if (typeof value !== 'string') throw new ConfigError(`"${name}.headers.${header}" must be a string.`);
  }
}

/** The config's "prices": per role, both parts finite and ≥ 0 (a negative price turns the cap off). */
function givenPrices(v: unknown): Prices {
  if (v === undefined) return {};
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new ConfigError('"prices" must be an object: { "target": { "input": …, "output": … }, … }.');
  for (const [role, price] of Object.entries(v)) {
    if (!['target', 'optimizer', 'judge', 'userSimulator'].includes(role))
      throw new ConfigError(`"prices.${role}" is not a role (target, optimizer, judge, userSimulator).`);
    const problem = priceProblem(price);
    if (problem) throw new ConfigError(`"prices.${role}" ${problem}.`);
  }
  return v as Prices;
}

/** The config's "split": a train:val:test ratio (as the Data screen checks it) and an integer seed. */
function splitOf(v: unknown): CliConfig['split'] {
  if (v === undefined) return undefined;
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new ConfigError('"split" must be an object: { "ratio": [train, val, test], "seed": n }.');
  const s = v as Record<string, unknown>;
  for (const k of Object.keys(s))
    if (k !== 'ratio' && k !== 'seed') throw new ConfigError(`"split.${k}" is not a split setting (ratio, seed).`);
  const out: NonNullable<CliConfig['split']> = {};
  if (s.ratio !== undefined) {
    const parsed =
      Array.isArray(s.ratio) && s.ratio.every((x) => typeof x === 'number') ? parseRatio(s.ratio.join(':')) : null;
    if (!parsed?.ok)
      throw new ConfigError(
        `"split.ratio": ${parsed ? parsed.message : 'must be three non-negative numbers, like [2, 1, 7]'}.`,
      );
    out.ratio = parsed.ratio;
  }
  if (s.seed !== undefined) {
    if (!Number.isSafeInteger(s.seed)) throw new ConfigError('"split.seed" must be an integer.');
    out.seed = s.seed as number;
  }
  return out;
}

/** Parse and validate a config file's text; every problem is a ConfigError naming the setting. */
export function parseCliConfig(text: string, file = 'the config'): { config: CliConfig; warnings: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${file} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError(`${file} must hold a JSON object.`);
  const c = raw as Record<string, unknown>;
  const warnings = Object.keys(c)
    .filter((k) => !KNOWN.has(k))
    .map((k) => `unknown setting "${k}" was ignored`);
  const run = parseRunConfig(c.run ?? {});
  if (run.problems.length)
    throw new ConfigError(`${file}: ${run.problems.map((p) => `run.${p.field}: ${p.message}`).join('; ')}.`);
  warnings.push(...run.warnings.map((w) => `run: ${w}`));
  const givenRun =
    c.run && typeof c.run === 'object' && !Array.isArray(c.run) ? (c.run as Record<string, unknown>) : {};
  const env = environmentOf(c.environment, run.config, givenRun);
  const endpoints: RunEndpoints = {
    target: endpoint(c.target, 'target'),
    optimizer: endpoint(c.optimizer, 'optimizer'),
    ...(c.judge !== undefined ? { judge: endpoint(c.judge, 'judge') } : {}),
    ...(c.userSimulator !== undefined ? { userSimulator: endpoint(c.userSimulator, 'userSimulator') } : {}),
  };
  const confirm = othersOf(c.confirm, 'confirm', run.config);
  if (confirm.length) endpoints.confirm = confirm;
  const targets = othersOf(c.targets, 'targets', run.config);
  if (targets.length) endpoints.targets = targets;
  for (const k of ['name', 'data', 'skill', 'triggers'] as const) {
    if (c[k] !== undefined && typeof c[k] !== 'string') throw new ConfigError(`"${k}" must be a string.`);
  }
  return {
    config: {
      ...(typeof c.name === 'string' ? { name: c.name } : {}),
      ...(typeof c.data === 'string' ? { data: c.data } : {}),
      ...(typeof c.skill === 'string' ? { skill: c.skill } : {}),
      ...(typeof c.triggers === 'string' ? { triggers: c.triggers } : {}),
      endpoints,
      // An agent CLI bills its own login: no list price is assumed for it, only one given here.
      prices: chargedPrices(givenPrices(c.prices), {
        target: listed(endpoints.target),
        optimizer: listed(endpoints.optimizer),
      }),
      run: env.run,
      ...(c.split !== undefined ? { split: splitOf(c.split) } : {}),
      ...(env.environment ? { environment: env.environment } : {}),
    },
    warnings,
  };
}

/** An endpoint as the price list sees it: an agent CLI's "model" names no model of the list. */
const listed = (e: StoredEndpoint) => (e.agentCommand ? { model: '' } : e);

export type Env = Record<string, string | undefined>;

/**
 * The key of each role, from the environment only. The optimizer (and judge) may share the
 * target's key when their endpoint has the target's origin: a key is sent only to hosts the
 * config names for it. An agent CLI (target or optimizer) signs in its own way: its key is ''.
 */
export function keysFromEnv(
  endpoints: RunEndpoints,
  env: Env,
): { target: string; optimizer: string; judge?: string; userSimulator?: string } {
  const origin = (u: string) => new URL(u).origin;
  // An agent CLI signs in its own way: it has no key, and none is lent from it — unless it calls
  // an endpoint with its role's key (a harness preset with a base URL).
  const ownLogin = (e: StoredEndpoint) => Boolean(e.agentCommand && !e.agentCommand.keyEnv);
  const agent = ownLogin(endpoints.target);
  const target = agent ? '' : env.SKILLWRIGHT_TARGET_API_KEY;
  const sameHost = (e: StoredEndpoint) => !agent && origin(e.baseURL) === origin(endpoints.target.baseURL);
  const agentOptimizer = ownLogin(endpoints.optimizer);
  const optimizer = agentOptimizer
    ? ''
    : (env.SKILLWRIGHT_OPTIMIZER_API_KEY ?? (sameHost(endpoints.optimizer) ? target : undefined));
  if (target === undefined || (!agent && !target))
    throw new ConfigError(
      'Set SKILLWRIGHT_TARGET_API_KEY to the target endpoint’s key (keys are never read from files).',
    );
  if (optimizer === undefined || (!optimizer && !agentOptimizer))
    throw new ConfigError(
      agent
        ? 'Set SKILLWRIGHT_OPTIMIZER_API_KEY: the target is an agent CLI, which lends no key.'
        : 'Set SKILLWRIGHT_OPTIMIZER_API_KEY: the optimizer is on another host than the target.',
    );
  const judge = endpoints.judge
    ? (env.SKILLWRIGHT_JUDGE_API_KEY ??
      (origin(endpoints.judge.baseURL) === origin(endpoints.optimizer.baseURL) ? optimizer : undefined))
    : undefined;
  if (endpoints.judge && !judge)
    throw new ConfigError('Set SKILLWRIGHT_JUDGE_API_KEY: the judge is on another host than the optimizer.');
  const sim = endpoints.userSimulator;
  const userSimulator = sim
    ? (env.SKILLWRIGHT_USER_SIMULATOR_API_KEY ??
      (origin(sim.baseURL) === origin(endpoints.optimizer.baseURL) ? optimizer : undefined))
    : undefined;
  if (sim && !userSimulator)
    throw new ConfigError(
      'Set SKILLWRIGHT_USER_SIMULATOR_API_KEY: the user simulator is on another host than the optimizer.',
    );
  confirmKeys(endpoints, env, target);
  gateTargetKeys(endpoints, env, target);
  return { target, optimizer, ...(judge ? { judge } : {}), ...(userSimulator ? { userSimulator } : {}) };
}

/**
 * The key of each target of a list (issue #42 item 5), in order: none for an agent CLI that signs
 * in its own way; the target's key for one on the target's host; else the list's own variable —
 * which therefore goes to one host only.
 */
function othersKeys(endpoints: RunEndpoints, field: OthersField, env: Env, targetKey: string): string[] {
  const origin = (u: string) => new URL(u).origin;
  const variable = OTHERS_KEY[field];
  const what = field === 'confirm' ? 'confirming' : 'gating';
  const others = new Set<string>();
  const keys = (endpoints[field] ?? []).map((e) => {
    if (e.agentCommand && !e.agentCommand.keyEnv) return '';
    if (targetKey && origin(e.baseURL) === origin(endpoints.target.baseURL)) return targetKey;
    others.add(origin(e.baseURL));
    const key = env[variable];
    if (!key)
      throw new ConfigError(`Set ${variable}: the ${what} target ${e.model} is on another host than the target.`);
    return key;
  });
  if (others.size > 1)
    throw new ConfigError(
      `The ${what} targets ("${field}") are on ${others.size} hosts besides the target's (${[...others].join(', ')}): ${variable} is sent to one host only. Put them on the target's host or on one other.`,
    );
  return keys;
}

/** The keys of the targets that confirm the run's skills on test, in order (`othersKeys`). */
export const confirmKeys = (endpoints: RunEndpoints, env: Env, targetKey: string): string[] =>
  othersKeys(endpoints, 'confirm', env, targetKey);

/** The keys of the other targets that gate each candidate, in order (`othersKeys`). */
export const gateTargetKeys = (endpoints: RunEndpoints, env: Env, targetKey: string): string[] =>
  othersKeys(endpoints, 'targets', env, targetKey);
