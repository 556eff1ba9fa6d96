// A harness preset's command as the runner starts it (issue #42): the skill as a SKILL.md whose
// front matter is the skill's own name and description (a harness lists skills by them and loads
// one whose description fits the task), the preset's variables and config files in the item's
// workspace, the target's key in the one variable that harness reads — no other SKILLWRIGHT_*
// variable (issue #39 M2) — and the harness's JSON event stream read for the answer, the
// trajectory, the tokens and its own error words (recorded from the real CLIs).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentCliTarget, installSkill } from '../../src/cli/agent-cli-target';
import { expandHarness } from '../../src/core/agent/harness-presets';
import { hopelessEvent } from '../../src/core/agent/harness-streams';
import type { AgentCommand } from '../../src/core/agent/agent-command';
import { LlmError } from '../../src/engine/ports';

const FAKE_AGENT = new URL('../support/fake-agent.mjs', import.meta.url).pathname;
const TASK = 'What is the amber code for specimen 3?';
const signal = new AbortController().signal;

const preset = (agent: string): AgentCommand => {
  const r = expandHarness({ agent, model: 'sim-target', baseURL: 'http://127.0.0.1:9/v1' });
  if ('problem' in r) throw new Error(r.problem);
  return r.launch.command;
};

describe('the skill as a harness finds it', () => {
  it('SKILL.md carries the skill’s own name and description, never a placeholder', () => {
    const ws = mkdtempSync(join(tmpdir(), 'skillwright-preset-'));
    const skill = '# Specimens\n\nAnswer with the code only.\n';
    installSkill(ws, '.agents/skills/{name}/SKILL.md', skill, {
      name: 'specimens',
      description: 'Answers specimen code questions.',
    });
    expect(readFileSync(join(ws, '.agents/skills/specimens/SKILL.md'), 'utf8')).toBe(
      '---\nname: specimens\ndescription: "Answers specimen code questions."\n---\n\n# Specimens\n\nAnswer with the code only.\n',
    );
    // A plain skill without front matter: named and described by its first line.
    const plain = mkdtempSync(join(tmpdir(), 'skillwright-preset-'));
    installSkill(plain, '.agents/skills/{name}/SKILL.md', skill);
    const text = readFileSync(join(plain, '.agents/skills/specimens/SKILL.md'), 'utf8');
    expect(text).toMatch(/^---\nname: specimens\ndescription: "Specimens"\n---\n/);
    expect(text).not.toContain('The skill being trained.');
  });
});

describe('a preset’s process', () => {
  let dir: string;
  const saved = { ...process.env };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'skillwright-preset-'));
    // The runner's own keys, which no agent may see.
    process.env.SKILLWRIGHT_OPTIMIZER_API_KEY = 'sk-optimizer';
    process.env.SKILLWRIGHT_TARGET_API_KEY = 'sk-target';
    process.env.SKILLWRIGHT_AGENT_API_KEY = 'sk-from-the-runner-env';
  });
  afterEach(() => {
    process.env = { ...saved };
  });

  it('gets its variables, config files and the key in its own variable — no other SKILLWRIGHT_* one', async () => {
    // A stand-in for pi: reports what it was given as pi's JSON events.
    const probe = join(dir, 'probe.mjs');
    writeFileSync(
      probe,
      `import { readFileSync } from 'node:fs';
const seen = {
  skillwright: Object.keys(process.env).filter((k) => k.startsWith('SKILLWRIGHT_')).map((k) => k + '=' + process.env[k]),
  dir: process.env.PI_CODING_AGENT_DIR.startsWith(process.cwd()),
  models: JSON.parse(readFileSync(process.env.PI_CODING_AGENT_DIR + '/models.json', 'utf8')),
  skill: readFileSync('.agents/skills/specimens/SKILL.md', 'utf8').split('\\n')[2],
};
const usage = { input: 1200, output: 30, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } };
const say = (content, stopReason) => console.log(JSON.stringify({ type: 'message_end', message: { role: 'assistant', content, stopReason, usage } }));
say([{ type: 'toolCall', id: 'c1', name: 'read', arguments: { path: '.agents/skills/specimens/SKILL.md' } }], 'toolUse');
console.log(JSON.stringify({ type: 'tool_execution_end', toolCallId: 'c1', result: { content: [{ type: 'text', text: 'the skill' }] } }));
say([{ type: 'text', text: JSON.stringify(seen) }], 'stop');
`,
    );
    const cmd = { ...preset('pi'), command: [process.execPath, probe] };
    const got = await agentCliTarget(cmd, {
      timeoutMs: 30_000,
      maxRetries: 0,
      key: 'sk-target',
      skill: { name: 'specimens', description: 'Answers specimen code questions.' },
    }).solve({ skill: '# Specimens\n\nAnswer with the code only.\n', prompt: TASK, signal });
    const seen = JSON.parse(got.text) as { skillwright: string[]; dir: boolean; models: unknown; skill: string };
    expect(seen.skillwright).toEqual(['SKILLWRIGHT_AGENT_API_KEY=sk-target']);
    expect(seen.dir).toBe(true); // pi's folder is in the item's workspace
    expect(JSON.stringify(seen.models)).not.toContain('sk-');
    expect(JSON.stringify(seen.models)).toContain('"apiKey":"SKILLWRIGHT_AGENT_API_KEY"');
    expect(seen.skill).toBe('description: "Answers specimen code questions."');
    // The trajectory and tokens are pi's own: its read and the result, the answer added by the port.
    expect(got.transcript?.map((e) => e.kind)).toEqual(['assistant', 'tool']);
    expect(got.usage).toEqual({ promptTokens: 2400, completionTokens: 60, reasoningTokens: 0 });
    expect(got.usageEstimated).toBeUndefined();
  });

  const replay = (fixture: string, stream: 'pi' | 'qwen', maxRetries = 0) => {
    const cmd: AgentCommand = {
      ...preset(stream),
      command: [process.execPath, FAKE_AGENT],
      passEnv: ['FAKE_AGENT_MODE', 'FAKE_AGENT_REPLAY', 'FAKE_AGENT_STATE'],
    };
    process.env.FAKE_AGENT_MODE = 'replay';
    process.env.FAKE_AGENT_REPLAY = fixture;
    process.env.FAKE_AGENT_STATE = dir;
    return agentCliTarget(cmd, { timeoutMs: 30_000, maxRetries, backoffMs: 1, key: 'sk-x' }).solve({
      skill: '# Specimens\n',
      prompt: TASK,
      signal,
    });
  };
  const runs = () => readFileSync(join(dir, 'runs.log'), 'utf8').trim().split('\n').length;
  const failure = async (p: Promise<unknown>) => {
    const e = await p.then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(LlmError);
    return e as LlmError;
  };

  it('a refused key in the event stream (exit 0) stops at once, in the harness’s words', async () => {
    const pi = await failure(replay('pi-401', 'pi', 2));
    expect(pi.kind).toBe('auth');
    expect(pi.message).toBe('The agent CLI stopped: 401 Incorrect API key provided.');
    expect(runs()).toBe(1);
    const qwen = await failure(replay('qwen-401', 'qwen', 2));
    expect(qwen.kind).toBe('auth');
    expect(qwen.message).toBe('The agent CLI stopped: [API Error: 401 Incorrect API key provided.]');
    expect((await failure(replay('pi-404', 'pi'))).kind).toBe('not_found');
  });

  it('a rate limit the harness gave up on is asked again, then an error row — never an answer', async () => {
    const e = await failure(replay('pi-429', 'pi', 1));
    expect(e.kind).toBe('server');
    expect(e.message).toMatch(/^The agent CLI failed 2 times \(last: .*429/);
    expect(runs()).toBe(2);
  });

  it('Claude Code retrying a refused key: stopped at its first api_retry of a 401, not after minutes of retries', async () => {
    // A stand-in for claude: what the real one printed first (tests/fixtures: its init, then a
    // retry of the 401), then the wait before its next retry — it would do so ten times.
    const lines = readFileSync(new URL('../fixtures/agent-streams/claude-401.jsonl', import.meta.url), 'utf8').split(
      '\n',
    );
    const probe = join(dir, 'claude.mjs');
    writeFileSync(
      probe,
      `import { appendFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(join(dir, 'runs.log'))}, 'run\\n');
process.stdout.write(${JSON.stringify(`${lines[0]}\n${lines[1]}\n`)});
setTimeout(() => undefined, 60_000);
`,
    );
    const cmd = { ...preset('claude'), command: [process.execPath, probe] };
    const started = Date.now();
    const e = await failure(
      agentCliTarget(cmd, { timeoutMs: 20_000, maxRetries: 2, backoffMs: 1, key: 'sk-x' }).solve({
        skill: '# Specimens\n',
        prompt: TASK,
        signal,
      }),
    );
    expect(e.kind).toBe('auth');
    expect(e.message).toBe(
      'The agent CLI stopped: its key was refused (401 authentication_failed); it would only retry.',
    );
    expect(runs()).toBe(1);
    expect(Date.now() - started).toBeLessThan(20_000); // not the time limit
    // Its retries of a rate limit or a server error are its own business: never stopped.
    for (const f of ['claude-429', 'claude-500'])
      for (const line of readFileSync(new URL(`../fixtures/agent-streams/${f}.jsonl`, import.meta.url), 'utf8').split(
        '\n',
      ))
        expect(hopelessEvent('claude', line)).toBeNull();
  });
});
