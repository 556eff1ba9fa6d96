/**
 * The one place an LLM port is built (DESIGN §7b: a host that builds one itself is a bug waiting
 * to drift): a run's endpoints with the role defaults, each with the key the host gives for it.
 * Which roles a use case calls decides which keys it asks for — training needs all of them, an
 * evaluation the target (and a judge only when it scores with one), feedback the optimizer alone.
 */
import type { RunConfig } from '../core/config/run-config';
import type { LlmPort, Role } from '../engine/ports';
import { createLlmPort } from '../llm/openai-client';
import type { RunEndpoints, StoredEndpoint } from '../storage/schema';
import { withAgentRoles } from './agent-optimizer';
import { endpointConfig } from './endpoint-config';
import { fail, type HostDeps, type EndpointRole, type Outcome } from './ports';

export { endpointConfig };

/** What a use case calls: a whole run, one skill's evaluation, or a feedback rewrite. */
export type LlmUse = 'run' | 'evaluate' | 'feedback';

type Deps = Pick<HostDeps, 'keys' | 'transport' | 'agentCli'>;

export async function llmPortFor(
  deps: Deps,
  endpoints: RunEndpoints,
  config: RunConfig,
  use: LlmUse,
  /** An evaluation whose items talk with a simulated user calls the simulator (issue #31). */
  o: { conversations?: boolean } = {},
): Promise<Outcome<{ llm: LlmPort }>> {
  const key = async (role: EndpointRole, borrow?: EndpointRole) => deps.keys.keyFor(role, endpoints, borrow);
  const made = (e: StoredEndpoint, k: string, role: EndpointRole) =>
    endpointConfig(e, k, role === 'target' ? config.targetConcurrency : config.optimizerConcurrency, role);
  // An agent CLI as the optimizer signs in its own way: no key is asked for it unless its preset
  // calls an endpoint with the optimizer's key.
  const agent = endpoints.optimizer.agentCommand;
  const optimizerKey = (borrow?: EndpointRole) =>
    agent && !agent.keyEnv ? Promise.resolve({ ok: true as const, key: '' }) : key('optimizer', borrow);
  if (use === 'feedback') {
    const o = await optimizerKey('target');
    if (!o.ok) return fail(o.kind, o.message);
    // The target is never called here; the port needs one, so it gets the optimizer's endpoint.
    const endpoint = endpointConfig(endpoints.optimizer, o.key, 1, 'optimizer');
    return withAgent(deps, createLlmPort({ target: endpoint, optimizer: endpoint }, deps.transport), {
      optimizer: endpoints.optimizer,
      key: o.key,
      roles: ['optimizer'],
      config,
    });
  }
  // An agent CLI signs in its own way: no key is asked for it, none is sent.
  const t = endpoints.target.agentCommand ? { ok: true as const, key: '' } : await key('target');
  if (!t.ok) return fail(t.kind, t.message);
  // An evaluation calls a second model only to judge or to play a simulated user: their own
  // endpoints, else the optimizer's.
  const judging = use === 'run' || config.scorer.kind === 'judge';
  const simulating = use === 'run' || Boolean(o.conversations);
  const ownJudge = judging ? endpoints.judge : undefined;
  const ownSim = simulating ? endpoints.userSimulator : undefined;
  const needsOptimizer = (judging && !ownJudge) || (simulating && !ownSim);
  const opt = use === 'run' ? await optimizerKey() : needsOptimizer ? await optimizerKey('target') : null;
  if (opt && !opt.ok) return fail(opt.kind, opt.message);
  const j = ownJudge ? await key('judge', 'optimizer') : null;
  if (j && !j.ok) return fail(j.kind, j.message);
  const s = ownSim ? await key('userSimulator', 'optimizer') : null;
  if (s && !s.ok) return fail(s.kind, s.message);
  const llm = createLlmPort(
    {
      target: made(endpoints.target, t.key, 'target'),
      optimizer: made(endpoints.optimizer, opt?.ok ? opt.key : 'unused-no-judge', 'optimizer'),
      ...(ownJudge && j?.ok ? { judge: made(ownJudge, j.key, 'judge') } : {}),
      ...(ownSim && s?.ok ? { userSimulator: made(ownSim, s.key, 'userSimulator') } : {}),
    },
    deps.transport,
  );
  if (!opt) return { ok: true, llm };
  // The judge and the user simulator without endpoints of their own are the optimizer's too.
  const roles: Role[] = ['optimizer', ...(ownJudge ? [] : ['judge' as const])];
  if (!ownSim) roles.push('userSimulator');
  return withAgent(deps, llm, { optimizer: endpoints.optimizer, key: opt.key, roles, config });
}

/**
 * The port with the optimizer's roles answered by its agent CLI, when its endpoint names one
 * (issue #42 item 3; service/agent-optimizer.ts): started by the host (only the runner can), with
 * the optimizer's time limit and retries and, for a preset that calls an endpoint, the optimizer's
 * key in the one variable its harness reads.
 */
function withAgent(
  deps: Deps,
  llm: LlmPort,
  o: { optimizer: StoredEndpoint; key: string; roles: Role[]; config: RunConfig },
): Outcome<{ llm: LlmPort }> {
  const cmd = o.optimizer.agentCommand;
  if (!cmd) return { ok: true, llm };
  if (!deps.agentCli)
    return fail(
      'invalid_config',
      `This run's optimizer is an agent CLI (${o.optimizer.model}): only the headless runner can start it (skillwright resume --out DIR).`,
    );
  const e = endpointConfig(o.optimizer, '', o.config.optimizerConcurrency, 'optimizer');
  const harness = deps.agentCli(cmd, {
    timeoutMs: e.timeoutMs,
    maxRetries: e.maxRetries,
    role: 'optimizer',
    ...(cmd.keyEnv && o.key ? { key: o.key } : {}),
  });
  return { ok: true, llm: withAgentRoles(llm, harness, o.roles) };
}
