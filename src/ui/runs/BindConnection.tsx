/**
 * An imported run is read-only until it is bound to the user's own connection: the note says which
 * endpoints came with the file (never sent the user's keys) and which ones binding would use.
 */
import { trainer } from '../../client/trainer-client';
import { effectiveOptimizer, useApp } from '../../store/app-store';
import { chargedPrices } from '../../core/config/service-tier';
import type { RunDetail } from '../../worker/api-types';
import { hostsOf } from './run-format';

export function BindConnection({
  runId,
  endpoints,
  onMessage,
  onError,
  onChanged,
}: {
  runId: string;
  endpoints: RunDetail['endpoints'];
  onMessage: (text: string) => void;
  onError: (text: string) => void;
  onChanged: () => void;
}) {
  const connection = useApp((s) => s.connection);
  const bind = async () => {
    const own = { target: connection.target, optimizer: effectiveOptimizer(connection) };
    const r = await trainer().bindRun(runId, own, chargedPrices(connection.prices, connection));
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
      <button type="button" onClick={() => void bind()}>
        Use my connection for this run
      </button>
    </div>
  );
}
