/**
 * The agentic rule world (agentic-world.ts) served as a real MCP server (issue #31): its four
 * tools (lookup, convert, search_orders, refund) come from the SDK's own server over HTTP, not
 * from the dataset. The server holds the world's data — the parts catalogue, the conversions, the
 * customers' orders — as the union of every item's declared results, so any call is answered as
 * the item's declared tools would answer it (an unknown call: "no result for these arguments"),
 * and held-out, replayed offline (agentic-episode.ts), measures the same thing. Refunds are the
 * server's state, per session: an order refunded twice is refused the second time.
 */
import { declaredResult } from '../../src/core/agent/declarative-tools';
import type { ToolResultRule } from '../../src/core/agent/agent-item';
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import type { RunDataset } from '../../src/engine/types';
import { AGENTIC_TOOLS, makeAgenticItems, type AgenticItem } from './agentic-world';
import type { McpTestTool } from './mcp-server';

/** The world's tools as an MCP server offers them, answering from every item's results. */
export function agenticMcpTools(items: readonly AgenticItem[] = makeAgenticItems()): McpTestTool[] {
  const rules: ToolResultRule[] = items.flatMap((i) => i.tool_results);
  return AGENTIC_TOOLS.map(({ function: f }) => ({
    name: f.name,
    description: f.description,
    inputSchema: f.parameters,
    annotations: f.name === 'refund' ? { destructiveHint: true } : { readOnlyHint: true },
    handler: (args, state) => {
      if (f.name === 'refund') {
        const done = (state.refunded ??= []) as string[];
        if (done.includes(String(args.order))) return { content: [{ type: 'text', text: `order ${String(args.order)} was already refunded` }], isError: true };
        done.push(String(args.order));
      }
      return declaredResult(rules, f.name, args);
    },
  }));
}

/** The world's dataset file without its tools: answers and expected or forbidden calls only, in its splits. */
export function mcpAgenticDatasetText(items: readonly AgenticItem[] = makeAgenticItems()): string {
  const strip = ({ split: _s, kind: _k, tool_results: _r, ...rest }: AgenticItem) => rest;
  const of = (s: AgenticItem['split']) => items.filter((x) => x.split === s).map(strip);
  return JSON.stringify({ train: of('train'), val: of('val'), test: of('test') });
}

/** The world's dataset without its tools, as a run reads it. */
export function mcpAgenticDataset(items: readonly AgenticItem[] = makeAgenticItems()): RunDataset {
  const r = importDatasetText(mcpAgenticDatasetText(items));
  if (!r.ok) throw new Error(`MCP agentic dataset invalid: ${JSON.stringify(r.problems)}`);
  return { items: r.dataset.items, splits: r.dataset.splits };
}
