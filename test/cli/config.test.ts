// The runner's config (issue #22): validated like the page's, keys refused, tiers priced; its
// JSON Schema comes from the knob table (issue #21).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { AGENT_KEYS, PRESET_KEYS, ConfigError, ENDPOINT_KEYS, keysFromEnv, parseCliConfig } from '../../src/cli/config';
import { cliConfigSchema } from '../../src/cli/config-schema';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import { presetPrice } from '../../src/core/config/pricing';

const base = { target: { baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini', serviceTier: 'flex' }, optimizer: { baseURL: 'https://api.openai.com/v1', model: 'gpt-4o' } };

describe('the runner’s config file', () => {
  it('fills the page’s defaults, and list prices at each role’s service tier', () => {
    const { config } = parseCliConfig(JSON.stringify(base));
    expect(config.run).toEqual(DEFAULT_RUN_CONFIG);
    const mini = presetPrice('gpt-4o-mini')!;
    expect(config.prices.target).toEqual({ input: mini.input / 2, output: mini.output / 2, cachedInput: mini.cachedInput! / 2 });
    expect(config.prices.optimizer).toEqual(presetPrice('gpt-4o'));
    expect(parseCliConfig(JSON.stringify({ ...base, prices: { target: { input: 1, output: 2 } } })).config.prices.target).toEqual({ input: 1, output: 2 });
  });

  it('names what is wrong', () => {
    const bad = (c: unknown) => () => parseCliConfig(JSON.stringify(c));
    expect(bad({ ...base, target: { ...base.target, serviceTier: 'cheap' } })).toThrow(/"target.serviceTier" must be one of auto, default, flex, priority/);
    expect(bad({ ...base, optimizer: { ...base.optimizer, apiKey: 'sk-x' } })).toThrow(/keys are never read from the config/);
    expect(bad({ ...base, run: { epochs: 0 } })).toThrow(ConfigError);
    expect(() => parseCliConfig('{')).toThrow(/not valid JSON/);
    // Issue #22 item 4: a batch API serves the target's one-shot phases only.
    expect(bad({ ...base, optimizer: { ...base.optimizer, batchApi: 'openai' } })).toThrow(/only the target's one-shot phases/);
    expect(bad({ ...base, target: { ...base.target, batchApi: 'anthropic' } })).toThrow(/"target.batchApi" must be one of openai, openrouter/);
    expect(parseCliConfig(JSON.stringify({ ...base, target: { ...base.target, batchApi: 'openrouter' } })).config.endpoints.target.batchApi).toBe('openrouter');
  });

  it('refuses an endpoint setting of the wrong type or range (issue #39, earlier M4)', () => {
    const bad = (k: string, v: unknown) => () => parseCliConfig(JSON.stringify({ ...base, optimizer: { ...base.optimizer, [k]: v } }));
    expect(bad('temperature', 'hot')).toThrow('"optimizer.temperature" must be a number from 0 to 2.');
    expect(() => parseCliConfig(`{"target":${JSON.stringify(base.target)},"optimizer":{"baseURL":"https://x/v1","model":"m","temperature":1e308}}`)).toThrow(/temperature/);
    expect(bad('maxRetries', -5)).toThrow('"optimizer.maxRetries" must be a whole number from 0 to 100.');
    expect(bad('timeoutMs', 'soon')).toThrow('"optimizer.timeoutMs" must be a whole number of milliseconds (at least 1).');
    expect(bad('reasoningEffort', 'ultra')).toThrow('"optimizer.reasoningEffort" must be "" (the model\'s default) or one of none, minimal, low, medium, high, xhigh, max.');
    expect(bad('maxOutputTokens', -1)).toThrow('"optimizer.maxOutputTokens" must be a whole number of tokens (at least 1).');
    expect(bad('minimalHeaders', 'yes')).toThrow('"optimizer.minimalHeaders" must be true or false.');
    expect(bad('reasoningModel', 1)).toThrow('"optimizer.reasoningModel" must be true or false.');
    const good = { temperature: 0.7, maxRetries: 3, timeoutMs: 30_000, reasoningEffort: 'low', maxOutputTokens: 800, minimalHeaders: true };
    expect(parseCliConfig(JSON.stringify({ ...base, optimizer: { ...base.optimizer, ...good } })).config.endpoints.optimizer).toMatchObject(good);
  });

  // Issue #28 item 6: prices, headers and the split are checked as the page checks them.
  it('refuses a negative or non-finite price, a credential in the headers, and a bad split', () => {
    const bad = (c: unknown) => () => parseCliConfig(JSON.stringify(c));
    expect(bad({ ...base, prices: { target: { input: -1, output: 2 } } })).toThrow(/"prices.target" "input" must be a number ≥ 0/);
    expect(() => parseCliConfig(`{"target":${JSON.stringify(base.target)},"optimizer":${JSON.stringify(base.optimizer)},"prices":{"optimizer":{"input":1,"output":1e999}}}`)).toThrow(/"prices.optimizer" "output" must be a number ≥ 0/);
    expect(bad({ ...base, prices: { target: { input: '1', output: 2 } } })).toThrow(/"prices.target"/);
    expect(bad({ ...base, prices: { robot: { input: 1, output: 2 } } })).toThrow(/"prices.robot" is not a role/);
    expect(bad({ ...base, target: { ...base.target, headers: { Authorization: 'Bearer sk-x' } } })).toThrow(/"target.headers.Authorization" carries a credential.*SKILLWRIGHT_TARGET_API_KEY/);
    expect(bad({ ...base, optimizer: { ...base.optimizer, headers: { 'X-Portkey-Api-Key': 'k' } } })).toThrow(/carries a credential/);
    expect(bad({ ...base, target: { ...base.target, headers: { 'X-Title': 7 } } })).toThrow(/"target.headers.X-Title" must be a string/);
    expect(parseCliConfig(JSON.stringify({ ...base, target: { ...base.target, headers: { 'X-Title': 'mine' } } })).config.endpoints.target.headers).toEqual({ 'X-Title': 'mine' });
    expect(bad({ ...base, split: { ratio: [0, 0, 0] } })).toThrow(/"split.ratio": split ratio must not be all zeros/);
    expect(bad({ ...base, split: { ratio: [2, -1, 7] } })).toThrow(/"split.ratio": split ratio must be three non-negative numbers/);
    expect(bad({ ...base, split: { ratio: '2:1:7' } })).toThrow(/"split.ratio"/);
    expect(bad({ ...base, split: { seed: 1.5 } })).toThrow(/"split.seed" must be an integer/);
    expect(bad({ ...base, split: { ratios: [1, 1, 1] } })).toThrow(/"split.ratios" is not a split setting/);
    expect(parseCliConfig(JSON.stringify({ ...base, split: { ratio: [2, 1, 7], seed: 3 } })).config.split).toEqual({ ratio: [2, 1, 7], seed: 3 });
  });

  it('takes keys from the environment, sharing the target’s only with the same host', () => {
    const { config } = parseCliConfig(JSON.stringify(base));
    expect(keysFromEnv(config.endpoints, { SKILLWRIGHT_TARGET_API_KEY: 't' })).toEqual({ target: 't', optimizer: 't' });
    const other = parseCliConfig(JSON.stringify({ ...base, optimizer: { baseURL: 'https://openrouter.ai/api/v1', model: 'x' } })).config;
    expect(() => keysFromEnv(other.endpoints, { SKILLWRIGHT_TARGET_API_KEY: 't' })).toThrow(/SKILLWRIGHT_OPTIMIZER_API_KEY/);
  });
});

// Issue #31 part 3: an agent CLI as the target.
describe('an agent CLI as the runner’s target', () => {
  const agent = (target: Record<string, unknown>) => JSON.stringify({ ...base, target: { command: ['codex', 'exec'], ...target } });
  it('takes a command, with defaults a real agent needs: AGENTS.md, stdin, minutes per item', () => {
    const t = parseCliConfig(agent({})).config.endpoints.target;
    expect(t).toMatchObject({ baseURL: 'agent-cli://local', model: 'codex', timeoutMs: 600_000, maxRetries: 2 });
    expect(t.agentCommand).toEqual({ command: ['codex', 'exec'], skillFile: 'AGENTS.md', task: 'stdin' });
    const pkg = parseCliConfig(
      agent({ skillFile: '.agents/skills/s/SKILL.md', task: 'argument', command: ['a', '{task}'], answerFile: 'out.txt', model: 'my-agent' }),
    ).config.endpoints.target;
    expect(pkg.agentCommand).toMatchObject({ skillFile: '.agents/skills/s/SKILL.md', task: 'argument', answerFile: 'out.txt' });
    expect(pkg.model).toBe('my-agent');
  });
  it('names what is wrong with it', () => {
    const bad = (t: Record<string, unknown>) => () => parseCliConfig(agent(t));
    expect(bad({ command: [] })).toThrow(/"command" must be a list of the program and its arguments/);
    expect(bad({ command: 'codex exec' })).toThrow(/"command" must be a list/);
    expect(bad({ skillFile: '../AGENTS.md' })).toThrow(/"skillFile" must be a path inside the workspace/);
    expect(bad({ answerFile: '/tmp/answer' })).toThrow(/"answerFile" must be a path inside the workspace/);
    expect(bad({ task: 'argument' })).toThrow(/needs an argument "\{task\}"/);
    expect(bad({ task: 'file' })).toThrow(/"task" must be "stdin" or "argument"/);
    expect(bad({ baseURL: 'https://x' })).toThrow(/"target.baseURL" is not an agent CLI setting/);
    expect(bad({ timeoutMs: 0 })).toThrow(/"target.timeoutMs" must be a whole number of milliseconds/);
  });
  it('needs no target key, and lends none: the optimizer brings its own', () => {
    const { endpoints } = parseCliConfig(agent({})).config;
    expect(keysFromEnv(endpoints, { SKILLWRIGHT_OPTIMIZER_API_KEY: 'o' })).toEqual({ target: '', optimizer: 'o' });
    expect(() => keysFromEnv(endpoints, { SKILLWRIGHT_TARGET_API_KEY: 't' })).toThrow(/the target is an agent CLI, which lends no key/);
  });
});

// Issue #42: a published harness by name.
describe('a harness preset as the runner’s target', () => {
  const preset = (target: Record<string, unknown>) => JSON.stringify({ ...base, target });
  it('expands to the preset’s command, stream, files and key variable; its endpoint is where the key goes', () => {
    const t = parseCliConfig(preset({ agent: 'pi', model: 'sim-target', baseURL: 'http://127.0.0.1:8787/v1' })).config.endpoints.target;
    expect(t).toMatchObject({ baseURL: 'http://127.0.0.1:8787/v1', model: 'pi sim-target', timeoutMs: 600_000, maxRetries: 2 });
    expect(t.agentCommand).toMatchObject({ command: ['pi', '--mode', 'json', '-p', '--no-session', '--model', 'skillwright/sim-target'], skillFile: '.agents/skills/{name}/SKILL.md', stream: 'pi', keyEnv: 'SKILLWRIGHT_AGENT_API_KEY' });
    // With an endpoint the target's key is needed, and may be the optimizer's on the same host.
    expect(() => keysFromEnv(parseCliConfig(preset({ agent: 'pi', baseURL: 'https://other.example/v1' })).config.endpoints, { SKILLWRIGHT_OPTIMIZER_API_KEY: 'o' })).toThrow(/SKILLWRIGHT_TARGET_API_KEY/);
    expect(keysFromEnv(parseCliConfig(preset({ agent: 'pi', baseURL: 'https://api.openai.com/v1' })).config.endpoints, { SKILLWRIGHT_TARGET_API_KEY: 't' })).toEqual({ target: 't', optimizer: 't' });
    // Without one the harness signs in its own way: no key.
    const own = parseCliConfig(preset({ agent: 'qwen' })).config.endpoints;
    expect(own.target).toMatchObject({ baseURL: 'agent-cli://local', model: 'qwen' });
    expect(keysFromEnv(own, { SKILLWRIGHT_OPTIMIZER_API_KEY: 'o' })).toEqual({ target: '', optimizer: 'o' });
  });
  it('names what is wrong with it', () => {
    const bad = (t: Record<string, unknown>) => () => parseCliConfig(preset(t));
    expect(bad({ agent: 'cursor' })).toThrow(/"agent" must be one of codex, claude, opencode, pi, qwen, gemini/);
    expect(bad({ agent: 'pi', command: ['pi'] })).toThrow(/"target.command" is not a harness preset setting/);
    expect(bad({ agent: 'pi', args: '--x' })).toThrow(/"args" must be a list of arguments/);
  });
  it('a hand-written command may not hand the agent a runner variable, nor its key under another role’s name', () => {
    const agent = (t: Record<string, unknown>) => () => parseCliConfig(JSON.stringify({ ...base, target: { command: ['a'], ...t } }));
    expect(agent({ env: { SKILLWRIGHT_OPTIMIZER_API_KEY: 'x' } })).toThrow(/"env" sets SKILLWRIGHT_OPTIMIZER_API_KEY/);
    expect(agent({ keyEnv: 'SKILLWRIGHT_JUDGE_API_KEY' })).toThrow(/"keyEnv" may name SKILLWRIGHT_AGENT_API_KEY/);
    expect(agent({ stream: 'cursor' })).toThrow(/"stream" must be one of/);
    expect(agent({ files: [{ path: '../x', text: '' }] })).toThrow(/"files" must be a list of \{path, text\} inside the workspace/);
  });
});

// Issue #42 item 3: an agent CLI as the optimizer, signed in its own way.
describe('an agent CLI as the runner’s optimizer', () => {
  const parsed = (c: Record<string, unknown>) => parseCliConfig(JSON.stringify({ ...base, ...c })).config;
  it('is a preset or a command like the target’s; with an agent target too, the run needs no key at all', () => {
    const both = parsed({ target: { agent: 'qwen' }, optimizer: { agent: 'pi', model: 'gpt-5' } });
    expect(both.endpoints.optimizer).toMatchObject({ baseURL: 'agent-cli://local', model: 'pi gpt-5', timeoutMs: 600_000 });
    expect(both.endpoints.optimizer.agentCommand).toMatchObject({ command: ['pi', '--mode', 'json', '-p', '--no-session', '--model', 'gpt-5'], stream: 'pi' });
    expect(keysFromEnv(both.endpoints, {})).toEqual({ target: '', optimizer: '' });
    // An API target still needs its key, and lends none to the agent.
    const own = parsed({ optimizer: { command: ['my-agent', '-p'], model: 'gpt-4o' } }).endpoints;
    expect(keysFromEnv(own, { SKILLWRIGHT_TARGET_API_KEY: 't' })).toEqual({ target: 't', optimizer: '' });
    // A preset with an endpoint is given the optimizer's key; a judge elsewhere needs its own.
    const keyed = parsed({ target: { agent: 'qwen' }, optimizer: { agent: 'pi', baseURL: 'https://api.openai.com/v1' } }).endpoints;
    expect(() => keysFromEnv(keyed, {})).toThrow(/SKILLWRIGHT_OPTIMIZER_API_KEY/);
    expect(keysFromEnv(keyed, { SKILLWRIGHT_OPTIMIZER_API_KEY: 'o' })).toEqual({ target: '', optimizer: 'o' });
    const judged = parsed({ target: { agent: 'qwen' }, optimizer: { agent: 'pi' }, judge: { baseURL: 'https://api.openai.com/v1', model: 'gpt-4o' } });
    expect(() => keysFromEnv(judged.endpoints, {})).toThrow(/SKILLWRIGHT_JUDGE_API_KEY/);
  });
  it('is priced by no list: an agent CLI bills its own login (only "prices" given say otherwise)', () => {
    expect(parsed({}).prices.optimizer).toBeDefined(); // gpt-4o's list price
    expect(parsed({ optimizer: { command: ['my-agent'], model: 'gpt-4o' } }).prices.optimizer).toBeUndefined();
    const given = { input: 1, output: 2 };
    expect(parsed({ optimizer: { agent: 'codex' }, prices: { optimizer: given } }).prices.optimizer).toEqual(given);
  });
  it('names what is wrong with it, as the optimizer’s', () => {
    expect(() => parsed({ optimizer: { agent: 'pi', command: ['pi'] } })).toThrow(/"optimizer.command" is not a harness preset setting/);
    expect(() => parsed({ optimizer: { command: ['a'], baseURL: 'https://x' } })).toThrow(/"optimizer.baseURL" is not an agent CLI setting/);
    expect(() => parsed({ judge: { agent: 'pi' } })).toThrow(/"judge.agent" is not an endpoint setting/);
  });
});

describe('the config’s JSON Schema (generated from the knob table)', () => {
  const schema = cliConfigSchema() as {
    properties: Record<string, { properties: Record<string, unknown>; oneOf: { properties: Record<string, unknown> }[] }>;
  };
  it('is what docs/skillwright.schema.json holds (regenerate: npx skillwright schema > docs/skillwright.schema.json)', () => {
    expect(JSON.parse(readFileSync(new URL('../../docs/skillwright.schema.json', import.meta.url), 'utf8'))).toEqual(schema);
  });
  it('names every run setting and every endpoint setting the runner accepts', () => {
    expect(Object.keys(schema.properties.run.properties).sort()).toEqual([...Object.keys(DEFAULT_RUN_CONFIG), 'preset'].sort());
    expect(Object.keys(schema.properties.target.oneOf[0].properties).sort()).toEqual([...ENDPOINT_KEYS].sort());
    expect(Object.keys(schema.properties.target.oneOf[1].properties).sort()).toEqual([...AGENT_KEYS].sort());
    expect(Object.keys(schema.properties.target.oneOf[2].properties).sort()).toEqual([...PRESET_KEYS].sort());
    expect(Object.keys(schema.properties.optimizer.oneOf[1].properties).sort()).toEqual([...AGENT_KEYS].sort());
    expect(Object.keys(schema.properties.optimizer.oneOf[2].properties).sort()).toEqual([...PRESET_KEYS].sort());
    expect(schema.properties.run.properties.editBudget).toMatchObject({ type: 'integer', minimum: 1, maximum: 999, default: 6 });
  });
  it('is referenced by the example config, which the runner accepts', () => {
    const text = readFileSync(new URL('../../docs/skillwright.mock.json', import.meta.url), 'utf8');
    expect(JSON.parse(text).$schema).toBe('./skillwright.schema.json');
    expect(parseCliConfig(text).warnings).toEqual([]);
  });
});
