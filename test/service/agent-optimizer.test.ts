// An agent CLI as the optimizer, as the run service builds its LLM port (issue #42 item 3): the
// optimizer's roles go to the agent — the judge too when it has no endpoint of its own — every
// other role to its endpoint; no key is asked for the agent; the page, which cannot start
// programs, refuses such a run; and a failure names the optimizer.
import { describe, expect, it } from 'vitest';
import { llmPortFor } from '../../src/service/llm-port';
import { agentTaskOf } from '../../src/service/agent-optimizer';
import type { AgentCliHost } from '../../src/service/target';
import type { KeyRole } from '../../src/service/ports';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import { AGENT_CLI_URL } from '../../src/core/agent/agent-command';
import { LlmError, type LlmRequest } from '../../src/engine/ports';
import { sharedLlmServer } from '../support/shared-server';

const server = sharedLlmServer();
const agent = {
  baseURL: AGENT_CLI_URL,
  model: 'pi',
  agentCommand: { command: ['pi'], skillFile: 'AGENTS.md', task: 'stdin' as const },
};

/** A host whose agent answers with what it was asked; the keys it was asked for. */
function host(answer: (task: string) => string = (t) => `{"asked": ${JSON.stringify(t.slice(0, 40))}}`) {
  const asked: KeyRole[] = [];
  const tasks: { prompt: string; skill: string }[] = [];
  const agentCli: AgentCliHost = (_cmd, o) => ({
    label: 'agent CLI pi',
    async solve(t) {
      expect(o.role).toBe('optimizer');
      tasks.push(t);
      return { text: answer(t.prompt), usage: { promptTokens: 10, completionTokens: 5, reasoningTokens: 0 } };
    },
  });
  const keys = {
    async keyFor(role: KeyRole) {
      asked.push(role);
      return { ok: true as const, key: 'sk-test' };
    },
  };
  return { agentCli, keys, asked, tasks };
}

const request = (role: LlmRequest['role'], user: string): LlmRequest => ({
  role,
  stage: role === 'judge' ? 'judge' : 'reflect_failure',
  messages: [
    { role: 'system', content: 'You are the failure analyst.' },
    { role: 'user', content: user },
  ],
  jsonSchema: { name: 'reflect_failure', schema: { type: 'object', required: ['patch'] } },
});

describe('the LLM port of a run whose optimizer is an agent CLI', () => {
  it('sends the optimizer’s calls to the agent (no key asked), a judge with its own endpoint to it', async () => {
    const h = host();
    const endpoints = {
      target: { baseURL: server().url, model: 'sim-target' },
      optimizer: agent,
      judge: { baseURL: server().url, model: 'sim-optimizer' },
    };
    const port = await llmPortFor(h, endpoints, DEFAULT_RUN_CONFIG, 'run');
    if (!port.ok) throw new Error(port.error.message);
    expect(h.asked).toEqual(['target', 'judge']);
    const reply = await port.llm.complete(request('optimizer', '## Failures\nthe trajectories'));
    expect(reply).toMatchObject({ jsonMode: 'text', usage: { promptTokens: 10 } });
    expect(h.tasks).toEqual([
      {
        skill: '',
        prompt:
          'You are the failure analyst.\n\nReply with one JSON object and nothing else (no tools are needed), matching this JSON schema: {"type":"object","required":["patch"]}\n\n## Failures\nthe trajectories',
        signal: expect.any(AbortSignal),
      },
    ]);
    await port.llm.complete(request('judge', 'grade this'));
    expect(h.tasks).toHaveLength(1);
    expect(server().log.map((e) => e.model)).toEqual(['sim-optimizer']);
  });

  it('sends the judge to the agent when it has no endpoint of its own', async () => {
    const h = host();
    const port = await llmPortFor(h, { target: agent, optimizer: agent }, DEFAULT_RUN_CONFIG, 'run');
    if (!port.ok) throw new Error(port.error.message);
    expect(h.asked).toEqual([]); // neither role has a key: a run with no key at all
    await port.llm.complete(request('judge', 'grade this'));
    expect(h.tasks.map((t) => t.prompt)).toEqual([expect.stringContaining('grade this')]);
  });

  it('is refused where no agent CLI can start (the page), and its failures name the optimizer', async () => {
    const { keys } = host();
    const page = await llmPortFor({ keys }, { target: agent, optimizer: agent }, DEFAULT_RUN_CONFIG, 'run');
    expect(page).toMatchObject({ ok: false, error: { kind: 'invalid_config' } });
    if (!page.ok) expect(page.error.message).toMatch(/optimizer is an agent CLI \(pi\): only the headless runner/);
    const h = host();
    h.agentCli = () => ({
      label: 'agent CLI pi',
      solve: () => Promise.reject(new LlmError('auth', 'The agent CLI stopped: 401 Incorrect API key provided.')),
    });
    const port = await llmPortFor(h, { target: agent, optimizer: agent }, DEFAULT_RUN_CONFIG, 'run');
    if (!port.ok) throw new Error(port.error.message);
    const failed = await port.llm.complete(request('optimizer', 'x')).catch((e: LlmError) => e);
    expect(failed).toMatchObject({
      kind: 'auth',
      fatal: true,
      role: 'optimizer',
      message: 'The optimizer (agent CLI pi): The agent CLI stopped: 401 Incorrect API key provided.',
    });
  });

  it('puts the contract before the material, and leaves it out without a schema', () => {
    expect(agentTaskOf({ messages: [{ role: 'user', content: 'Rewrite the skill.' }] })).toBe('Rewrite the skill.');
  });
});
