import { useState } from 'react';
import { handOverKeys } from '../../client/keys';
import { trainer } from '../../client/trainer-client';
import { effectiveOptimizer, setApp, useApp } from '../../store/app-store';
import type { RoleCheck } from '../../worker/api-types';
import { Alert } from '../common/Field';
import { ROLE_NAMES } from './connection-edit';
import { presetById } from './presets';

/** How the optimizer's endpoint answers in JSON, as the connection test found (issue #23). */
function structuredLabel(s: RoleCheck['structuredOutput']): string {
  if (!s) return '';
  if (s.schemaIgnored) return ' (accepts a JSON schema but does not keep to it: replies are read from text)';
  return s.mode === 'none'
    ? ' (no structured output: replies are read from text)'
    : ` (structured output: ${s.mode.replace('_', ' ')})`;
}

/** What each role's model was found to accept is kept with the connection: requests are built from it (issue #44). */
function keepCapabilities(checks: readonly RoleCheck[]) {
  setApp((s) => {
    const c = { ...s.connection };
    for (const x of checks) {
      const e = c[x.role];
      if (x.capabilities && e) c[x.role] = { ...e, capabilities: x.capabilities };
    }
    return { connection: c };
  });
}

/** "Test connection": a call per role, each role's latency and JSON mode, or what is wrong and how to fix it. */
export function ConnectionTest() {
  const c = useApp((s) => s.connection);
  const [checks, setChecks] = useState<RoleCheck[] | null>(null);
  const [busy, setBusy] = useState(false);
  const preset = presetById(c.presetId);
  const test = async () => {
    setBusy(true);
    setChecks(null);
    try {
      await handOverKeys();
      const result = await trainer().testConnection({
        target: c.target,
        optimizer: effectiveOptimizer(c),
        ...(c.judge ? { judge: c.judge } : {}),
        ...(c.userSimulator ? { userSimulator: c.userSimulator } : {}),
      });
      setChecks(result);
      keepCapabilities(result);
    } finally {
      setBusy(false);
    }
  };
  const failed = checks?.filter((x) => !x.ok) ?? [];
  return (
    <>
      <div className="row">
        <button type="button" className="primary" onClick={test} disabled={busy || !c.target.baseURL}>
          {busy ? 'Testing…' : 'Test connection'}
        </button>
      </div>
      {checks && failed.length === 0 && (
        <p className="ok-line">
          {checks
            .map((x) => `${ROLE_NAMES[x.role]} ${x.model}: ${x.latencyMs} ms${structuredLabel(x.structuredOutput)}`)
            .join(' · ')}{' '}
          — connected.
        </p>
      )}
      {checks?.some((x) => x.context) && (
        <Alert>
          <strong>A long prompt does not reach the model whole.</strong>
          <ul>
            {checks
              .filter((x) => x.context)
              .map((x) => (
                <li key={x.role}>
                  {ROLE_NAMES[x.role]}: {x.context!.fix}
                </li>
              ))}
          </ul>
        </Alert>
      )}
      {failed.length > 0 && (
        <Alert>
          <strong>Connection test failed.</strong>
          <ul>
            {failed.map((x) => (
              <li key={x.role}>
                {ROLE_NAMES[x.role]}: {x.error?.message}
                {x.error?.kind === 'unreachable' && (
                  <> {preset.id !== 'custom' ? `For ${preset.name}: ${preset.cors}` : ''}</>
                )}
              </li>
            ))}
          </ul>
        </Alert>
      )}
    </>
  );
}
