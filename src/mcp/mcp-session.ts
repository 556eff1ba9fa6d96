/**
 * One session with one MCP server over Streamable HTTP, through the official SDK's client
 * (issue #31). Every request has the environment's time limit; a failure to answer becomes an
 * `EnvironmentError` naming the server and what to do, so the run pauses instead of scoring it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { McpServerConfig, McpToolInfo } from '../core/agent/mcp-servers';
import { EnvironmentError, type ToolOutcome } from '../engine/environment';
import { isServerReply, mcpProblem, type McpProblem } from './mcp-errors';
import { resourceText, toolOutcome, type McpCallResult } from './tool-result';

/** A server as a host hands it over: its config, its name, and its token when it has one. */
export interface ServerLink {
  config: McpServerConfig;
  name: string;
  token?: string;
  /** Where the token comes from, for a 401's advice ("set SKILLWRIGHT_MCP_SHOP_TOKEN"). */
  tokenHint: string;
}

export interface SessionOptions {
  timeoutMs: number;
  fetch?: typeof fetch;
}

export interface McpResourceInfo {
  uri: string;
  name?: string;
  description?: string;
  mimeType?: string;
}

/**
 * The agent reads what the server returned: structured content that breaks the tool's own
 * output schema is still the server's answer, so it is not checked here (and no schema is
 * compiled with eval, which a page's content security policy may forbid).
 */
const ACCEPT_ANY: jsonSchemaValidator = {
  getValidator: () => (input: unknown) => ({ valid: true, data: input as never, errorMessage: undefined }),
};

/**
 * The client's GET for a server-initiated event stream, answered here with 405 ("no stream"),
 * which the protocol allows: a trajectory's tool calls need nothing the server would push, and a
 * stream held open per session would use up a browser's six connections to the server's host.
 */
function withoutEventStream(f: typeof fetch): typeof fetch {
  return (input, init) =>
    (init?.method ?? 'GET').toUpperCase() === 'GET'
      ? Promise.resolve(new Response(null, { status: 405, statusText: 'Method Not Allowed' }))
      : f(input, init);
}

/** At most this many pages of a list (tools, resources) are read. */
const MAX_PAGES = 20;

export class McpSession {
  private constructor(
    private readonly link: ServerLink,
    private readonly o: SessionOptions,
    private readonly client: Client,
    private readonly transport: StreamableHTTPClientTransport,
  ) {}

  /** Connect and initialise; throws EnvironmentError (with `problem`) when the server cannot be used. */
  static async open(link: ServerLink, o: SessionOptions): Promise<McpSession> {
    // The token as Bearer, or as it is in the header the server takes it in (e.g. GitLab's Private-Token).
    const auth = link.config.tokenHeader
      ? { [link.config.tokenHeader]: link.token ?? '' }
      : { Authorization: `Bearer ${link.token ?? ''}` };
    const headers = { ...link.config.headers, ...(link.token ? auth : {}) };
    const transport = new StreamableHTTPClientTransport(new URL(link.config.url), {
      requestInit: { headers },
      fetch: withoutEventStream(o.fetch ?? globalThis.fetch.bind(globalThis)),
      // A broken stream is a failed request here (the run pauses): no reconnection in the background.
      reconnectionOptions: {
        maxRetries: 0,
        initialReconnectionDelay: 1000,
        maxReconnectionDelay: 1000,
        reconnectionDelayGrowFactor: 1,
      },
    });
    const client = new Client({ name: 'skillwright', version: '1' }, { jsonSchemaValidator: ACCEPT_ANY });
    // Errors of the background stream surface through the request they break; do not log them.
    client.onerror = () => {};
    const session = new McpSession(link, o, client, transport);
    await session.guard('connecting', () => client.connect(transport, { timeout: o.timeoutMs }));
    return session;
  }

  get serverInfo(): { name: string; version: string } | undefined {
    return this.client.getServerVersion();
  }

  get hasResources(): boolean {
    return Boolean(this.client.getServerCapabilities()?.resources);
  }

  get hasTools(): boolean {
    return Boolean(this.client.getServerCapabilities()?.tools);
  }

  async listTools(): Promise<McpToolInfo[]> {
    return this.pages('listing its tools', async (o) => {
      const r = await this.client.listTools(o, { timeout: this.o.timeoutMs });
      return { items: r.tools as McpToolInfo[], nextCursor: r.nextCursor };
    });
  }

  async listResources(): Promise<McpResourceInfo[]> {
    return this.pages('listing its resources', async (o) => {
      const r = await this.client.listResources(o, { timeout: this.o.timeoutMs });
      return { items: r.resources, nextCursor: r.nextCursor };
    });
  }

  /** A paginated list, page by page as the server's cursors lead, at most MAX_PAGES pages. */
  private async pages<T>(
    what: string,
    page: (o: { cursor?: string }) => Promise<{ items: T[]; nextCursor?: string }>,
  ): Promise<T[]> {
    const out: T[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < MAX_PAGES; n++) {
      const r = await this.guard(what, () => page(cursor ? { cursor } : {}));
      out.push(...r.items);
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    return out;
  }

  /** A tool call: the server's answer (its errors included) as a tool result. */
  async call(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
    return this.answer(`its call to ${name}`, async () =>
      toolOutcome(
        (await this.client.callTool({ name, arguments: args }, undefined, {
          timeout: this.o.timeoutMs,
        })) as McpCallResult,
      ),
    );
  }

  async readResource(uri: string): Promise<ToolOutcome> {
    return this.answer(`reading ${uri}`, async () => ({
      result: resourceText((await this.client.readResource({ uri }, { timeout: this.o.timeoutMs })).contents),
    }));
  }

  /** End the session on the server (DELETE) and close the connection; never throws. */
  async close(): Promise<void> {
    await this.transport.terminateSession().catch(() => undefined);
    await this.client.close().catch(() => undefined);
  }

  /** A request whose JSON-RPC error is an answer for the agent; any other failure is the server's. */
  private async answer(what: string, fn: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
    try {
      const out = await fn();
      return { ...out, result: this.redacted(out.result) };
    } catch (e) {
      if (isServerReply(e))
        return { result: this.redacted(`Error: ${e.message.replace(/^MCP error -?\d+: /, '')}`), error: true };
      throw this.failure(what, e);
    }
  }

  private async guard<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw this.failure(what, e);
    }
  }

  private failure(what: string, e: unknown): McpEnvironmentError {
    const found = mcpProblem(e, { timeoutMs: this.o.timeoutMs, tokenHint: this.link.tokenHint });
    const p = { ...found, message: this.redacted(found.message, true) };
    return new McpEnvironmentError(`MCP server ${this.link.name} (${this.link.config.url}), ${what}: ${p.message}`, p);
  }

  /**
   * A server's text without its token (issue #39 L1): a server that echoes the request's headers
   * would otherwise put the token on the terminal, in --json and in the run's trajectories. In a
   * failure's words, any credential after Bearer, Basic or Token goes too.
   */
  private redacted(text: string, anyCredential = false): string {
    const token = this.link.token;
    const out = token && token.length >= 4 ? text.split(token).join('[redacted]') : text;
    return anyCredential ? out.replace(/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/g, '$1 [redacted]') : out;
  }
}

/** An environment failure that also says which kind of problem it is (for Test MCP server). */
export class McpEnvironmentError extends EnvironmentError {
  constructor(
    message: string,
    readonly problem: McpProblem,
  ) {
    super(message);
  }
}
