import { describe, expect, it } from 'vitest';
import { keysFromEnv, parseCliConfig } from '../../src/cli/config';

const base = { target: { baseURL: 'http://127.0.0.1:1/v1', model: 't' }, optimizer: { baseURL: 'http://127.0.0.1:1/v1', model: 'o' } };
const parse = (extra: Record<string, unknown>) => parseCliConfig(JSON.stringify({ ...base, ...extra }));

describe('the runner’s environment (issue #30)', () => {
  it('reads a module, tools and the agent knobs', () => {
    const { config } = parse({
      environment: { module: './env.mjs', tools: [{ name: 'lookup' }], maxTurns: 5, referencesOnDemand: true, timeoutSeconds: 10 },
    });
    expect(config.environment).toEqual({ module: './env.mjs', tools: [{ name: 'lookup' }], timeoutSeconds: 10 });
    expect(config.run.maxTurns).toBe(5);
    expect(config.run.referencesOnDemand).toBe(true);
    expect(parse({ environment: { tools: 'tools.json' } }).config.environment).toEqual({ toolsFile: 'tools.json' });
    expect(parse({}).config.environment).toBeUndefined();
  });
  it('names every problem', () => {
    expect(() => parse({ environment: 'env.mjs' })).toThrow('"environment" must be an object');
    expect(() => parse({ environment: { modul: 'x' } })).toThrow('"environment.modul" is not an environment setting');
    expect(() => parse({ environment: { module: '' } })).toThrow('"environment.module" must be the path');
    expect(() => parse({ environment: { tools: [{ name: 'bad name' }] } })).toThrow('"environment.tools": tool 1 needs a name');
    expect(() => parse({ environment: { maxTurns: 0 } })).toThrow('"environment.maxTurns": maximum turns must be at least 1');
    expect(() => parse({ environment: { maxTurns: 3 }, run: { maxTurns: 4 } })).toThrow('"maxTurns" is given both');
    expect(() => parse({ environment: { referencesOnDemand: 'yes' } })).toThrow('"environment.referencesOnDemand": references on demand must be on or off');
    expect(() => parse({ run: { maxTurns: 100 } })).toThrow(/run\.maxTurns: maximum turns must be at most 64/);
  });
});

describe('MCP servers and the user simulator in the runner’s config (issue #31)', () => {
  it('moves the servers into the run settings, with their knobs and defaults', () => {
    const { config } = parse({ environment: { mcp: [{ url: 'http://127.0.0.1:3/mcp', name: 'desk', tools: ['lookup'] }], toolConcurrency: 2 } });
    expect(config.environment?.mcp).toEqual({ servers: [{ url: 'http://127.0.0.1:3/mcp', name: 'desk', tools: ['lookup'] }], toolConcurrency: 2, timeoutSeconds: 60 });
    expect(() => parse({ environment: { toolConcurrency: 2 } })).toThrow('"environment.toolConcurrency" limits MCP tool calls: it needs "environment.mcp"');
    expect(() => parse({ environment: { mcp: [] } })).toThrow('"environment.mcp": "servers" lists no server.');
  });
  it('reads the user simulator’s endpoint; its key is its own, or the optimizer’s on the same host', () => {
    const sim = { baseURL: 'http://127.0.0.1:2/v1', model: 'u' };
    const { config } = parse({ userSimulator: sim, prices: { userSimulator: { input: 1, output: 2 } } });
    expect(config.endpoints.userSimulator).toMatchObject(sim);
    expect(() => keysFromEnv(config.endpoints, { SKILLWRIGHT_TARGET_API_KEY: 't' })).toThrow('Set SKILLWRIGHT_USER_SIMULATOR_API_KEY');
    expect(keysFromEnv(config.endpoints, { SKILLWRIGHT_TARGET_API_KEY: 't', SKILLWRIGHT_USER_SIMULATOR_API_KEY: 'u' })).toEqual({ target: 't', optimizer: 't', userSimulator: 'u' });
    const near = parse({ userSimulator: { ...sim, baseURL: 'http://127.0.0.1:1/v1' } }).config;
    expect(keysFromEnv(near.endpoints, { SKILLWRIGHT_TARGET_API_KEY: 't' })).toEqual({ target: 't', optimizer: 't', userSimulator: 't' });
    expect(() => parse({ userSimulator: { ...sim, headers: { Authorization: 'x' } } })).toThrow('set SKILLWRIGHT_USER_SIMULATOR_API_KEY');
  });
});
