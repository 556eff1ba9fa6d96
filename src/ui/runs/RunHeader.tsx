/**
 * A run's header card: what it is and where it stands, the actions on it (RunActions), binding an
 * imported run to the user's own connection (BindConnection) and reading the code it carries
 * before it runs (ModuleConsent), renaming, and the runs it was branched from and into (RunLineage).
 */
import { useState } from 'react';
import { trainer } from '../../client/trainer-client';
import type { RunDetail } from '../../worker/api-types';
import { Alert, Card } from '../common/Field';
import { BindConnection } from './BindConnection';
import { ModuleConsent } from './ModuleConsent';
import { RunActions } from './RunActions';
import { RunLineage, type Lineage } from './RunLineage';
import { pct } from './run-format';

export function RunHeader({
  runId,
  detail: d,
  lineage,
  message,
  problem,
  onMessage,
  onError,
  onChanged,
  onDeleted,
  onSelect,
  go,
}: {
  runId: string;
  detail: RunDetail;
  lineage?: Lineage;
  message: string | null;
  /** What went wrong with the last action on the run. */
  problem: string | null;
  onMessage: (text: string) => void;
  onError: (text: string) => void;
  /** Read the run again (after a rename, a cancel or a binding). */
  onChanged: () => void;
  onDeleted: () => void;
  onSelect?: (id: string) => void;
  go: (section: string) => void;
}) {
  const [name, setName] = useState(d.run.name);
  const status = d.run.status;
  const said = { onMessage, onError, onChanged };
  return (
    <Card title={d.run.name} actions={<RunActions runId={runId} detail={d} {...said} onDeleted={onDeleted} go={go} />}>
      {d.lockedElsewhere && <p className="warn">Another tab is running this run; it is read-only here.</p>}
      {d.run.needsBinding && (
        <BindConnection runId={runId} endpoints={d.endpoints} mcpServers={d.mcpServers} {...said} />
      )}
      {d.module?.fromFile && <ModuleConsent runId={runId} module={d.module} {...said} />}
      {d.reason && status !== 'completed' && <p className="muted">{d.reason}</p>}
      <div className="row">
        <label className="inline">
          Name{' '}
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            onBlur={() => void trainer().renameRun(runId, name).then(onChanged)}
            aria-label="Run name"
          />
        </label>
      </div>
      <p>
        Status <strong>{status}</strong> · target {d.endpoints.target.model} · optimizer {d.endpoints.optimizer.model} ·
        step {d.nextStep - 1} of {d.totalSteps} · best validation {pct(d.bestScore)} (step {d.bestStep})
        {d.summary && ` · $${d.summary.totalCostUsd.toFixed(4)}`}
      </p>
      <RunLineage run={d.run} lineage={lineage} onSelect={onSelect} />
      {message && <p className="ok-line">{message}</p>}
      {problem && <Alert>{problem}</Alert>}
    </Card>
  );
}
