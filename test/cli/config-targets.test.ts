// The config's "targets" (issue #42 item 5): other targets that gate every candidate, of the run's
// target's shape, named by their place in the list when wrong; a key goes only where the config
// says — the target's to its own host, SKILLWRIGHT_TARGETS_API_KEY to one other.
import { describe, expect, it } from 'vitest';
import { gateTargetKeys, keysFromEnv, parseCliConfig } from '../../src/cli/config';

const base = {
  target: { baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
  optimizer: { baseURL: 'https://api.openai.com/v1', model: 'gpt-4o' },
};
const parse = (targets: unknown, run: object = {}) =>
  parseCliConfig(JSON.stringify({ ...base, targets, run })).config.endpoints;

describe('the config’s gating targets', () => {
  it('takes models, agent CLIs and harness presets, in order, with no warning', () => {
    const r = parseCliConfig(
      JSON.stringify({
        ...base,
        targets: [
          { baseURL: 'https://api.openai.com/v1', model: 'gpt-4.1' },
          { agent: 'pi', model: 'm' },
        ],
      }),
    );
    expect(r.warnings).toEqual([]);
    const e = r.config.endpoints;
    expect(e.targets!.map((c) => c.model)).toEqual(['gpt-4.1', 'pi m']);
    expect(e.targets![1].agentCommand?.command[0]).toBe('pi');
    expect(parse(undefined).targets).toBeUndefined();
  });

  it('names the entry that is wrong, and refuses a run that gates nothing', () => {
    expect(() => parse([{ baseURL: 'ftp://x', model: 'm' }])).toThrow('"targets[0].baseURL" must be an http(s) URL.');
    expect(() => parse([base.target, { baseURL: 'https://x/v1', model: 'm', apiKey: 'k' }])).toThrow(
      /"targets\[1\].apiKey": keys are never read from the config; set SKILLWRIGHT_TARGETS_API_KEY/,
    );
    expect(() => parse([{ baseURL: 'https://x/v1', model: 'm', headers: { Authorization: 'Bearer k' } }])).toThrow(
      /"targets\[0\].headers.Authorization" carries a credential.*SKILLWRIGHT_TARGETS_API_KEY/,
    );
    expect(() => parse([{ baseURL: 'https://x/v1', model: 'm', colour: 'red' }])).toThrow(
      /"targets\[0\].colour" is not an endpoint setting/,
    );
    expect(() => parse([{ agent: 'nope' }])).toThrow(/"targets\[0\]"/);
    expect(() => parse([])).toThrow(/"targets" must be a list of 1 to 8 targets/);
    expect(() => parse({ baseURL: 'https://x/v1', model: 'm' })).toThrow(/"targets" must be a list/);
    expect(() => parse([base.target], { useGate: false })).toThrow(/set it to true/i);
  });

  it('lends the target’s key on its host only, and sends the targets key to one other host', () => {
    const env = { SKILLWRIGHT_TARGET_API_KEY: 't' };
    const same = parse([{ baseURL: 'https://api.openai.com/v1', model: 'gpt-4.1' }]);
    expect(gateTargetKeys(same, env, 't')).toEqual(['t']);
    const other = parse([{ baseURL: 'https://openrouter.ai/api/v1', model: 'x' }]);
    expect(() => keysFromEnv(other, env)).toThrow(
      /Set SKILLWRIGHT_TARGETS_API_KEY: the gating target x is on another host/,
    );
    // The confirming targets' key is not theirs: each list's key goes to the host the config names for it.
    expect(() => keysFromEnv(other, { ...env, SKILLWRIGHT_CONFIRM_API_KEY: 'c' })).toThrow(
      /SKILLWRIGHT_TARGETS_API_KEY/,
    );
    expect(gateTargetKeys(other, { ...env, SKILLWRIGHT_TARGETS_API_KEY: 'g' }, 't')).toEqual(['g']);
    const two = parse([
      { baseURL: 'https://openrouter.ai/api/v1', model: 'x' },
      { baseURL: 'https://api.together.xyz/v1', model: 'y' },
    ]);
    expect(() => keysFromEnv(two, { ...env, SKILLWRIGHT_TARGETS_API_KEY: 'g' })).toThrow(
      /gating targets \("targets"\) are on 2 hosts besides the target's/,
    );
    // An agent CLI that signs in its own way takes no key.
    expect(gateTargetKeys(parse([{ agent: 'pi' }]), env, 't')).toEqual(['']);
  });
});
