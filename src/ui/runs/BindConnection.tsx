/**
 * An imported run is read-only until it is bound to the user's own connection: the note says which
 * endpoints came with the file (never sent the user's keys) and which ones binding would use. A run
 * whose agent calls MCP servers says what the file asked of them; binding puts the person's own
 * settings for those servers in its place (their names, and only the tools they ticked on Data).
 */
import { trainer } from '../../client/trainer-client';
import { serverName, type McpServerConfig } from '../../core/agent/mcp-servers';
import { effectiveOptimizer, useApp } from '../../store/app-store';
import { chargedPrices } from '../../core/config/service-tier';
import type { RunDetail } from '../../worker/api-types';
import { hostsOf } from './run-format';

const toolsOf = (s: McpServerConfig | undefined) =>
  !s
    ? 'not among your MCP servers'
    : !s.tools
      ? 'every tool it lists'
      : s.tools.length
        ? s.tools.join(', ')
        : 'no tool';

export function BindConnection({
  runId,
  endpoints,
  mcpServers,
  onMessage,
  onError,
  onChanged,
}: {
  runId: string;
  endpoints: RunDetail['endpoints'];
  mcpServers?: RunDetail['mcpServers'];
  onMessage: (text: string) => void;
  onError: (text: string) => void;
  onChanged: () => void;
}) {
  const connection = useApp((s) => s.connection);
  const mcp = useApp((s) => s.mcp);
  const bind = async () => {
    const own = { target: connection.target, optimizer: effectiveOptimizer(connection) };
    const r = await trainer().bindRun(runId, own, chargedPrices(connection.prices, connection), mcp);
    if (r.ok) {
      onMessage(`This run now uses your connection (${r.hosts.join(', ')}).`);
      onChanged();
    } else onError(r.error.message);
  };
  return (
    <div className="warn" role="note">
      <p>
        Imported from a file: read-only. It was made against <strong>{hostsOf(endpoints).join(', ')}</strong>, endpoints
        that came with the file — your keys are never sent to them. To resume it, bind it to your own connection (
        <strong>{hostsOf({ target: connection.target, optimizer: effectiveOptimizer(connection) }).join(', ')}</strong>,
        from Connect).
      </p>
      {mcpServers?.length ? (
        <div aria-label="MCP servers of this run">
          <p>
            Its agent calls MCP servers. The file asked for these tools; binding uses yours instead — each server as you
            set it up on Data, with only the tools you ticked:
          </p>
          <ul className="small">
            {mcpServers.map((s) => (
              <li key={s.url}>
                <strong>{serverName(s)}</strong> ({s.url}): the file asked for {toolsOf(s)}; yours:{' '}
                {toolsOf(mcp?.servers.find((x) => x.url === s.url))}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <button type="button" onClick={() => void bind()}>
        Use my connection for this run
      </button>
    </div>
  );
}
