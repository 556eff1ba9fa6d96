// Harness presets (issue #42): `{agent, model?, args?, baseURL?}` expands to the CLI's own
// non-interactive flags, its skill and context file, the task on standard input, and an
// environment pointing it at the endpoint — the key only ever in one variable, never in argv or
// a file.
import { describe, expect, it } from 'vitest';
import {
  expandHarness,
  HARNESSES,
  PRESETS,
  AGENT_KEY_ENV,
  type HarnessLaunch,
} from '../../../src/core/agent/harness-presets';

const expand = (raw: Record<string, unknown>, name?: string): HarnessLaunch => {
  const r = expandHarness(raw, name);
  if ('problem' in r) throw new Error(r.problem);
  return r.launch;
};
const URL_ = 'http://127.0.0.1:8787/v1';

describe('a harness preset', () => {
  it('pi: json events, print mode, no session; its own models.json names the key’s variable', () => {
    const l = expand({ agent: 'pi', model: 'sim-target', baseURL: URL_, args: ['--thinking', 'off'] }, 'specimens');
    expect(l.command).toMatchObject({
      command: ['pi', '--mode', 'json', '-p', '--no-session', '--model', 'skillwright/sim-target', '--thinking', 'off'],
      skillFile: '.agents/skills/specimens/SKILL.md',
      task: 'stdin',
      // Its output is read as pi's event stream; the key goes into the variable models.json names.
      stream: 'pi',
      keyEnv: AGENT_KEY_ENV,
    });
    expect(l.command.env).toEqual({ PI_OFFLINE: '1', PI_CODING_AGENT_DIR: '{workspace}/.skillwright/pi' });
    const models = JSON.parse(l.command.files![0].text) as { providers: Record<string, { baseUrl: string; apiKey: string }> };
    expect(models.providers.skillwright).toMatchObject({ baseUrl: URL_, apiKey: AGENT_KEY_ENV });
    // The runner retries and counts each fault; pi's own retries are off.
    expect(JSON.parse(l.command.files![1].text)).toEqual({ retry: { enabled: false } });
    // Without an endpoint: pi's own login, no key; without a skill name the runner fills it in.
    expect(expand({ agent: 'pi' }).command).toMatchObject({ skillFile: '.agents/skills/{name}/SKILL.md' });
    expect(expand({ agent: 'pi' }).command.keyEnv).toBeUndefined();
  });

  it('codex: exec --json in the workspace sandbox, a provider on the Responses API, the task from stdin', () => {
    const l = expand({ agent: 'codex', model: 'gpt-5-mini', baseURL: URL_ });
    expect(l.command.command.slice(0, 3)).toEqual(['codex', 'exec', '--json']);
    expect(l.command.command).toContain('model_providers.skillwright.wire_api="responses"');
    expect(l.command.command).toContain(`model_providers.skillwright.env_key="${AGENT_KEY_ENV}"`);
    expect(l.command.command.at(-1)).toBe('-');
  });

  it('qwen: yolo, stream-json, the OpenAI variables; without a base URL, the CLI’s own login', () => {
    const l = expand({ agent: 'qwen', model: 'sim-target', baseURL: URL_ });
    expect(l.command.command).toEqual([
      'qwen',
      '--yolo',
      '--output-format',
      'stream-json',
      '--auth-type',
      'openai',
      '-m',
      'sim-target',
    ]);
    expect(l.command.env).toEqual({ OPENAI_BASE_URL: URL_, OPENAI_MODEL: 'sim-target' });
    expect(l.command.keyEnv).toBe('OPENAI_API_KEY');
    expect(expand({ agent: 'qwen' }).command.env).toBeUndefined();
  });

  it('every harness: no key in argv, env or files; the skill where that harness reads skills', () => {
    for (const agent of HARNESSES) {
      const l = expand({ agent, model: 'm', baseURL: URL_ }, 'specimens');
      const said = JSON.stringify([l.command, l.command.env, l.command.files]);
      expect(said).not.toMatch(/sk-|Bearer/);
      expect(l.command.skillFile).toBe(PRESETS[agent].skillFile.replace('{name}', 'specimens'));
      expect(l.command.command[0]).toBe(PRESETS[agent].program);
    }
    expect(PRESETS.claude.skillFile).toBe('.claude/skills/{name}/SKILL.md');
    // OpenCode takes the task as an argument, after "--" so that a task starting with "-" stays one.
    expect(expand({ agent: 'opencode' }).command).toMatchObject({
      task: 'argument',
      command: ['opencode', 'run', '--format', 'json', '--auto', '--', '{task}'],
    });
    expect(PRESETS.claude.contextFile).toBe('CLAUDE.md');
  });

  it('refuses what it cannot run, naming the key', () => {
    expect(expandHarness({ agent: 'cursor' })).toEqual({
      problem: '"agent" must be one of codex, claude, opencode, pi, qwen, gemini',
    });
    expect(expandHarness({ agent: 'pi', args: '--x' })).toEqual({ problem: '"args" must be a list of arguments' });
    expect(expandHarness({ agent: 'pi', baseURL: 'file:///etc' })).toEqual({
      problem: '"baseURL" must be an http(s) address',
    });
    expect(expandHarness({ agent: 'pi' }, '../x')).toMatchObject({ problem: expect.stringContaining('skill') });
  });
});
