/**
 * Test MCP server (issue #31): connect with the token the vault holds for the server's URL, list
 * its tools (with what the server says of their side effects) and resources, end the session; or
 * name the problem — and, when a page cannot reach it at all, probe whether it is down or its CORS
 * (which must allow MCP's headers) keeps this page out. The SDK's client loads on first use.
 */
import { readMcpServers, serverName } from '../../core/agent/mcp-servers';
import type { McpApi } from '../api-types';
import { diagnoseMcp } from '../connection-doctor';
import { mcpTokenFor } from '../key-binding';
import { fail, type ApiContext } from './context';

/** How long the test waits for each of the server's answers. */
const TEST_TIMEOUT_MS = 15_000;

export function mcpHandlers(c: ApiContext): McpApi {
  return {
    async testMcpServer(input) {
      const read = readMcpServers([input]);
      if (read.problems.length) return fail('invalid', read.problems.join('; '));
      const config = read.servers[0];
      const name = serverName(config);
      const token = mcpTokenFor(await c.vault.current(), config.url);
      const { describeServer } = await import('../../mcp/mcp-environment');
      const { McpEnvironmentError } = await import('../../mcp/mcp-session');
      try {
        const facts = await describeServer(
          { config, name, ...(token ? { token } : {}), tokenHint: `enter ${name}'s token and test again` },
          { timeoutMs: TEST_TIMEOUT_MS },
        );
        return {
          ok: true,
          ...(facts.serverInfo ? { server: facts.serverInfo } : {}),
          tools: facts.tools.map((t) => ({
            name: t.name,
            ...(t.description ? { description: t.description } : {}),
            readOnly: t.annotations?.readOnlyHint === true,
            sideEffects: t.annotations?.readOnlyHint !== true,
          })),
          resources: facts.resources.length,
        };
      } catch (e) {
        if (!(e instanceof McpEnvironmentError)) throw e;
        if (e.problem.kind !== 'unreachable') return fail(e.problem.kind, e.message);
        // "Failed to fetch" says nothing in a page: down, or CORS? Two probes tell them apart.
        const advice = await diagnoseMcp(config.url, {
          ...config.headers,
          ...(token ? { Authorization: 'Bearer probe' } : {}),
        });
        return fail(advice.kind, `MCP server ${name}: ${advice.message}`);
      }
    },
  };
}
