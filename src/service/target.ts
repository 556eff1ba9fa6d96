/**
 * The one place a run's target and environment are chosen (issue #41), for both hosts and every
 * use case — a training session, an evaluation, the cost estimate:
 * - the target: the model endpoint's (the chat call, the tool loop: engine/target/model-target.ts),
 *   or an agent CLI, which only a host that can start programs offers (the runner's `agentCli`);
 * - the environment: MCP servers, connected here, or an environment module, loaded by the host.
 * A host gives only what differs between the page and the runner: where an MCP server's token
 * comes from (`tokenOf`), how a module is loaded and served (`loadModule`: the page's own worker,
 * the runner's Node process), and which servers its person named (`mcpServers`, the runner's
 * config: its names bind the tokens, issue #39 H3).
 */
import type { AgentCommand } from '../core/agent/agent-command';
import { needsRunner } from '../core/agent/workspace-task';
import type { DatasetItem } from '../core/dataset/dataset-types';
import { serverName, type McpSettings } from '../core/agent/mcp-servers';
import type { ModuleSource, RunEnvironmentSpec } from '../core/agent/environment-spec';
import type { RunConfig } from '../core/config/run-config';
import type { ToolEnvironment } from '../engine/environment';
import { mcpEnvironmentOf } from '../mcp/from-settings';
import type { Target } from '../engine/target-port';
import { harnessTarget, type AgentHarness } from '../engine/target/harness';
import { modelTarget } from '../engine/target/model-target';
import type { RunEndpoints, StoredEndpoint } from '../storage/schema';
import { endpointConfig } from './endpoint-config';
import { fail, type Outcome } from './outcome';
import type { SkillMeta } from '../core/skill/skill-file';

/** A server's token (or none), and where the person sets it, for a 401's advice. */
export type TokenOf = (server: { name: string; url: string }) => Promise<{ token?: string; hint: string }>;

/**
 * What a host gives for a run's environment (issue #30, DESIGN §7c), as `keys` are its source of
 * keys: the page's worker and the runner each implement it; `environmentOf` makes the environment.
 */
export interface EnvironmentHost {
  tokenOf: TokenOf;
  /** The run's module, loaded and served where the host runs a person's code (throws EnvironmentError). */
  loadModule(module: ModuleSource): Promise<ToolEnvironment>;
  /** The servers the host calls for a run's stored ones (the runner: its config's own); the stored ones when absent. */
  mcpServers?(stored: McpSettings): McpSettings;
  /** Where a person is told what they should know of the offer (a server's tools beyond the first 64). */
  warn?(text: string): void;
}

/** What an agent CLI is started with besides its command (cli/agent-cli-target.ts). */
export interface AgentCliOptions {
  timeoutMs: number;
  maxRetries: number;
  /** The target's key, for a command that names the variable its harness reads it from (`keyEnv`). */
  key?: string;
  /** The skill's name and description, for the front matter of a SKILL.md the agent finds it by. */
  skill?: Partial<SkillMeta>;
  /** The optimizer (service/agent-optimizer.ts) is given no skill file: the skill is in its task. */
  role?: 'target' | 'optimizer';
}

/** Where the target's key comes from (the host's KeySource, service/ports.ts). */
interface TargetKeys {
  keyFor(
    role: 'target',
    endpoints: RunEndpoints,
  ): Promise<{ ok: true; key: string } | { ok: false; kind: string; message: string }>;
}

/** A host that starts agent CLIs (the runner): the process part of that target (cli/agent-cli-target.ts). */
export type AgentCliHost = (cmd: AgentCommand, o: AgentCliOptions) => AgentHarness;

/**
 * The run's target: its endpoint's model, or the agent CLI its endpoint names (only where a host
 * can start it) — given the target's key when its harness calls an endpoint with it.
 */
export async function targetOf(
  deps: { agentCli?: AgentCliHost; keys: TargetKeys },
  endpoints: RunEndpoints,
  config: RunConfig,
  skill?: Partial<SkillMeta>,
): Promise<Outcome<{ target: Target }>> {
  const cmd = endpoints.target.agentCommand;
  if (!isAgentTarget(endpoints.target) || !cmd) return { ok: true, target: modelTarget };
  if (!deps.agentCli)
    return fail(
      'invalid_config',
      `This run's target is an agent CLI (${endpoints.target.model}): only the headless runner can start it (skillwright resume --out DIR).`,
    );
  const key = cmd.keyEnv ? await deps.keys.keyFor('target', endpoints) : null;
  if (key && !key.ok) return fail(key.kind, key.message);
  // Its time limit and retries are the target endpoint's, with the target role's defaults.
  const e = endpointConfig(endpoints.target, '', config.targetConcurrency, 'target');
  const o = {
    timeoutMs: e.timeoutMs,
    maxRetries: e.maxRetries,
    ...(key ? { key: key.key } : {}),
    ...(skill ? { skill } : {}),
  };
  return { ok: true, target: harnessTarget(deps.agentCli(cmd, o)) };
}

/**
 * Why these items cannot be run by this target (issue #42 item 4), or null: a workspace or a check
 * needs a host that starts programs — the runner's agent CLI. Never scored as unanswered instead.
 */
export function workspaceRefusal(items: readonly DatasetItem[], target: Target): string | null {
  const needing = items.filter((i) => needsRunner(i.agent));
  if (!needing.length || target.workspaces) return null;
  return `${needing.length} item(s) of this dataset (first: "${needing[0].id}") carry a workspace or a check command, which only an agent CLI target in the headless runner (skillwright) can run: this page cannot start programs, and a model endpoint has no working folder. Nothing was run.`;
}

/** Whether the run's target is an agent CLI (every rollout an agent's): a session's choice, and the estimate's. */
export const isAgentTarget = (target: Pick<StoredEndpoint, 'agentCommand'> | undefined): boolean =>
  Boolean(target?.agentCommand);

/** Whether a run with this spec has an environment offering tools: the estimate reads this choice too. */
export const hasEnvironment = (spec: RunEnvironmentSpec | undefined): boolean => Boolean(spec?.module || spec?.mcp);

/**
 * The run's environment for one session (a resume makes a fresh one); none without a spec or a
 * host. One that cannot be had (a module that does not load, a server down, its token refused)
 * throws EnvironmentError, which pauses the run.
 */
export async function environmentOf(
  host: EnvironmentHost | undefined,
  spec: RunEnvironmentSpec | undefined,
): Promise<ToolEnvironment | undefined> {
  if (!host || !hasEnvironment(spec)) return undefined;
  if (spec?.module) return host.loadModule(spec.module);
  const servers = host.mcpServers?.(spec!.mcp!) ?? spec!.mcp!;
  const tokens = new Map(
    await Promise.all(
      servers.servers.map(async (c) => {
        const name = serverName(c);
        return [`${name}|${c.url}`, await host.tokenOf({ name, url: c.url })] as const;
      }),
    ),
  );
  const mcp = await mcpEnvironmentOf(servers, ({ name, url }) => tokens.get(`${name}|${url}`) ?? { hint: '' });
  for (const note of mcp.notes) host.warn?.(`warning: ${note}.`);
  return mcp;
}
