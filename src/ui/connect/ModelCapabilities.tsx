import { describeCapabilities, storedFor } from '../../core/config/capabilities';
import { effectiveOptimizer, useApp } from '../../store/app-store';
import { ROLE_NAMES } from './connection-edit';

/**
 * What each role's model accepts, as Test connection found it and the connection keeps it (issue
 * #44): the run's requests are built from it. A role whose model or endpoint changed since shows
 * nothing until it is tested again.
 */
export function ModelCapabilities() {
  const c = useApp((s) => s.connection);
  const roles = [
    ['target', c.target],
    ['optimizer', effectiveOptimizer(c)],
    ['judge', c.judge],
    ['userSimulator', c.userSimulator],
  ] as const;
  const found = roles.flatMap(([role, e]) => {
    const caps = e && storedFor(e, e.capabilities);
    return caps ? [{ role, model: e.model, caps }] : [];
  });
  if (!found.length) return null;
  return (
    <section className="capabilities" aria-label="What the models accept" data-testid="model-capabilities">
      <h3>What the models accept</h3>
      <div className="grid-2">
        {found.map(({ role, model, caps }) => (
          <div key={role}>
            <strong>
              {ROLE_NAMES[role]} · {model}
            </strong>
            {caps.checkedAt && <span className="muted small"> — tested {caps.checkedAt.slice(0, 10)}</span>}
            <ul className="small">
              {describeCapabilities(caps).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </section>
  );
}
