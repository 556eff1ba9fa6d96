/**
 * A bundle's environment, before the runner takes it in (`resume --bundle`): a bundle is a file
 * someone sent, and its environment would act on this machine — a module is code the runner
 * would import with the person's permissions, and its MCP servers would be sent the tokens in
 * SKILLWRIGHT_MCP_<NAME>_TOKEN. So the person's own config must name the same environment: the
 * same module source, the same servers — and the run then calls the servers as the config names
 * them (their names bind the tokens, their `tools` lists the agent's tools: issue #39 H3). Its
 * items' check commands run only when the config's own dataset holds them (issue #42 item 4).
 */
import type { RunEnvironmentSpec } from '../core/agent/environment-spec';
import type { DatasetItem } from '../core/dataset/dataset-types';
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

/** The bundle's items that carry a check command, read without trusting the rest of it. */
function bundleChecks(text: string): { id: string; command: string }[] {
  try {
    const b = JSON.parse(text) as {
      dataset?: { items?: { id?: unknown; agent?: { check?: { command?: unknown } } }[] };
    };
    return (b.dataset?.items ?? []).flatMap((i) =>
      typeof i.agent?.check?.command === 'string' ? [{ id: String(i.id), command: i.agent.check.command }] : [],
    );
  } catch {
    return [];
  }
}

/**
 * Refuse a bundle whose items carry check commands (issue #42 item 4) that the dataset the
 * person's config names does not hold as they are: a check is a shell command someone sent,
 * which the runner would run on this machine. An item's id covers its check, so ids are compared.
 */
export function checkBundleChecks(text: string, own: readonly DatasetItem[] | null): void {
  const sent = bundleChecks(text);
  if (!sent.length) return;
  const mine = new Map((own ?? []).map((i) => [i.id, i.agent?.check?.command]));
  const strange = sent.filter((c) => mine.get(c.id) !== c.command);
  if (strange.length)
    throw new ConfigError(
      `This bundle's dataset carries check commands (${strange.length} not in your config's "data"; first: item "${strange[0].id}", \`${strange[0].command.slice(0, 200)}\`): shell commands someone sent, which the runner would run on this machine. Name the dataset file they come from in your config's "data", and run this again.`,
    );
}
