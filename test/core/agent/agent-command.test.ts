// An agent CLI as the target (issue #31 part 3): its failures told apart from its output, and its
// transcript read into a trajectory the analysts read like any other.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { agentEnvironment, classifyAgentFailure, readAgentCommand } from '../../../src/core/agent/agent-command';
import { readAgentTranscript } from '../../../src/core/agent/agent-transcript';
import { keptTrajectory, type TrajectoryEntry } from '../../../src/core/agent/trajectory';

describe('an agent CLI’s failure', () => {
  it('is fatal when asking again cannot heal it: a login, a model the account lacks, an outdated CLI', () => {
    expect(classifyAgentFailure('Error: Your access token could not be refreshed. Please log in again.')).toBe('auth');
    expect(classifyAgentFailure('Not logged in · Please run /login')).toBe('auth');
    expect(classifyAgentFailure('error: 401 Unauthorized')).toBe('auth');
    expect(classifyAgentFailure("The model 'gpt-9' does not exist or you do not have access to it.")).toBe('not_found');
    expect(classifyAgentFailure('This version is no longer supported. Please update codex.')).toBe('bad_request');
  });
  it('is transient otherwise: a dropped stream, a crash, nothing at all', () => {
    for (const out of ['', 'stream disconnected before completion', 'Segmentation fault', 'rate limit exceeded, retry'])
      expect(classifyAgentFailure(out)).toBe('transient');
  });
});

describe('an agent CLI’s transcript', () => {
  it('reads messages, calls and their results into turns, matching results by id or by name', () => {
    const jsonl = [
      '{"role":"assistant","content":"Looking it up."}',
      '{"type":"tool_call","name":"lookup","arguments":{"code":"12"},"id":"a"}',
      '{"type":"tool_call","name":"convert","arguments":"{\\"kg\\":2}"}',
      '{"type":"tool_result","id":"a","content":"Amber bolt"}',
      '{"type":"tool_result","name":"convert","output":"2000 g","is_error":true}',
      'agent log line, not JSON',
      '{"type":"tool_call","name":"lookup","arguments":{"code":"13"}}',
      '{"type":"tool_result","content":"Basalt nut"}',
    ].join('\n');
    const t = readAgentTranscript(jsonl);
    expect(t.filter((e) => e.kind === 'assistant').map((e) => e.turn)).toEqual([1, 2]);
    const results = t.filter((e) => e.kind === 'tool');
    expect(results.map((e) => [e.turn, e.name, e.result])).toEqual([
      [1, 'lookup', 'Amber bolt'],
      [1, 'convert', '2000 g'],
      [2, 'lookup', 'Basalt nut'],
    ]);
    expect(results[1]).toMatchObject({ error: true, arguments: '{"kg":2}' });
  });
  it('never throws, whatever the agent wrote, and every result answers a call it made', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.json(), fc.constant('{"type":"tool_result","content":"x"}'))), (lines) => {
        const t = readAgentTranscript(lines.join('\n'));
        const calls = new Set(t.flatMap((e) => (e.kind === 'assistant' ? (e.toolCalls ?? []).map((c) => c.id) : [])));
        expect(t.every((e) => e.kind !== 'tool' || calls.has(e.callId))).toBe(true);
      }),
    );
  });
});

describe('an agent CLI’s environment (issue #39 M2)', () => {
  it('holds the basic variables and those passEnv names, never a SKILLWRIGHT_* key or token', () => {
    const env = {
      PATH: '/bin',
      HOME: '/home/me',
      LC_ALL: 'C',
      https_proxy: 'http://proxy:3128',
      SKILLWRIGHT_OPTIMIZER_API_KEY: 'sk-opt',
      SKILLWRIGHT_MCP_SHOP_TOKEN: 'tok',
      OPENAI_API_KEY: 'sk-other',
      CODEX_HOME: '/home/me/.codex',
    };
    expect(agentEnvironment(env)).toEqual({ PATH: '/bin', HOME: '/home/me', LC_ALL: 'C', https_proxy: 'http://proxy:3128' });
    expect(agentEnvironment(env, ['CODEX_HOME', 'SKILLWRIGHT_OPTIMIZER_API_KEY'])).toMatchObject({ CODEX_HOME: '/home/me/.codex' });
    expect(agentEnvironment(env, ['SKILLWRIGHT_OPTIMIZER_API_KEY'])).not.toHaveProperty('SKILLWRIGHT_OPTIMIZER_API_KEY');
  });
  it('refuses a passEnv that is no list of names, or names a runner key', () => {
    const read = (passEnv: unknown) => readAgentCommand({ command: ['codex', 'exec'], passEnv });
    expect(read(['CODEX_HOME'])).toMatchObject({ command: { passEnv: ['CODEX_HOME'] } });
    expect(read('CODEX_HOME')).toEqual({ problem: expect.stringMatching(/"passEnv" must be a list of environment variable names/) });
    expect(read(['A=B'])).toHaveProperty('problem');
    expect(read(['SKILLWRIGHT_TARGET_API_KEY'])).toEqual({ problem: expect.stringMatching(/never given to the agent/) });
  });
});

describe('a long transcript (issue #39 L5)', () => {
  it('is read in one pass: 20 000 calls in one turn, then their results, each to its call', () => {
    const n = 20_000;
    const lines = [
      ...Array.from({ length: n }, (_, i) => JSON.stringify({ type: 'tool_call', name: i % 2 ? 'a' : 'b', arguments: { i } })),
      ...Array.from({ length: n }, (_, i) => JSON.stringify({ type: 'tool_result', name: i % 2 ? 'a' : 'b', content: `r${i}` })),
    ];
    const t = readAgentTranscript(lines.join('\n'));
    const results = t.filter((e) => e.kind === 'tool');
    expect(results).toHaveLength(n);
    expect(results.every((r, i) => r.result === `r${i}` && r.arguments === `{"i":${i}}`)).toBe(true);
  }, 5_000);

  it('is kept whole up to 2 000 entries, else its first and last with a note of what was cut', () => {
    const entries: TrajectoryEntry[] = Array.from({ length: 2_500 }, (_, i) => ({ kind: 'assistant', turn: i + 1, content: `t${i}` }));
    expect(keptTrajectory(entries.slice(0, 2_000))).toHaveLength(2_000);
    const kept = keptTrajectory(entries);
    expect(kept).toHaveLength(2_000);
    expect(kept[999]).toMatchObject({ content: 't999' });
    expect(kept[1000]).toEqual({ kind: 'assistant', turn: 1001, content: '[… 501 entries of this trajectory cut]' });
    expect(kept[1999]).toMatchObject({ content: 't2499' });
  });
});
