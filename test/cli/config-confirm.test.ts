// The config's "confirm" (issue #42 item 5): targets of the run's target's shape, named by their
// place in the list when wrong; a key goes only where the config says — the target's to its own
// host, SKILLWRIGHT_CONFIRM_API_KEY to one other.
import { describe, expect, it } from 'vitest';
import { confirmKeys, keysFromEnv, parseCliConfig } from '../../src/cli/config';

const base = {
  target: { baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
  optimizer: { baseURL: 'https://api.openai.com/v1', model: 'gpt-4o' },
};
const parse = (confirm: unknown, run: object = {}) =>
  parseCliConfig(JSON.stringify({ ...base, confirm, run })).config.endpoints;

describe('the config’s confirming targets', () => {
  it('takes models, agent CLIs and harness presets, in order', () => {
    const e = parse([{ baseURL: 'https://api.openai.com/v1', model: 'gpt-4.1' }, { agent: 'pi', model: 'm' }]);
    expect(e.confirm!.map((c) => c.model)).toEqual(['gpt-4.1', 'pi m']);
    expect(e.confirm![1].agentCommand?.command[0]).toBe('pi');
    expect(parse(undefined).confirm).toBeUndefined();
  });

  it('names the entry that is wrong, and refuses a run that scores no test', () => {
    expect(() => parse([{ baseURL: 'ftp://x', model: 'm' }])).toThrow('"confirm[0].baseURL" must be an http(s) URL.');
    expect(() => parse([base.target, { baseURL: 'https://x/v1', model: 'm', apiKey: 'k' }])).toThrow(
      /"confirm\[1\].apiKey": keys are never read from the config; set SKILLWRIGHT_CONFIRM_API_KEY/,
    );
    expect(() => parse([{ agent: 'nope' }])).toThrow(/"confirm\[0\]"/);
    expect(() => parse([])).toThrow(/"confirm" must be a list of 1 to 8 targets/);
    expect(() => parse([base.target], { evalTest: false })).toThrow(/set "run.evalTest" to true/);
  });

  it('lends the target’s key on its host only, and sends the confirm key to one other host', () => {
    const env = { SKILLWRIGHT_TARGET_API_KEY: 't' };
    const same = parse([{ baseURL: 'https://api.openai.com/v1', model: 'gpt-4.1' }]);
    expect(confirmKeys(same, env, 't')).toEqual(['t']);
    const other = parse([{ baseURL: 'https://openrouter.ai/api/v1', model: 'x' }]);
    expect(() => keysFromEnv(other, env)).toThrow(/Set SKILLWRIGHT_CONFIRM_API_KEY: the confirming target x is on another host/);
    expect(confirmKeys(other, { ...env, SKILLWRIGHT_CONFIRM_API_KEY: 'c' }, 't')).toEqual(['c']);
    const two = parse([
      { baseURL: 'https://openrouter.ai/api/v1', model: 'x' },
      { baseURL: 'https://api.together.xyz/v1', model: 'y' },
    ]);
    expect(() => keysFromEnv(two, { ...env, SKILLWRIGHT_CONFIRM_API_KEY: 'c' })).toThrow(/on 2 hosts besides the target's/);
    // An agent CLI that signs in its own way takes no key.
    expect(confirmKeys(parse([{ agent: 'pi' }]), env, 't')).toEqual(['']);
  });
});
