/**
 * The MCP world in `npm run bench:quality` (issue #31): the agentic world (bench-agentic.ts) with
 * its tools served by a real MCP server over HTTP on 127.0.0.1 (mcp-agentic-world.ts), reached
 * through the SDK's client as the page and the runner reach one (src/mcp). Same agent, same
 * noise (5 % / 3 % per action), same analyst; the dataset declares no tools. Held-out replays
 * the kept skill offline against the declared world, whose answers the server gives.
 */
import type { RunConfig } from '../../src/core/config/run-config';
import { connectMcpEnvironment } from '../../src/mcp/mcp-environment';
import { agenticSetup, trainAgentic, type AgenticSeedResult } from './bench-agentic';
import type { SeedOptions, SeedSetup } from './bench-quality';
import { agenticMcpTools, mcpAgenticDataset } from './mcp-agentic-world';
import { startMcpServer } from './mcp-server';

export const MCP_WORLDS = ['mcp-agentic'] as const;
export type McpWorld = (typeof MCP_WORLDS)[number];

export function mcpSetup(noise = 1): SeedSetup {
  const declared = agenticSetup('agentic', noise);
  return {
    ...declared,
    data: mcpAgenticDataset(),
    environment: async () => {
      const server = await startMcpServer({ name: 'desk', tools: agenticMcpTools() });
      const link = { config: { url: server.url }, name: 'desk', tokenHint: '' };
      const environment = await connectMcpEnvironment([link], { timeoutMs: 10_000, concurrency: 4 });
      return { environment, close: () => server.close() };
    },
  };
}

export function mcpSeed(world: McpWorld, seed: number, knobs: Partial<RunConfig>, opts: SeedOptions = {}): Promise<AgenticSeedResult> {
  return trainAgentic(world, mcpSetup(opts.noise ?? 1), seed, knobs, opts);
}
