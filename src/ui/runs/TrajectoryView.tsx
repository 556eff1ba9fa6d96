import type { RolloutRow } from '../../worker/api-types';
import { showCall } from '../../core/agent/trajectory';
import { USER_ENDS, referencesRead } from '../../core/agent/transcript';

/** How much of a tool result shows before it is folded. */
const PREVIEW = 160;

/**
 * An agent's trajectory, turn by turn (issue #30): what the agent wrote, each call with its
 * arguments, each result folded under its first line, a simulated user's replies (issue #31),
 * the references it read, and the reason the item failed. A single-call row shows its one answer.
 */
export function TrajectoryView({ row, question }: { row: RolloutRow; question?: string }) {
  const t = row.trajectory;
  const read = t ? referencesRead(t) : [];
  return (
    <div className="trajectory" aria-label={`Trajectory of ${row.itemId}`} role="region">
      {question && <p className="small">{question}</p>}
      <p className="small muted">
        <strong>{row.itemId}</strong> · {t ? `${row.turns ?? 0} turns` : 'one call'}
        {read.length ? ` · read ${read.join(', ')}` : ''}
        {row.failReason ? '' : ' · passed'}
      </p>
      {row.failReason && <p className="small fail-text">{row.failReason}</p>}
      {row.error && <p className="small fail-text">{row.error.message}</p>}
      <ol className="turns">
        {(t ?? [{ kind: 'assistant' as const, turn: 1, content: row.response }]).map((e, i) =>
          e.kind === 'assistant' ? (
            <li key={i} className="turn">
              <span className="badge">turn {e.turn}</span>
              {e.content.trim() && <pre className="mono small wrap">{e.content.trim()}</pre>}
              {e.toolCalls?.map((c) => (
                <div key={c.id} className="mono small call">
                  → {showCall(c.name, c.arguments)}
                </div>
              ))}
            </li>
          ) : e.kind === 'user' ? (
            <li key={i} className="turn user-turn">
              <span className="badge">
                user {e.message}
                {e.end ? ` · ${USER_ENDS[e.end]}` : ''}
              </span>
              <pre className="mono small wrap">{e.content.trim()}</pre>
            </li>
          ) : (
            <li key={i} className={`tool-result${e.error ? ' error' : ''}`}>
              {e.result.length <= PREVIEW ? (
                <div className="mono small">
                  ← {e.name}: {e.result}
                </div>
              ) : (
                <details>
                  <summary className="mono small">
                    ← {e.name}: {e.result.slice(0, PREVIEW)}… ({e.result.length} chars)
                  </summary>
                  <pre className="mono small wrap">{e.result}</pre>
                </details>
              )}
            </li>
          ),
        )}
      </ol>
    </div>
  );
}
