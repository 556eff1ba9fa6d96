/**
 * What went wrong with an MCP server, in words a person can act on (issue #31). A server that
 * cannot be reached, refuses the token, speaks another protocol version, times out or breaks
 * the connection is the environment's failure (the run pauses: `EnvironmentError`); a JSON-RPC
 * error the server sent back for a call is the tool's answer (the agent's problem).
 */
import { McpError, ErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';

export type McpProblemKind = 'unreachable' | 'unauthorized' | 'not_found' | 'protocol' | 'timeout' | 'server';

export interface McpProblem {
  kind: McpProblemKind;
  message: string;
}

const short = (s: string, n = 200) => (s.length > n ? `${s.slice(0, n)}…` : s);
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The server sent a JSON-RPC error for this request: an answer, not a failure to answer. */
export function isServerReply(e: unknown): e is McpError {
  return e instanceof McpError && e.code !== ErrorCode.RequestTimeout && e.code !== ErrorCode.ConnectionClosed;
}

/** Why a request to a server failed; `tokenHint` says where its token comes from (per host). */
export function mcpProblem(e: unknown, o: { timeoutMs: number; tokenHint: string }): McpProblem {
  if (e instanceof McpError && e.code === ErrorCode.RequestTimeout)
    return { kind: 'timeout', message: `did not answer within ${seconds(o.timeoutMs)} s` };
  if (e instanceof UnauthorizedError) return unauthorized(401, o.tokenHint);
  if (e instanceof StreamableHTTPError) {
    const code = e.code ?? 0;
    if (code === 401 || code === 403) return unauthorized(code, o.tokenHint);
    if (code === 404)
      return { kind: 'not_found', message: 'answered 404: no MCP endpoint at this URL (or it forgot the session)' };
    if (code === 405 || code === -1 || code === 406 || code === 415)
      return { kind: 'protocol', message: `does not speak MCP over Streamable HTTP here (${short(e.message)})` };
    return {
      kind: 'server',
      message: `answered HTTP ${code}: ${short(e.message.replace(/^Streamable HTTP error: /, ''))}`,
    };
  }
  const text = errorText(e);
  if (/protocol version is not supported/i.test(text))
    return {
      kind: 'protocol',
      message: `${text.replace(/^Server's /, 'its ')} (Skillwright speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
    };
  if (e instanceof McpError && e.code === ErrorCode.ConnectionClosed)
    return { kind: 'server', message: 'closed the connection' };
  if (e instanceof TypeError || /fetch failed|failed to fetch|ECONNREFUSED|network/i.test(text)) {
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    return { kind: 'unreachable', message: `could not be reached${cause ? ` (${cause})` : ''}` };
  }
  return { kind: 'server', message: short(text) };
}

function unauthorized(status: number, tokenHint: string): McpProblem {
  return {
    kind: 'unauthorized',
    message: `refused the request (HTTP ${status}): the token is missing or was rejected — ${tokenHint}`,
  };
}

function seconds(ms: number): string {
  return ms < 10_000 ? String(Math.round(ms / 100) / 10) : String(Math.round(ms / 1000));
}
