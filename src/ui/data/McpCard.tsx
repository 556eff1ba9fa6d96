import { useState } from 'react';
import { MCP_DEFAULTS, serverName, type McpServerConfig } from '../../core/agent/mcp-servers';
import { trainer } from '../../client/trainer-client';
import { setApp, useApp } from '../../store/app-store';
import type { McpServerReport } from '../../worker/api-types';
import { Alert, Card, TextField } from '../common/Field';
import { McpKnobs } from './McpKnobs';
import { McpToolPicker } from './McpToolPicker';

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** What each problem of Test MCP server is called, in the alert's heading. */
const PROBLEMS: Record<string, string> = {
  unauthorized: 'The server refused the token (401)',
  cors: 'The server does not let this page in (CORS)',
  cors_headers: "The server's CORS lets this page in only part of the way",
  unreachable: 'Nothing answers there',
  local_unreachable: 'Nothing answers there',
  mixed_content: 'Blocked: http:// from an https:// page',
  protocol: 'Not an MCP endpoint this page can speak to',
  not_found: 'No MCP endpoint at this URL (404)',
  timeout: 'The server did not answer in time',
  invalid: 'That server cannot be used',
};

/**
 * MCP servers as the agent's tools (issue #31): test a server (its token goes to the worker's
 * vault, bound to the URL), pick the tools the agent may use, keep it for the next run.
 */
export function McpCard() {
  const mcp = useApp((s) => s.mcp);
  const remember = useApp((s) => s.connection.remember);
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [token, setToken] = useState('');
  const [heldFor, setHeldFor] = useState('');
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<McpServerReport | null>(null);
  const [problem, setProblem] = useState<{ kind: string; message: string } | null>(null);
  const [allowed, setAllowed] = useState<Set<string>>(new Set());
  const test = async () => {
    setBusy(true);
    setReport(null);
    setProblem(null);
    try {
      // The token crosses once: the worker holds it for this URL, the page keeps no copy.
      if (token) {
        await trainer().setKeys({ mcp: { [url.trim()]: token } }, remember);
        setToken('');
        setHeldFor(url.trim());
      }
      const r = await trainer().testMcpServer({ url: url.trim(), ...(name.trim() ? { name: name.trim() } : {}) });
      if (!r.ok) return setProblem(r.error);
      setReport(r);
      setAllowed(new Set(r.tools.filter((t) => t.readOnly).map((t) => t.name)));
    } finally {
      setBusy(false);
    }
  };
  const use = () => {
    const server: McpServerConfig = {
      url: url.trim(),
      ...(name.trim() ? { name: name.trim() } : {}),
      tools: [...allowed],
    };
    setApp((s) => ({
      mcp: {
        ...MCP_DEFAULTS,
        ...s.mcp,
        servers: [...(s.mcp?.servers ?? []).filter((x) => x.url !== server.url), server],
      },
    }));
    setReport(null);
    setUrl('');
    setName('');
    setToken('');
  };
  const remove = (u: string) =>
    setApp((s) => {
      const servers = (s.mcp?.servers ?? []).filter((x) => x.url !== u);
      return { mcp: servers.length && s.mcp ? { ...s.mcp, servers } : null };
    });
  return (
    <Card title="MCP servers">
      <p className="small">
        Give the agent the tools of an MCP server (Streamable HTTP).{' '}
        <strong>Tools are called for real during training</strong>: a tool that changes things (a refund, a write) acts
        each time the agent calls it — tick only the tools the agent may use.
      </p>
      {mcp?.servers.length ? (
        <ul className="mcp-servers">
          {mcp.servers.map((s) => (
            <li key={s.url}>
              <strong>{serverName(s)}</strong> <span className="mono small">{s.url}</span> ·{' '}
              {s.tools?.length ? s.tools.join(', ') : 'no tools'}{' '}
              <button type="button" onClick={() => remove(s.url)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {mcp?.servers.length ? <McpKnobs /> : null}
      <div className="grid-2">
        <TextField
          label="MCP server URL"
          hint="Its Streamable HTTP endpoint, e.g. https://mcp.example.com/mcp"
          value={url}
          onChange={setUrl}
        />
        <TextField
          label="Name (optional)"
          hint="Prefixes its tools where two servers share one."
          value={name}
          onChange={setName}
        />
        <TextField
          label="Token (optional)"
          hint="Sent as a bearer token to this URL only, held by the app's worker; never stored with a run."
          type="password"
          autoComplete="off"
          placeholder={heldFor && heldFor === url.trim() ? 'Token held — type to replace' : ''}
          value={token}
          onChange={setToken}
        />
      </div>
      <div className="row">
        <button type="button" className="primary" onClick={() => void test()} disabled={busy || !url.trim()}>
          {busy ? 'Testing…' : 'Test MCP server'}
        </button>
      </div>
      {problem && (
        <Alert>
          <strong>{PROBLEMS[problem.kind] ?? 'The server cannot be used'}.</strong> {problem.message}
        </Alert>
      )}
      {report && (
        <>
          <p className="ok-line">
            {report.server ? `${report.server.name} ${report.server.version}: ` : ''}
            {plural(report.tools.length, 'tool')}
            {report.resources ? `, ${plural(report.resources, 'resource')} (read_resource)` : ''} — connected.
          </p>
          <McpToolPicker report={report} allowed={allowed} setAllowed={setAllowed} />
          <div className="row">
            <button type="button" onClick={use} disabled={allowed.size === 0 && report.resources === 0}>
              Use this server ({plural(allowed.size, 'tool')})
            </button>
          </div>
        </>
      )}
    </Card>
  );
}
