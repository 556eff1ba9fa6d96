import type { McpServerReport } from '../../worker/api-types';

/**
 * A tested MCP server's tools, each with a box: ticked, the agent may call it. A tool the server
 * does not declare read-only is marked — it is called for real during training.
 */
export function McpToolPicker({
  report,
  allowed,
  setAllowed,
}: {
  report: McpServerReport;
  allowed: ReadonlySet<string>;
  setAllowed: (next: Set<string>) => void;
}) {
  const toggle = (name: string, on: boolean) => {
    const next = new Set(allowed);
    if (on) next.add(name);
    else next.delete(name);
    setAllowed(next);
  };
  return (
    <fieldset className="mcp-tools">
      <legend className="small">Tools the agent may use</legend>
      {report.tools.length === 0 && <p className="small muted">The server lists no tools.</p>}
      <ul>
        {report.tools.map((t) => (
          <li key={t.name}>
            <label>
              <input type="checkbox" checked={allowed.has(t.name)} onChange={(e) => toggle(t.name, e.target.checked)} />{' '}
              <code>{t.name}</code>{' '}
              <span className={t.sideEffects ? 'badge error' : 'badge'}>
                {t.sideEffects ? 'may change things' : 'read-only'}
              </span>
            </label>
            {t.description && <small className="hint"> {t.description}</small>}
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
