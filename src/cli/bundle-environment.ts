/**
 * A bundle's environment, before the runner takes it in (`resume --bundle`): a bundle is a file
 * someone sent, and its environment would act on this machine — a module is code the runner
 * would import with the person's permissions, and its MCP servers would be sent the tokens in
 * SKILLWRIGHT_MCP_<NAME>_TOKEN. So the person's own config must name the same environment: the
 * same module source, the same servers — and the run then calls the servers as the config names
 * them (their names bind the tokens, their `tools` lists the agent's tools: issue #39 H3).
 */
import type { RunEnvironmentSpec } from '../core/agent/environment-spec';
import { ConfigError } from './config-error';
import { ownServers, type RunnerEnvironment } from './environment';

/** The environment a bundle's run keeps, read without trusting the rest of it. */
function bundleEnvironment(text: string): RunEnvironmentSpec | undefined {
  try {
    const b = JSON.parse(text) as { run?: { environment?: RunEnvironmentSpec } };
    return b.run?.environment;
  } catch {
    return undefined; // the bundle's own validation names what is wrong with it
  }
}

/** Refuse a bundle whose environment the person's config does not name as its own. */
export function checkBundleEnvironment(text: string, env: RunnerEnvironment): void {
  const kept = bundleEnvironment(text);
  const module = kept?.module;
  if (module && env.module?.hash !== module.hash)
    throw new ConfigError(
      `This bundle carries an environment module (${module.fileName}): code the runner would run on this machine with your permissions. Read it (run.environment.module.source in the bundle), save it as a file, name that file in your config's "environment": {"module": …}, and run this again.`,
    );
  // Its MCP servers must be the config's; the run then calls them as the config names them.
  if (kept?.mcp) ownServers(kept.mcp, env.mcp);
}
