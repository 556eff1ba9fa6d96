import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { offeredTools, readMcpServers, serverName, tokenVariable } from '../../../src/core/agent/mcp-servers';

const tool = (name: string) => ({ name, inputSchema: { type: 'object', properties: {} } });

describe('MCP server settings (issue #31)', () => {
  it('reads servers and names every problem by entry and field', () => {
    expect(readMcpServers([{ url: 'https://mcp.example.com/mcp', name: 'shop', headers: { 'X-Tenant': 'a' }, tools: ['lookup'] }])).toEqual({
      servers: [{ url: 'https://mcp.example.com/mcp', name: 'shop', headers: { 'X-Tenant': 'a' }, tools: ['lookup'] }],
      problems: [],
    });
    expect(readMcpServers({ url: 'x' }).problems).toEqual(['must be a list of servers: [{"url": "https://…/mcp"}]']);
    const r = readMcpServers([
      { url: 'ftp://x' },
      { url: 'http://a/mcp', name: 'has space', tools: 'lookup', headers: { X: 1 }, extra: true },
      { url: 'http://b/mcp', name: 'b', headers: { Authorization: 'Bearer abc' } },
    ]);
    expect(r.problems).toEqual([
      'server 1: "url" must be an http(s) address',
      'server 2: "extra" is not a server setting',
      'server 2: "name" must be 1–32 letters, digits, "_" or "-"',
      'server 2: "headers" must map header names to text',
      'server 2: "tools" must be a list of tool names',
      'server 3: the header "Authorization" holds a secret and would be stored with the run; set SKILLWRIGHT_MCP_B_TOKEN (or the page\'s key field) instead',
    ]);
    // The secret itself is never kept, even in a config that is refused.
    expect(JSON.stringify(r.servers)).not.toContain('Bearer abc');
  });

  it('refuses any header that carries a credential, as an endpoint’s are, and takes a token header’s name instead (issue #39 M6)', () => {
    const r = readMcpServers([{ url: 'http://a/mcp', name: 'desk', headers: { 'X-Auth-Token': 'hdr-1', 'Private-Token': 'glpat-2', 'X-Tenant': 't' } }]);
    expect(r.problems).toEqual([
      'server 1: the header "X-Auth-Token" holds a secret and would be stored with the run; set SKILLWRIGHT_MCP_DESK_TOKEN (or the page\'s key field) instead, with "tokenHeader": "X-Auth-Token"',
    ]);
    expect(JSON.stringify(r.servers)).not.toMatch(/hdr-1|glpat-2/);
    for (const h of ['Cookie', 'X-Api-Key', 'Session-Id', 'X-Password', 'client-secret'])
      expect(readMcpServers([{ url: 'http://a/mcp', headers: { [h]: 'v' } }]).problems, h).toHaveLength(1);
    expect(readMcpServers([{ url: 'http://a/mcp', tokenHeader: 'Private-Token' }])).toEqual({
      servers: [{ url: 'http://a/mcp', tokenHeader: 'Private-Token' }],
      problems: [],
    });
    expect(readMcpServers([{ url: 'http://a/mcp', tokenHeader: 'Bad Header: x' }]).problems).toEqual([
      'server 1: "tokenHeader" must be a header name, e.g. "Private-Token"',
    ]);
  });

  it('names servers from their host, refuses two of one name, and gives each its token variable', () => {
    expect(serverName({ url: 'https://mcp.example.com:8443/mcp' })).toBe('mcp_example_com_8443');
    expect(serverName({ url: 'http://x/mcp', name: ' shop ' })).toBe('shop');
    expect(tokenVariable('shop-eu')).toBe('SKILLWRIGHT_MCP_SHOP_EU_TOKEN');
    expect(readMcpServers([{ url: 'http://a/mcp' }, { url: 'http://a/other' }]).problems).toEqual([
      'server 2: the name "a" is taken by server 1; give each a "name"',
    ]);
  });

  it('offers the allowed tools, prefixing only the names that collide', () => {
    const r = offeredTools(
      [
        { server: 'a', allowed: ['lookup', 'search', 'gone'], tools: [tool('lookup'), tool('search'), tool('refund')] },
        { server: 'b', tools: [tool('lookup'), tool('read_file'), tool('files.list')] },
      ],
      ['read_file'],
    );
    expect(r.tools.map((t) => [t.spec.name, t.server, t.remote])).toEqual([
      ['a__lookup', 'a', 'lookup'],
      ['search', 'a', 'search'],
      ['b__lookup', 'b', 'lookup'],
      ['b__read_file', 'b', 'read_file'],
      ['files_list', 'b', 'files.list'],
    ]);
    expect(r.problems).toEqual(['a lists no tool "gone"']);
  });

  it('offers a server with no tools list its first 64 tools, saying so, and cuts every description to 2 KB (issue #39 L6)', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({ ...tool(`t${i}`), description: 'd'.repeat(5_000) }));
    const r = offeredTools([{ server: 'big', tools: many }, { server: 'listed', allowed: ['t70'], tools: many }]);
    expect(r.tools.filter((t) => t.server === 'big')).toHaveLength(64);
    expect(r.tools.filter((t) => t.server === 'listed').map((t) => t.remote)).toEqual(['t70']);
    expect(r.tools.every((t) => (t.spec.description ?? '').length === 2048)).toBe(true);
    expect(r.notes).toEqual([
      'MCP server big lists 20000 tools: the agent is offered its first 64 — name the ones it may use in the server\'s "tools" list',
    ]);
    expect(r.problems).toEqual([]);
  });

  it('always gives distinct names OpenAI accepts, whatever the servers call their tools', () => {
    const name = fc.string({ minLength: 1, maxLength: 80 });
    fc.assert(
      fc.property(fc.array(fc.array(name, { maxLength: 6 }), { minLength: 1, maxLength: 4 }), (lists) => {
        const r = offeredTools(lists.map((names, i) => ({ server: `s${i}`, tools: [...new Set(names)].map(tool) })));
        const names = r.tools.map((t) => t.spec.name);
        expect(new Set(names).size).toBe(names.length);
        for (const n of names) expect(n).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      }),
    );
  });
});
