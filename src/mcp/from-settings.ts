/**
 * A run's MCP environment from its stored settings (issue #31), with each server's token from
 * where the host keeps it: the runner's SKILLWRIGHT_MCP_<NAME>_TOKEN, the page's vault (bound to
 * the server's origin). Tokens are handed over here, never stored with the run.
 */
import { serverName, type McpSettings } from '../core/agent/mcp-servers';
import { connectMcpEnvironment, type McpEnvironment } from './mcp-environment';

/** A server's token (or none) and where it comes from, for a 401's advice. */
export type TokenOf = (server: { name: string; url: string }) => { token?: string; hint: string };

export function mcpEnvironmentOf(
  settings: McpSettings,
  tokenOf: TokenOf,
  fetch?: typeof globalThis.fetch,
): Promise<McpEnvironment> {
  const links = settings.servers.map((config) => {
    const name = serverName(config);
    const t = tokenOf({ name, url: config.url });
    return { config, name, ...(t.token ? { token: t.token } : {}), tokenHint: t.hint };
  });
  return connectMcpEnvironment(links, {
    timeoutMs: settings.timeoutSeconds * 1000,
    concurrency: settings.toolConcurrency,
    ...(fetch ? { fetch } : {}),
  });
}
