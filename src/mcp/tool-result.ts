/**
 * An MCP tool result as the agent reads it (issue #31): the text blocks, else the structured
 * content as JSON; images, audio and binary resources named, not pasted; `isError` marks the
 * tool's failure (the agent's problem, as a module's tool that throws).
 */
import type { ToolOutcome } from '../engine/environment';

/** The parts of an MCP content block this reads (the SDK's CallToolResult, structurally). */
interface Block {
  type: string;
  text?: string;
  mimeType?: string;
  data?: string;
  uri?: string;
  name?: string;
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string };
}

export interface McpCallResult {
  content?: readonly Block[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** Bytes of base64 data, for a short description. */
const size = (b64 = '') => {
  const n = Math.floor((b64.length * 3) / 4);
  return n >= 1024 ? `${Math.round(n / 1024)} kB` : `${n} bytes`;
};

function blockText(b: Block): string {
  switch (b.type) {
    case 'text':
      return b.text ?? '';
    case 'image':
    case 'audio':
      return `[${b.type}: ${b.mimeType ?? 'unknown type'}, ${size(b.data)}]`;
    case 'resource_link':
      return `[resource: ${b.uri ?? ''}${b.name ? ` (${b.name})` : ''}]`;
    case 'resource':
      return (
        b.resource?.text ??
        `[resource: ${b.resource?.uri ?? ''}, ${b.resource?.mimeType ?? 'binary'}, ${size(b.resource?.blob)}]`
      );
    default:
      return `[${b.type} content]`;
  }
}

export function toolOutcome(r: McpCallResult): ToolOutcome {
  const blocks = (r.content ?? []).map(blockText).filter((t) => t !== '');
  const text = blocks.length
    ? blocks.join('\n')
    : r.structuredContent !== undefined
      ? JSON.stringify(r.structuredContent)
      : '(the tool returned no content)';
  return r.isError ? { result: text, error: true } : { result: text };
}

/** A resource's contents as text (resources/read): each text part, binary parts named. */
export function resourceText(
  contents: readonly { uri: string; mimeType?: string; text?: string; blob?: string }[],
): string {
  if (!contents.length) return '(the resource is empty)';
  return contents.map((c) => c.text ?? `[${c.uri}: ${c.mimeType ?? 'binary'}, ${size(c.blob)}]`).join('\n');
}
