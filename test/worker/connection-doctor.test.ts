// The connection doctor (issue #11): the cause of a failed browser call, and its fix per provider.
import { describe, expect, it } from 'vitest';
import { adviseConnection, adviseMcp, diagnoseMcp, diagnoseUnreachable } from '../../src/worker/connection-doctor';

const base = { reachable: true, basicCorsOk: false, pageOrigin: 'https://skillwright.example' };

describe('connection doctor', () => {
  it('mixed content: an http endpoint from an https page (localhost excepted)', () => {
    expect(adviseConnection({ ...base, baseURL: 'http://llm.lan:8080/v1' }).kind).toBe('mixed_content');
    expect(adviseConnection({ ...base, baseURL: 'http://localhost:11434/v1' }).kind).not.toBe('mixed_content');
  });

  it('Anthropic without its browser header', () => {
    const a = adviseConnection({ ...base, baseURL: 'https://api.anthropic.com/v1' });
    expect(a).toMatchObject({ kind: 'anthropic_header' });
    expect(a.message).toMatch(/anthropic-dangerous-direct-browser-access: true/);
    expect(adviseConnection({ ...base, baseURL: 'https://api.anthropic.com/v1', headers: { 'anthropic-dangerous-direct-browser-access': 'true' } }).kind).toBe('cors');
  });

  it('nothing listening: local servers get the local-network hint', () => {
    expect(adviseConnection({ ...base, reachable: false, baseURL: 'http://localhost:11434/v1' })).toMatchObject({ kind: 'local_unreachable', message: expect.stringMatching(/local network/) });
    expect(adviseConnection({ ...base, reachable: false, baseURL: 'https://api.example.com/v1' }).kind).toBe('unreachable');
  });

  it('a preflight that refuses the SDK headers: minimal headers; once they are on, it is plain CORS', () => {
    expect(adviseConnection({ ...base, basicCorsOk: true, baseURL: 'https://proxy.example/v1' })).toMatchObject({ kind: 'cors_headers', message: expect.stringMatching(/Minimal headers/) });
    expect(adviseConnection({ ...base, basicCorsOk: true, minimalHeaders: true, baseURL: 'https://proxy.example/v1' }).kind).toBe('cors');
  });

  it('CORS refused: the fix per provider', () => {
    const fix = (url: string) => adviseConnection({ ...base, baseURL: url }).message;
    expect(fix('http://localhost:11434/v1')).toMatch(/OLLAMA_ORIGINS="https:\/\/skillwright\.example"/);
    expect(fix('http://localhost:1234/v1')).toMatch(/Enable CORS/);
    expect(fix('http://localhost:8000/v1')).toMatch(/--allowed-origins/);
    expect(fix('http://127.0.0.1:8080/v1')).toMatch(/llama-server with --cors-origins "https:\/\/skillwright\.example"/);
    expect(fix('https://x.openai.azure.com/openai/v1')).toMatch(/API Management/);
    expect(fix('https://api.mistral.ai/v1')).toMatch(/proxy you control/);
    expect(fix('https://llm.example/v1')).toMatch(/does not allow requests from this page \(CORS\).*Access-Control-Allow-Origin/);
  });

  it('probes: an opaque request first, then one with only the basic headers', async () => {
    const seen: { mode?: string; headers: string[] }[] = [];
    const fake = (ok: (mode?: string) => boolean): typeof fetch =>
      (async (_url: RequestInfo | URL, init?: RequestInit) => {
        seen.push({ mode: init?.mode, headers: Object.keys((init?.headers as Record<string, string>) ?? {}) });
        if (!ok(init?.mode)) throw new TypeError('Failed to fetch');
        return new Response('{}');
      }) as typeof fetch;
    const cfg = { baseURL: 'https://proxy.example/v1/', apiKey: 'k' };
    expect((await diagnoseUnreachable(cfg, fake(() => true), 'https://a.example')).kind).toBe('cors_headers');
    expect(seen).toEqual([{ mode: 'no-cors', headers: [] }, { mode: undefined, headers: ['Authorization'] }]);
    expect((await diagnoseUnreachable(cfg, fake((m) => m === 'no-cors'), 'https://a.example')).kind).toBe('cors');
    expect((await diagnoseUnreachable(cfg, fake(() => false), 'https://a.example')).kind).toBe('unreachable');
  });
});

describe('the doctor for MCP servers (issue #31)', () => {
  const url = 'https://mcp.example.com/mcp';
  it('tells down from CORS, and names MCP’s headers and each SDK’s fix', () => {
    expect(adviseMcp({ url, reachable: false, mcpCorsOk: null }).kind).toBe('unreachable');
    expect(adviseMcp({ url: 'http://127.0.0.1:3000/mcp', reachable: false, mcpCorsOk: null }).kind).toBe('local_unreachable');
    expect(adviseMcp({ url: 'http://mcp.example.com/mcp', pageOrigin: 'https://app.example', reachable: true, mcpCorsOk: false }).kind).toBe('mixed_content');
    const cors = adviseMcp({ url, pageOrigin: 'https://app.example', reachable: true, mcpCorsOk: false });
    expect(cors.kind).toBe('cors');
    for (const h of ['Mcp-Session-Id', 'Mcp-Protocol-Version', 'Authorization', 'Last-Event-ID'])
      expect(cors.message).toContain(h);
    expect(cors.message).toContain('exposedHeaders: ["Mcp-Session-Id"]');
    expect(cors.message).toContain('expose_headers=["Mcp-Session-Id"]');
    expect(cors.message).toContain('allow the origin https://app.example');
    expect(adviseMcp({ url, reachable: true, mcpCorsOk: true }).kind).toBe('cors_headers');
  });

  it('probes with the headers every MCP request carries', async () => {
    const seen: RequestInit[] = [];
    const fake = (async (_u: string, init: RequestInit) => {
      seen.push(init);
      if (init.mode !== 'no-cors') throw new TypeError('Failed to fetch');
      return new Response(null);
    }) as typeof fetch;
    const advice = await diagnoseMcp(url, { Authorization: 'Bearer probe' }, fake, 'https://app.example');
    expect(advice.kind).toBe('cors');
    expect(seen[1].headers).toMatchObject({ 'Mcp-Protocol-Version': '2025-06-18', Authorization: 'Bearer probe', Accept: 'application/json, text/event-stream' });
  });
});
