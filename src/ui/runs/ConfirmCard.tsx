/**
 * The page's side of a transfer (issue #42 item 5): a finished run's starting and best skills
 * confirmed on another model target — another model, another endpoint — scored on test as the
 * runner's `confirm` does; the lift card then shows the lift under each target and any ranking
 * flip. An agent CLI is confirmed by the runner (the page starts no programs) and shows here when
 * its run is imported. A key typed here goes to the worker once, bound to that endpoint's host.
 */
import { useState } from 'react';
import { proxyCallback, trainer } from '../../client/trainer-client';
import { handOverConfirmKey } from '../../client/keys';
import type { RunDetail, RunEventOf } from '../../worker/api-types';
import { Alert, Card, TextField } from '../common/Field';

const dollars = (usd: number) => (usd > 0 ? `, $${usd.toFixed(4)}` : '');

export function ConfirmCard({
  runId,
  detail: d,
  onChanged,
}: {
  runId: string;
  detail: RunDetail;
  onChanged: () => void;
}) {
  const own = d.endpoints.target;
  const [baseURL, setBaseURL] = useState(own.agentCommand ? '' : own.baseURL);
  const [model, setModel] = useState('');
  const [key, setKey] = useState('');
  const [progress, setProgress] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (d.run.status !== 'completed' || !d.summary?.lift) return null;
  const busy = progress !== null;
  const confirm = async () => {
    setError(null);
    setSaid(null);
    setProgress('Starting…');
    // A progress event comes through its own port: one that arrives after the answer must not
    // mark the card busy again (the button stayed disabled after a Stop on a busy machine).
    let live = true;
    try {
      if (key.trim() && (await handOverConfirmKey(key.trim(), baseURL.trim()))) setKey('');
      // The run's own target settings (temperature, output limit): only the model and its address differ.
      const { agentCommand: _cli, ...settings } = own;
      const r = await trainer().confirmRun(
        runId,
        { ...settings, baseURL: baseURL.trim(), model: model.trim() },
        proxyCallback((e: RunEventOf) => {
          if (live && e.type === 'progress') setProgress(`Scoring ${e.phase}: ${e.done} of ${e.total} test items`);
        }),
      );
      if (r.ok) {
        setSaid(
          `Confirmed on ${r.label}: ${r.calls} call${r.calls === 1 ? '' : 's'}${dollars(r.costUsd)}. ` +
            'Its lift is on the lift card above.',
        );
        onChanged();
      } else if (r.error.kind === 'aborted')
        setSaid('Stopped. The answers so far are kept: confirm again to ask only for the rest.');
      else setError(r.error.message);
    } finally {
      live = false;
      setProgress(null);
    }
  };
  return (
    <Card title="Confirm on another model">
      <p className="muted small">
        Does the lift hold on another model? The starting and the best skill are scored on the same test items there,
        with the same scoring and interval as the runner’s <code>confirm</code>; a ranking flip is named on the lift
        card. An agent CLI is confirmed with the runner, whose run you can import. Answers are kept as they come: a
        confirm stopped and started again asks only what it lacks.
      </p>
      {d.run.needsBinding ? (
        <p className="muted">Bind this run to your own connection first (above).</p>
      ) : (
        <>
          <div className="grid-3">
            <TextField label="Base URL" value={baseURL} onChange={setBaseURL} spellCheck={false} autoComplete="off" />
            <TextField
              label="Model"
              value={model}
              onChange={setModel}
              placeholder="another model"
              spellCheck={false}
              autoComplete="off"
            />
            <TextField
              label="API key (if not the target’s)"
              type="password"
              value={key}
              onChange={setKey}
              autoComplete="off"
              hint="Sent only to this base URL’s host; kept as your Connect keys are."
            />
          </div>
          <div className="row">
            <button
              type="button"
              className="primary"
              disabled={busy || !model.trim() || !baseURL.trim()}
              onClick={() => void confirm()}
            >
              Confirm on this model
            </button>
            {busy && (
              <>
                <span role="status">{progress}</span>
                <button type="button" onClick={() => void trainer().cancelRun(runId)}>
                  Stop
                </button>
              </>
            )}
          </div>
        </>
      )}
      {said && (
        <p role="status" aria-label="Confirm result">
          {said}
        </p>
      )}
      {error && <Alert>{error}</Alert>}
    </Card>
  );
}
