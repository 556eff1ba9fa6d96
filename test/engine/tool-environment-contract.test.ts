// The tool-environment contract suite (test/support/tool-environment-contract.ts) over the three
// places a tool's answers come from: the dataset's declared results, an environment module (served
// as the runner serves it) and an MCP server — each serving the parts desk's one catalogue.
import { afterAll, beforeAll } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { startMcpServer, type McpTestServer } from '../support/mcp-server';
import { catalogue, lookupTool, mcpDeskData } from '../support/mcp-tool-world';
import { LOOKUP_TOOL, toolWorldPolicy } from '../support/tool-world';
import { declaredDesk, toolEnvironmentContract } from '../support/tool-environment-contract';
import { loadEnvironmentModule } from '../../src/cli/module-loader';
import { connectMcpEnvironment } from '../../src/mcp/mcp-environment';

let llm: LlmTestServer;
const servers: McpTestServer[] = [];
beforeAll(async () => {
  llm = await startLlmServer({ agentPolicy: toolWorldPolicy });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await llm.close();
});
const llmUrl = () => llm.url;

toolEnvironmentContract('declared results', llmUrl, { desk: async () => ({ data: declaredDesk() }), failing: null });

const dir = mkdtempSync(join(tmpdir(), 'sw-desk-module-'));
async function moduleDesk(failing: boolean) {
  const path = join(dir, failing ? 'failing-desk.mjs' : 'desk.mjs');
  writeFileSync(
    path,
    `const CATALOGUE = ${JSON.stringify(Object.fromEntries(catalogue()))};
export default {
  name: 'desk',
  tools: [${JSON.stringify(LOOKUP_TOOL)}],
  reset() { return { lookups: 0 }; },
  call(name, args, state) {
    state.lookups++;
    if (${failing} && String(args.code) === '103') throw new Error('the catalogue is locked for part 103');
    return CATALOGUE[String(args.code)] ?? 'no result for these arguments';
  },
};
`,
  );
  return { data: mcpDeskData(), environment: (await loadEnvironmentModule(path, 10)).environment };
}
toolEnvironmentContract('an environment module', llmUrl, { desk: () => moduleDesk(false), failing: () => moduleDesk(true) });

async function mcpDesk(failing: boolean) {
  const tool = lookupTool();
  const handler = tool.handler;
  const server = await startMcpServer({
    tools: [
      {
        ...tool,
        handler: (args, state) => {
          if (failing && String(args.code) === '103') throw new Error('the catalogue is locked for part 103');
          return handler(args, state);
        },
      },
    ],
  });
  servers.push(server);
  const link = { config: { url: server.url }, name: server.options.name, tokenHint: '' };
  return { data: mcpDeskData(), environment: await connectMcpEnvironment([link], { timeoutMs: 5000, concurrency: 2 }) };
}
toolEnvironmentContract('an MCP server', llmUrl, { desk: () => mcpDesk(false), failing: () => mcpDesk(true) });
