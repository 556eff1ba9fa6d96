/**
 * An imported run's environment module (issue #39): code that came with someone else's file. The
 * run says it carries it — name, file, size, hash — and runs none of it until the person has read
 * its source here and chosen "Run this module"; then it runs in the page's sandbox like their own.
 */
import { useState } from 'react';
import { trainer } from '../../client/trainer-client';
import type { RunDetail } from '../../worker/api-types';

const size = (bytes: number) => (bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`);

export function ModuleConsent({
  runId,
  module: m,
  onMessage,
  onError,
  onChanged,
}: {
  runId: string;
  module: NonNullable<RunDetail['module']>;
  onMessage: (text: string) => void;
  onError: (text: string) => void;
  onChanged: () => void;
}) {
  const [source, setSource] = useState<string | null>(null);
  const read = async () => {
    const r = await trainer().getRunModule(runId);
    if (r.ok) setSource(r.module.source);
    else onError(r.error.message);
  };
  const approve = async () => {
    const r = await trainer().approveModule(runId, m.hash);
    if (!r.ok) return onError(r.error.message);
    onMessage(`${m.fileName} will run in this page’s sandbox when the run resumes.`);
    onChanged();
  };
  return (
    <div className="note" role="note" aria-label="Code in this run">
      <p>
        <strong>This run carries code:</strong> the environment module <strong>{m.name}</strong> ({m.fileName},{' '}
        {size(m.bytes)}, hash <code>{m.hash}</code>). It came with the file and has not run in this browser. Before the
        run can resume, read it and choose whether to run it.
      </p>
      {source === null ? (
        <button type="button" onClick={() => void read()}>
          Read the module
        </button>
      ) : (
        <>
          <pre className="mono small scroll" tabIndex={0} aria-label={`Source of ${m.fileName}`}>
            {source}
          </pre>
          <p className="small">
            It would run in a sandbox: no network, none of your keys, runs or settings. It decides what the agent’s
            tools answer and, if it scores, how each trajectory is scored.
          </p>
          <div className="row">
            <button type="button" className="primary" onClick={() => void approve()}>
              Run this module
            </button>
            <button type="button" onClick={() => setSource(null)}>
              Not now
            </button>
          </div>
        </>
      )}
    </div>
  );
}
