/**
 * An MCP server's resources offered to the agent as one tool, `read_resource` (issue #31): its
 * description lists the resources (the first ones, when a server has many), its argument is the
 * URI. The engine's `read_file` reads the skill's own files; this reads the servers'.
 */
import type { ToolSpec } from '../core/agent/tool-spec';
import type { McpResourceInfo } from './mcp-session';

export const READ_RESOURCE = {
  name: 'read_resource',
  hint: 'the resources are listed in the description of read_resource',
  /** Resources listed in the tool's description, at most. */
  listed: 40,
} as const;

export function readResourceTool(resources: readonly McpResourceInfo[], taken: readonly string[]): ToolSpec {
  const lines = resources.slice(0, READ_RESOURCE.listed).map((r) => {
    const about = [r.name && r.name !== r.uri ? r.name : '', r.description ?? ''].filter(Boolean).join(': ');
    return `- ${r.uri}${about ? ` — ${about.replace(/\s+/g, ' ').slice(0, 160)}` : ''}`;
  });
  const more = resources.length > READ_RESOURCE.listed ? [`(and ${resources.length - READ_RESOURCE.listed} more)`] : [];
  return {
    name: taken.includes(READ_RESOURCE.name) ? `mcp_${READ_RESOURCE.name}` : READ_RESOURCE.name,
    description: ['Read a resource of the MCP server by its URI. The resources:', ...lines, ...more].join('\n'),
    parameters: {
      type: 'object',
      properties: { uri: { type: 'string', description: 'The resource URI, as listed.' } },
      required: ['uri'],
    },
  };
}
