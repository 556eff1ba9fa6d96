// A bundle someone sent cannot make the runner run its code or send tokens to its servers
// (`resume --bundle`): the person's own config must name the same module and MCP servers.
import { describe, expect, it } from 'vitest';
import { checkBundleEnvironment } from '../../src/cli/bundle-environment';
import type { RunnerEnvironment } from '../../src/cli/environment';

const module = { name: 'catalogue', fileName: 'catalogue.mjs', source: 'export default {}', hash: 'h1' };
const bundle = (environment: unknown) => JSON.stringify({ run: { environment } });
const mcp = (...urls: string[]) => ({ servers: urls.map((url) => ({ url })), toolConcurrency: 4, timeoutSeconds: 60 });

describe('a bundle’s environment in the runner', () => {
  it('refuses a module the config does not name, and one whose source differs', () => {
    expect(() => checkBundleEnvironment(bundle({ module }), { tools: [] })).toThrow(
      /carries an environment module \(catalogue.mjs\): code the runner would run on this machine/,
    );
    const other: RunnerEnvironment = { tools: [], module: { ...module, hash: 'h2', path: '/x/catalogue.mjs' } };
    expect(() => checkBundleEnvironment(bundle({ module }), other)).toThrow(/carries an environment module/);
    const same: RunnerEnvironment = { tools: [], module: { ...module, path: '/x/catalogue.mjs' } };
    expect(() => checkBundleEnvironment(bundle({ module }), same)).not.toThrow();
  });
  it('refuses MCP servers the config does not name: they would be sent the person’s tokens', () => {
    const env: RunnerEnvironment = { tools: [], mcp: mcp('https://mcp.example.com/mcp') };
    expect(() => checkBundleEnvironment(bundle({ mcp: mcp('https://evil.example/mcp') }), env)).toThrow(
      /calls MCP servers \(https:\/\/evil.example\/mcp\) that your config does not name/,
    );
    expect(() => checkBundleEnvironment(bundle({ mcp: mcp('https://mcp.example.com/mcp') }), env)).not.toThrow();
  });
  it('lets a bundle without an environment through, and leaves a broken one to the bundle’s own check', () => {
    expect(() => checkBundleEnvironment(bundle(undefined), { tools: [] })).not.toThrow();
    expect(() => checkBundleEnvironment('{not json', { tools: [] })).not.toThrow();
  });
});
