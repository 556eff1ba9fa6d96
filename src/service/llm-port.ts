/**
 * The one place an LLM port is built (DESIGN §7b: a host that builds one itself is a bug waiting
 * to drift): a run's endpoints with the role defaults, each with the key the host gives for it.
 * Which roles a use case calls decides which keys it asks for — training needs all of them, an
 * evaluation the target (and a judge only when it scores with one), feedback the optimizer alone.
 */
import type { RunConfig } from '../core/config/run-config';
import type { LlmPort } from '../engine/ports';
import { createLlmPort } from '../llm/openai-client';
import type { RunEndpoints, StoredEndpoint } from '../storage/schema';
import { endpointConfig } from './endpoint-config';
import { fail, type HostDeps, type EndpointRole, type Outcome } from './ports';

export { endpointConfig };

/** What a use case calls: a whole run, one skill's evaluation, or a feedback rewrite. */
export type LlmUse = 'run' | 'evaluate' | 'feedback';

export async function llmPortFor(
  deps: Pick<HostDeps, 'keys' | 'transport'>,
  endpoints: RunEndpoints,
  config: RunConfig,
  use: LlmUse,
  /** An evaluation whose items talk with a simulated user calls the simulator (issue #31). */
  o: { conversations?: boolean } = {},
): Promise<Outcome<{ llm: LlmPort }>> {
  const key = async (role: EndpointRole, borrow?: EndpointRole) => deps.keys.keyFor(role, endpoints, borrow);
  const made = (e: StoredEndpoint, k: string, role: EndpointRole) =>
    endpointConfig(e, k, role === 'target' ? config.targetConcurrency : config.optimizerConcurrency, role);
  if (use === 'feedback') {
    const o = await key('optimizer', 'target');
    if (!o.ok) return fail(o.kind, o.message);
    // The target is never called here; the port needs one, so it gets the optimizer's endpoint.
    const endpoint = endpointConfig(endpoints.optimizer, o.key, 1, 'optimizer');
    return { ok: true, llm: createLlmPort({ target: endpoint, optimizer: endpoint }, deps.transport) };
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
  const opt = use === 'run' ? await key('optimizer') : needsOptimizer ? await key('optimizer', 'target') : null;
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
  return { ok: true, llm };
}
