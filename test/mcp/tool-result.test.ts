import { describe, expect, it } from 'vitest';
import { resourceText, toolOutcome } from '../../src/mcp/tool-result';

describe('an MCP tool result as the agent reads it (issue #31)', () => {
  it('joins text, names what it cannot show, falls back to structured content, and marks errors', () => {
    expect(toolOutcome({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] })).toEqual({ result: 'a\nb' });
    expect(
      toolOutcome({
        content: [
          { type: 'image', mimeType: 'image/png', data: 'A'.repeat(4096) },
          { type: 'resource_link', uri: 'file:///x.md', name: 'x' },
          { type: 'resource', resource: { uri: 'docs://y', text: 'inline' } },
          { type: 'resource', resource: { uri: 'docs://z', mimeType: 'application/pdf', blob: 'AAAA' } },
        ],
      }),
    ).toEqual({ result: '[image: image/png, 3 kB]\n[resource: file:///x.md (x)]\ninline\n[resource: docs://z, application/pdf, 3 bytes]' });
    expect(toolOutcome({ content: [], structuredContent: { n: 1 } })).toEqual({ result: '{"n":1}' });
    expect(toolOutcome({ content: [{ type: 'text', text: 'n is 1' }], structuredContent: { n: 1 } })).toEqual({ result: 'n is 1' });
    expect(toolOutcome({ content: [] })).toEqual({ result: '(the tool returned no content)' });
    expect(toolOutcome({ content: [{ type: 'text', text: 'locked' }], isError: true })).toEqual({ result: 'locked', error: true });
  });

  it('reads a resource’s parts as text', () => {
    expect(resourceText([{ uri: 'a', text: 'one' }, { uri: 'b', mimeType: 'image/png', blob: 'AAAA' }])).toBe('one\n[b: image/png, 3 bytes]');
    expect(resourceText([])).toBe('(the resource is empty)');
  });
});
