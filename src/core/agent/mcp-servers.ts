/**
 * MCP servers as an agent's environment (issue #31), the pure part: how a server is named in a
 * config, which headers may be stored (never a secret: a token is held like an endpoint key —
 * the page's vault, the runner's `SKILLWRIGHT_MCP_<NAME>_TOKEN`), and how the servers' tools
 * become the agent's: names OpenAI accepts, prefixed by their server only where two collide,
 * and only the tools a server's `tools` list allows (tools with side effects are called for real).
 */
import type { ToolSpec } from './tool-spec';
import { isSecretHeader } from '../basics/secret-headers';

export interface McpServerConfig {
  /** The server's Streamable HTTP endpoint, e.g. https://mcp.example.com/mcp. */
  url: string;
  /** A short name: prefixes colliding tools and names the token's variable (default: from the URL's host). */
  name?: string;
  /** Headers sent with every request; never a credential (`isSecretHeader`). */
  headers?: Record<string, string>;
  /** The header the token goes in, as it is (e.g. "Private-Token"); default `Authorization: Bearer <token>`. */
  tokenHeader?: string;
  /** The tools the agent may use (default: every tool the server lists). */
  tools?: string[];
}

/**
 * A run's MCP servers (stored with the run, never a secret) and how their tools are called: a
 * tool call is not a model call, so it has its own concurrency and time limit.
 */
export interface McpSettings {
  servers: McpServerConfig[];
  /** Tool calls (and resource reads) under way at once, over all trajectories. */
  toolConcurrency: number;
  /** Seconds a server may take to answer one request before the run pauses. */
  timeoutSeconds: number;
}

export const MCP_DEFAULTS = { toolConcurrency: 4, timeoutSeconds: 60 } as const;

/** A run's MCP settings, every problem named; absent numbers take the defaults. */
export function readMcpSettings(raw: unknown): { settings?: McpSettings; problems: string[] } {
  if (!isRecord(raw)) return { problems: ['must be an object {servers, toolConcurrency?, timeoutSeconds?}'] };
  const { servers, problems } = readMcpServers(raw.servers);
  const n = (k: 'toolConcurrency' | 'timeoutSeconds', ok: (v: number) => boolean, what: string): number => {
    const v = raw[k] ?? MCP_DEFAULTS[k];
    if (typeof v === 'number' && ok(v)) return v;
    problems.push(`"${k}" must be ${what}`);
    return MCP_DEFAULTS[k];
  };
  const toolConcurrency = n(
    'toolConcurrency',
    (v) => Number.isInteger(v) && v >= 1 && v <= 64,
    'a whole number from 1 to 64',
  );
  const timeoutSeconds = n('timeoutSeconds', (v) => v > 0 && v <= 3600, 'a number of seconds above 0 (at most 3600)');
  if (!servers.length && !problems.length) problems.push('"servers" lists no server');
  return problems.length ? { problems } : { settings: { servers, toolConcurrency, timeoutSeconds }, problems };
}

/** An HTTP header name (RFC 9110 token characters). */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A server's name from its URL when none is given: "mcp.example.com" → "mcp_example_com". */
export function serverName(s: Pick<McpServerConfig, 'url' | 'name'>): string {
  if (s.name?.trim()) return s.name.trim();
  let host = s.url;
  try {
    host = new URL(s.url).host;
  } catch {
    // An unreadable URL is reported by readMcpServers; the name is only a fallback here.
  }
  return host.replace(/[^a-zA-Z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'mcp';
}

/** The environment variable the runner reads a server's token from: SKILLWRIGHT_MCP_SHOP_TOKEN. */
export function tokenVariable(name: string): string {
  return `SKILLWRIGHT_MCP_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_TOKEN`;
}

function urlOf(v: unknown): URL | null {
  try {
    return typeof v === 'string' ? new URL(v) : null;
  } catch {
    return null;
  }
}

/** A config's `mcp` list, every problem named by its entry (1-based) and field. */
export function readMcpServers(raw: unknown): { servers: McpServerConfig[]; problems: string[] } {
  if (!Array.isArray(raw)) return { servers: [], problems: ['must be a list of servers: [{"url": "https://…/mcp"}]'] };
  const servers: McpServerConfig[] = [];
  const problems: string[] = [];
  raw.forEach((s, i) => {
    const at = `server ${i + 1}`;
    if (!isRecord(s)) return problems.push(`${at} must be an object {url, name?, headers?, tools?, tokenHeader?}`);
    const known = ['url', 'name', 'headers', 'tools', 'tokenHeader'];
    for (const k of Object.keys(s)) if (!known.includes(k)) problems.push(`${at}: "${k}" is not a server setting`);
    const url = urlOf(s.url);
    if (!url || !/^https?:$/.test(url.protocol)) return problems.push(`${at}: "url" must be an http(s) address`);
    if (s.name !== undefined && (typeof s.name !== 'string' || !/^[a-zA-Z0-9_-]{1,32}$/.test(s.name)))
      problems.push(`${at}: "name" must be 1–32 letters, digits, "_" or "-"`);
    if (
      s.headers !== undefined &&
      !(isRecord(s.headers) && Object.values(s.headers).every((v) => typeof v === 'string'))
    )
      problems.push(`${at}: "headers" must map header names to text`);
    // The same rule as an endpoint's headers (issue #39 M6): a settings file is stored and shared.
    const secret = isRecord(s.headers) ? Object.keys(s.headers).find(isSecretHeader) : undefined;
    const name = serverName({ url: String(s.url), name: typeof s.name === 'string' ? s.name : undefined });
    if (secret)
      problems.push(
        `${at}: the header "${secret}" holds a secret and would be stored with the run; set ${tokenVariable(name)} (or the page's key field) instead${/^authorization$/i.test(secret) ? '' : `, with "tokenHeader": "${secret}"`}`,
      );
    if (s.tokenHeader !== undefined && !(typeof s.tokenHeader === 'string' && HEADER_NAME.test(s.tokenHeader)))
      problems.push(`${at}: "tokenHeader" must be a header name, e.g. "Private-Token"`);
    if (s.tools !== undefined && !(Array.isArray(s.tools) && s.tools.every((t) => typeof t === 'string' && t.trim())))
      problems.push(`${at}: "tools" must be a list of tool names`);
    servers.push({
      url: url.href,
      ...(typeof s.name === 'string' ? { name: s.name } : {}),
      ...(isRecord(s.headers) && !secret ? { headers: s.headers as Record<string, string> } : {}),
      ...(Array.isArray(s.tools) ? { tools: (s.tools as string[]).map((t) => t.trim()) } : {}),
      ...(typeof s.tokenHeader === 'string' && HEADER_NAME.test(s.tokenHeader) ? { tokenHeader: s.tokenHeader } : {}),
    });
  });
  const names = servers.map(serverName);
  names.forEach((n, i) => {
    if (names.indexOf(n) !== i)
      problems.push(`server ${i + 1}: the name "${n}" is taken by server ${names.indexOf(n) + 1}; give each a "name"`);
  });
  return { servers, problems };
}

/** A tool as a server lists it (MCP `tools/list`). */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  annotations?: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

/** A server's tool as the agent is offered it, and where a call to it goes. */
export interface OfferedTool {
  spec: ToolSpec;
  server: string;
  /** The tool's own name on its server. */
  remote: string;
}

/** A name OpenAI accepts: letters, digits, "_" and "-", at most 64. */
function wireName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 64) || 'tool';
}

/** Tools of a server offered when its settings list none (issue #39 L6: providers refuse about 128). */
export const MAX_UNLISTED_TOOLS = 64;
/** A tool's description as the agent is offered it, at most. */
export const MAX_TOOL_DESCRIPTION = 2048;

/**
 * The agent's tools from the servers' lists, in server order: each server's allowed tools (its
 * `tools` list; a name it does not list is reported), named as the server names them unless two
 * servers (or a name taken by `reserved`) collide — then `server__tool`. A server with no list
 * offers its first 64 tools (`notes` says so); every description is cut to 2 KB.
 */
export function offeredTools(
  lists: readonly { server: string; allowed?: readonly string[]; tools: readonly McpToolInfo[] }[],
  reserved: readonly string[] = [],
): { tools: OfferedTool[]; problems: string[]; notes: string[] } {
  const problems: string[] = [];
  const notes: string[] = [];
  const kept = lists.map((l) => {
    const allowed = l.allowed ? new Set(l.allowed) : null;
    for (const a of l.allowed ?? [])
      if (!l.tools.some((t) => t.name === a)) problems.push(`${l.server} lists no tool "${a}"`);
    if (!allowed && l.tools.length > MAX_UNLISTED_TOOLS)
      notes.push(
        `MCP server ${l.server} lists ${l.tools.length} tools: the agent is offered its first ${MAX_UNLISTED_TOOLS} — name the ones it may use in the server's "tools" list`,
      );
    const tools = allowed ? l.tools.filter((t) => allowed.has(t.name)) : l.tools.slice(0, MAX_UNLISTED_TOOLS);
    return { server: l.server, tools };
  });
  const count = new Map<string, number>();
  for (const l of kept) for (const t of l.tools) count.set(wireName(t.name), (count.get(wireName(t.name)) ?? 0) + 1);
  const tools: OfferedTool[] = [];
  const taken = new Set(reserved);
  for (const l of kept)
    for (const t of l.tools) {
      const plain = wireName(t.name);
      let name = count.get(plain)! > 1 || taken.has(plain) ? wireName(`${l.server}__${t.name}`) : plain;
      for (let k = 2; taken.has(name); k++) name = wireName(`${l.server}__${t.name}`).slice(0, 60) + `_${k}`;
      taken.add(name);
      const description = [t.title && t.title !== t.name ? t.title : '', t.description ?? '']
        .filter(Boolean)
        .join(': ')
        .slice(0, MAX_TOOL_DESCRIPTION);
      tools.push({
        server: l.server,
        remote: t.name,
        spec: {
          name,
          ...(description ? { description } : {}),
          parameters: isRecord(t.inputSchema) ? t.inputSchema : { type: 'object', properties: {} },
        },
      });
    }
  return { tools, problems, notes };
}

/** Does a server say this tool changes nothing? (MCP's hint; absent means it may.) */
export const isReadOnly = (t: McpToolInfo): boolean => t.annotations?.readOnlyHint === true;
