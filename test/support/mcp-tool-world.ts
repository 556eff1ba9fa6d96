/**
 * The parts desk (src/core/simulators/demo-tool-world.ts) served by a real MCP server (issue #31): its
 * `lookup` answers from the catalogue every item's declared result comes from, so a skill earns
 * the same through MCP as through declared tools; the dataset keeps its answers and expected
 * calls but declares no tools. Each session counts its lookups (a server's per-session state).
 */
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import type { RunDataset } from '../../src/engine/types';
import { LOOKUP_TOOL, toolWorldItems } from './tool-world';
import type { McpTestTool } from './mcp-server';

type DeskItem = { tool_results: { arguments: { code: string }; result: string }[] } & Record<string, unknown>;

/** The catalogue: part number → entry. */
export function catalogue(n = 60): Map<string, string> {
  const items = toolWorldItems(n) as DeskItem[];
  return new Map(items.map((i) => [i.tool_results[0].arguments.code, i.tool_results[0].result]));
}

/** `lookup` over the catalogue; an unknown code is answered as the declared tools answer it. */
export function lookupTool(n = 60): McpTestTool {
  const entries = catalogue(n);
  return {
    name: 'lookup',
    description: LOOKUP_TOOL.function.description,
    inputSchema: LOOKUP_TOOL.function.parameters,
    annotations: { readOnlyHint: true },
    handler: (args, state) => {
      state.lookups = Number(state.lookups ?? 0) + 1;
      return entries.get(String(args.code)) ?? 'no result for these arguments';
    },
  };
}

/** The desk's items without declared tools: the tools come from the MCP server. */
export function mcpDeskData(n = 30): RunDataset {
  const items = toolWorldItems(n).map(({ tool_results: _r, ...rest }) => rest);
  const r = importDatasetText(JSON.stringify(items));
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return { items: r.dataset.items, splits: r.dataset.splits };
}
