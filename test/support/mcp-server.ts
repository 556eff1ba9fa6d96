/**
 * A real MCP server for tests (issue #31): the official SDK's own `Server` behind its
 * Streamable HTTP server transport, on 127.0.0.1, one SDK server per session. Tools and
 * resources are given by the test; each session keeps its own state (what a server keeps per
 * client), and the server keeps a log of every request. Faults a real server shows: a token it
 * requires (401), CORS that lets a page in or not, a protocol version the client does not speak,
 * a tool that never answers, and going down (every request's connection dropped).
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';

/** A session's own state: what this client's calls changed. */
export type SessionState = Record<string, unknown>;

export interface McpTestTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
  /** Answer a call; a throw becomes the JSON-RPC error the SDK server sends. A never-settling promise hangs. */
  handler(args: Record<string, unknown>, state: SessionState): CallToolResult | string | Promise<CallToolResult | string>;
}

export interface McpServerOptions {
  name: string;
  tools: McpTestTool[];
  resources: { uri: string; name: string; description?: string; text: string }[];
  /** Requests without `Authorization: Bearer <token>` (or the token as it is in `tokenHeader`) get a 401. */
  token?: string;
  /** The header the server takes its token in, as it is (GitLab's `Private-Token`). */
  tokenHeader?: string;
  /** echo: allow what the preflight asks and expose mcp-session-id; basic: only Content-Type and Authorization, nothing exposed; none: no CORS. */
  cors: 'echo' | 'basic' | 'none';
  /** Answer initialize with this protocol version instead of negotiating. */
  protocolVersion?: string;
  /** Drop the connection of every request (the server is down). */
  down: boolean;
  /** Go down by itself after this many tool calls (counted from now). */
  downAfterCalls?: number;
  port: number;
}

export interface McpLogEntry {
  method: string;
  session?: string;
  tool?: string;
  args?: Record<string, unknown>;
}

export interface McpTestServer {
  url: string;
  port: number;
  options: McpServerOptions;
  log: McpLogEntry[];
  /** The Authorization header of every request, as sent ('' when none): which tokens reached this server. */
  authSeen: string[];
  /** Sessions open now (initialised and not yet ended with DELETE). */
  openSessions(): number;
  set(partial: Partial<McpServerOptions>): void;
  close(): Promise<void>;
}

const asResult = (r: CallToolResult | string): CallToolResult => (typeof r === 'string' ? { content: [{ type: 'text', text: r }] } : r);

export async function startMcpServer(partial: Partial<McpServerOptions> & Pick<McpServerOptions, 'tools'>): Promise<McpTestServer> {
  const options: McpServerOptions = { name: 'test-mcp', resources: [], cors: 'echo', down: false, port: 0, ...partial };
  const log: McpLogEntry[] = [];
  const authSeen: string[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const sockets = new Set<Socket>();
  let callsLeft = options.downAfterCalls;

  const sdkServer = (state: SessionState, sid: () => string | undefined) => {
    const hasResources = options.resources.length > 0;
    const server = new Server({ name: options.name, version: '1.0.0' }, { capabilities: { tools: {}, ...(hasResources ? { resources: {} } : {}) } });
    server.setRequestHandler(ListToolsRequestSchema, async () => {
      log.push({ method: 'tools/list', session: sid() });
      return { tools: options.tools.map(({ handler: _h, ...t }) => t) } as never;
    });
    server.setRequestHandler(CallToolRequestSchema, async (req) => {
      const args = (req.params.arguments ?? {}) as Record<string, unknown>;
      log.push({ method: 'tools/call', session: sid(), tool: req.params.name, args });
      const tool = options.tools.find((t) => t.name === req.params.name);
      if (!tool) throw new Error(`unknown tool ${req.params.name}`);
      return asResult(await tool.handler(args, state));
    });
    if (hasResources) {
      server.setRequestHandler(ListResourcesRequestSchema, async () => {
        log.push({ method: 'resources/list', session: sid() });
        return { resources: options.resources.map(({ text: _t, ...r }) => ({ ...r, mimeType: 'text/markdown' })) };
      });
      server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
        log.push({ method: 'resources/read', session: sid(), args: { uri: req.params.uri } });
        const r = options.resources.find((x) => x.uri === req.params.uri);
        if (!r) throw new Error(`no resource ${req.params.uri}`);
        return { contents: [{ uri: r.uri, mimeType: 'text/markdown', text: r.text }] };
      });
    }
    return server;
  };

  const cors = (req: http.IncomingMessage): Record<string, string> =>
    options.cors === 'none'
      ? {}
      : {
          'Access-Control-Allow-Origin': '*',
          'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
          'Access-Control-Allow-Headers':
            options.cors === 'basic' ? 'content-type, authorization' : String(req.headers['access-control-request-headers'] ?? 'content-type'),
          ...(options.cors === 'echo' ? { 'Access-Control-Expose-Headers': 'mcp-session-id, mcp-protocol-version' } : {}),
        };

  const reply = (req: http.IncomingMessage, res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { ...cors(req), 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, raw: string) => {
    const body: unknown = raw ? JSON.parse(raw) : undefined;
    const message = body as { method?: string; id?: number } | undefined;
    if (message?.method === 'tools/call' && callsLeft !== undefined && callsLeft-- <= 0) options.down = true;
    if (options.down) return req.socket.destroy();
    authSeen.push(req.headers.authorization ?? '');
    const given = options.tokenHeader ? req.headers[options.tokenHeader.toLowerCase()] : req.headers.authorization;
    if (options.token !== undefined && given !== (options.tokenHeader ? options.token : `Bearer ${options.token}`))
      return reply(req, res, 401, { jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized: a valid bearer token is required' }, id: null });
    if (message?.method === 'initialize' && options.protocolVersion) {
      log.push({ method: 'initialize' });
      return reply(req, res, 200, {
        jsonrpc: '2.0',
        id: message.id,
        result: { protocolVersion: options.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: options.name, version: '0.1' } },
      });
    }
    for (const [k, v] of Object.entries(cors(req))) res.setHeader(k, v);
    const sid = req.headers['mcp-session-id'];
    let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
    if (!transport) {
      if (typeof sid === 'string' || message?.method !== 'initialize')
        return reply(req, res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
      log.push({ method: 'initialize' });
      const t: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => void transports.set(id, t),
        onsessionclosed: (id) => void transports.delete(id),
      });
      await sdkServer({}, () => t.sessionId).connect(t);
      transport = t;
    }
    await transport.handleRequest(req, res, body);
  };

  const server = http.createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      if (options.down) return req.socket.destroy();
      res.writeHead(204, cors(req));
      return res.end();
    }
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      handle(req, res, raw).catch((e: unknown) => {
        if (!res.headersSent) reply(req, res, 500, { jsonrpc: '2.0', error: { code: -32603, message: String(e) }, id: null });
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    options,
    log,
    authSeen,
    openSessions: () => transports.size,
    set(p) {
      Object.assign(options, p);
      if ('downAfterCalls' in p) callsLeft = p.downAfterCalls;
    },
    close: async () => {
      await Promise.all([...transports.values()].map((t) => t.close().catch(() => undefined)));
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
